package io.tablestream.cli.transfer;

import io.tablestream.client.BatchResult;
import io.tablestream.client.ChangeSet;
import io.tablestream.client.TableServiceHttp;
import io.tablestream.client.TableServiceHttp.Answer;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Imports a JSON Lines or CSV file (as {@link Exporter} writes them) into a table, creating it if
 * needed.
 *
 * <ul>
 *   <li><b>Batches of 100, in any order</b>: entities are grouped by PartitionKey as they are read
 *       (the file may be in any order), and each group of 100 (under 4 MiB, each RowKey once) goes
 *       as one entity group transaction, written Insert Or Replace (or Insert Or Merge). The groups
 *       waiting to fill hold at most {@code groupBytes} of entities: beyond that the largest are sent
 *       as they are, and a group whose PartitionKey has not come for {@value #STALE_AFTER} entities is
 *       sent too. A file in key order fills whole batches at once; a shuffled one whose partitions fit
 *       the memory fills them all the same.</li>
 *   <li><b>Parallel</b>: up to {@code parallel} batches are in flight at once, each on its own
 *       connection; batches of different PartitionKeys are applied by the service in parallel. A
 *       batch holding a RowKey that a batch in flight also writes (a file with one entity twice) waits
 *       for it, so the later line wins, as in the file.</li>
 *   <li><b>Resumable</b>: a checkpoint beside the input records how many entities from the start of
 *       the file are all written (at most once a second by default). Run the same import again and it
 *       skips them; writes are idempotent (Insert Or Replace/Merge), so an entity written twice
 *       changes nothing. Interrupted (Ctrl-C), it says how far it got and how to resume.</li>
 *   <li><b>Retries</b>: a batch the service could not take for a moment (503, a timeout, a lost
 *       connection) is sent again, up to {@value TableScan#ATTEMPTS} times; any other refusal stops the
 *       import, naming the line (or CSV row) and the service's reason.</li>
 * </ul>
 *
 * <p>One class, over 400 lines: reading the file, batching, the in-flight window, retries and the
 * checkpoint share one cursor (the line every earlier entity is written up to); apart, each would
 * need the others' state to know what may be checkpointed.
 */
public final class Importer {
    /** How long (in entities read) a PartitionKey's group may wait for more of its entities. */
    static final long STALE_AFTER = 100_000;
    /** The default memory for groups waiting to fill (the {@code --group-memory} option's default). */
    public static final int DEFAULT_GROUP_MEBIBYTES = 64;

    /** What to import and how; {@code groupBytes}: memory for the groups waiting to fill. */
    public record Request(String table, Path input, TransferFormat format, ChangeSet.Mode mode, int parallel,
                          boolean createTable, long groupBytes) {
        public Request(String table, Path input, TransferFormat format, ChangeSet.Mode mode, int parallel,
                       boolean createTable) {
            this(table, input, format, mode, parallel, createTable, DEFAULT_GROUP_MEBIBYTES * 1024L * 1024);
        }
    }

    private final TableServiceHttp http;
    private final PrintStream messages;
    private final Progress.Style style;
    private final long checkpointNanos;

    /** @param checkpointInterval how often the checkpoint is saved (at most) */
    public Importer(TableServiceHttp http, PrintStream messages, Progress.Style style, java.time.Duration checkpointInterval) {
        this.http = http;
        this.messages = messages;
        this.style = style;
        this.checkpointNanos = checkpointInterval.toNanos();
    }

    /** Runs the import (resuming a checkpointed one); returns how many entities were written in all. */
    public long run(Request request) throws Exception {
        Path input = request.input();
        if (!Files.isReadable(input)) {
            throw new TransferException(Files.exists(input) ? "Cannot read the file " + input : "No such file: " + input);
        }
        if (request.createTable()) {
            Answer created;
            try {
                created = http.createTable(request.table()).get(60, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                throw new TransferException(CallFailure.describe(e.getCause(), http.account().endpoint()), e.getCause());
            }
            if (!created.succeeded() && created.status() != 409) {
                throw new TransferException("Cannot create the table " + request.table() + ": "
                        + http.refusal(request.table(), created));
            }
        } else {
            TableScan.requireTable(http, request.table());
        }
        Checkpoint checkpoint = new Checkpoint(input.resolveSibling(input.getFileName() + ".import-"
                + request.table() + ".progress"));
        Map<String, String> what = new LinkedHashMap<>();
        what.put("what.operation", "import");
        what.put("what.account", http.account().endpoint());
        what.put("what.table", request.table());
        what.put("what.input", input.toAbsolutePath().toString());
        what.put("what.inputBytes", Long.toString(Files.size(input)));
        what.put("what.inputModified", Long.toString(Files.getLastModifiedTime(input).toMillis()));
        what.put("what.format", request.format().name());
        what.put("what.mode", request.mode().name());
        long skip = 0;
        Map<String, String> saved = checkpoint.read().orElse(null);
        if (saved != null && Checkpoint.sameTransfer(saved, what)) {
            skip = Long.parseLong(saved.get("entities"));
            messages.printf("Resuming the import into %s after %,d entities (checkpoint %s)%n", request.table(), skip,
                    checkpoint.file());
        } else if (saved != null) {
            messages.printf("The checkpoint %s is of another import; starting over%n", checkpoint.file());
        }

        AtomicLong total = new AtomicLong(-1);
        Thread counter = new Thread(() -> {
            try {
                total.set(countRecords(input, request.format()));
            } catch (IOException | RuntimeException e) {
                // no total: progress shows no time left
            }
        }, "count");
        counter.setDaemon(true);
        counter.start();

        Written written = new Written(skip);
        Sender sender = new Sender(request, written);
        Thread interrupted = new Thread(() -> {
            save(checkpoint, what, written);
            messages.printf("%nInterrupted: %,d entities of %s written into %s; the first %,d of the file are all"
                    + " written. Run the same command again to resume from there (checkpoint %s).%n", written.count(),
                    input, request.table(), written.contiguous(), checkpoint.file());
            messages.flush();
        }, "import-interrupted");
        Runtime.getRuntime().addShutdownHook(interrupted);
        try (Records records = Records.open(input, request.format());
             Progress progress = new Progress("import " + request.table(), written::count, total::get, style, messages)) {
            Groups groups = new Groups(request.groupBytes());
            long index = 0;
            long checkpointedAt = System.nanoTime();
            byte[] entity;
            while ((entity = records.next()) != null) {
                if (index++ < skip) {
                    continue;
                }
                long record = index - 1;
                EntityLines.EntityKey key;
                try {
                    key = EntityLines.keysOf(entity, 0, entity.length);
                } catch (IllegalArgumentException e) {
                    throw new TransferException(input + ", " + records.where() + ": " + e.getMessage());
                }
                written.read(record);
                Group full = groups.add(key, entity, record, records.line());
                if (full != null) {
                    sender.send(full);
                }
                for (Group g : groups.overflow(record)) {
                    sender.send(g);
                }
                sender.rethrow();
                long now = System.nanoTime();
                if (now - checkpointedAt >= checkpointNanos) {
                    save(checkpoint, what, written);
                    checkpointedAt = now;
                }
            }
            for (Group g : groups.drain()) {
                sender.send(g);
            }
            sender.awaitAll();
            total.set(index);
        } catch (Exception e) {
            sender.drain(); // what is in flight still counts
            save(checkpoint, what, written);
            if (e instanceof TransferException && written.count() > skip) {
                throw new TransferException(e.getMessage() + System.lineSeparator() + String.format(
                        "%,d entities were written; the first %,d of the file are all written. Run the same command"
                                + " again to resume from there (checkpoint %s).", written.count(), written.contiguous(),
                        checkpoint.file()), e);
            }
            throw e;
        } finally {
            counter.interrupt();
            try {
                Runtime.getRuntime().removeShutdownHook(interrupted);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs (or ran): it says how far the import got
            }
        }
        checkpoint.delete();
        return written.count();
    }

    /** Saves how far the import got; from its thread and its shutdown hook, so a later save never says less. */
    private static void save(Checkpoint checkpoint, Map<String, String> what, Written written) {
        synchronized (checkpoint) {
            Map<String, String> v = new HashMap<>(what);
            v.put("entities", Long.toString(written.contiguous()));
            checkpoint.save(v);
        }
    }

    /** A PartitionKey's entities waiting to be sent together: at most one batch's worth. */
    static final class Group {
        final String partitionKey;
        final List<byte[]> entities = new ArrayList<>();
        final Set<String> rowKeys = new HashSet<>();
        final long[] records = new long[ChangeSet.MAX_OPERATIONS];
        final long[] lines = new long[ChangeSet.MAX_OPERATIONS];
        final List<String> keys = new ArrayList<>();
        long bytes;
        long lastRecord;

        Group(String partitionKey) {
            this.partitionKey = partitionKey;
        }

        int size() {
            return entities.size();
        }

        /** Whether an entity of {@code rowKey} and {@code length} bytes may join (count, size, each RowKey once). */
        boolean accepts(String rowKey, int length) {
            return size() < ChangeSet.MAX_OPERATIONS && !rowKeys.contains(rowKey)
                    && bytes + length + 512L * (size() + 1) < ChangeSet.MAX_BODY_BYTES;
        }

        void add(String rowKey, byte[] entity, long record, long line) {
            records[size()] = record;
            lines[size()] = line;
            entities.add(entity);
            rowKeys.add(rowKey);
            keys.add(rowKey);
            bytes += entity.length;
            lastRecord = record;
        }

        boolean full() {
            return size() == ChangeSet.MAX_OPERATIONS;
        }
    }

    /**
     * The groups waiting to fill, by PartitionKey, least recently added to first; bounded in bytes.
     */
    static final class Groups {
        private final long limit;
        private final LinkedHashMap<String, Group> waiting = new LinkedHashMap<>(1024, 0.75f, true);
        private long bytes;

        Groups(long limit) {
            this.limit = Math.max(limit, 1);
        }

        /** Adds an entity; answers a group ready to go (full, or closed by this entity's RowKey), else null. */
        Group add(EntityLines.EntityKey key, byte[] entity, long record, long line) {
            Group ready = null;
            Group g = waiting.get(key.partitionKey());
            if (g != null && !g.accepts(key.rowKey(), entity.length)) {
                ready = remove(g);
                g = null;
            }
            if (g == null) {
                g = new Group(key.partitionKey());
                waiting.put(key.partitionKey(), g);
            }
            g.add(key.rowKey(), entity, record, line);
            bytes += entity.length;
            if (g.full()) {
                if (ready != null) {
                    throw new IllegalStateException("a group cannot be closed and filled by one entity");
                }
                ready = remove(g);
            }
            return ready;
        }

        private Group remove(Group g) {
            waiting.remove(g.partitionKey);
            bytes -= g.bytes;
            return g;
        }

        /**
         * The groups to send now: over the memory limit, the largest until a quarter is free; and
         * the groups whose PartitionKey has not come for {@link #STALE_AFTER} entities.
         */
        List<Group> overflow(long record) {
            List<Group> out = new ArrayList<>();
            Iterator<Group> oldest = waiting.values().iterator();
            while (oldest.hasNext()) {
                Group g = oldest.next();
                if (record - g.lastRecord < STALE_AFTER) {
                    break;
                }
                oldest.remove();
                bytes -= g.bytes;
                out.add(g);
            }
            if (bytes > limit) {
                List<Group> bySize = new ArrayList<>(waiting.values());
                bySize.sort(Comparator.comparingInt(Group::size).reversed());
                for (Group g : bySize) {
                    if (bytes <= limit * 3 / 4) {
                        break;
                    }
                    out.add(remove(g));
                }
            }
            return out;
        }

        /** Every group left (the end of the file). */
        List<Group> drain() {
            List<Group> out = new ArrayList<>(waiting.values());
            waiting.clear();
            bytes = 0;
            return out;
        }
    }

    /** Sends batches, at most {@code parallel} at once, retrying what may succeed later. */
    private final class Sender {
        private final Request request;
        private final Written written;
        private final Semaphore inFlight;
        private final AtomicReference<RuntimeException> failure = new AtomicReference<>();
        /** The batches in flight of each PartitionKey (a later one writing the same RowKey waits for them). */
        private final Map<String, List<Sent>> sending = new HashMap<>();

        private record Sent(Set<String> rowKeys, CompletableFuture<Void> done) {
        }

        Sender(Request request, Written written) {
            this.request = request;
            this.written = written;
            this.inFlight = new Semaphore(request.parallel());
        }

        void send(Group group) throws InterruptedException {
            inFlight.acquire();
            rethrowReleasing();
            ChangeSet batch = new ChangeSet(group.partitionKey);
            for (int i = 0; i < group.size(); i++) {
                String rowKey = group.keys.get(i);
                batch.add(request.mode(), http.entityUrl(request.table(), group.partitionKey, rowKey), rowKey,
                        group.entities.get(i));
            }
            long[] records = Arrays.copyOf(group.records, group.size());
            long[] lines = Arrays.copyOf(group.lines, group.size());
            Sent sent = new Sent(group.rowKeys, new CompletableFuture<>());
            List<CompletableFuture<Void>> before = new ArrayList<>();
            synchronized (sending) {
                List<Sent> same = sending.computeIfAbsent(group.partitionKey, k -> new ArrayList<>());
                for (Sent s : same) {
                    if (!java.util.Collections.disjoint(s.rowKeys(), group.rowKeys)) {
                        before.add(s.done());
                    }
                }
                same.add(sent);
            }
            sent.done().whenComplete((v, e) -> {
                synchronized (sending) {
                    List<Sent> same = sending.get(group.partitionKey);
                    same.remove(sent);
                    if (same.isEmpty()) {
                        sending.remove(group.partitionKey);
                    }
                }
            });
            CompletableFuture.allOf(before.toArray(CompletableFuture[]::new))
                    .whenComplete((v, e) -> attempt(batch, records, lines, 1, sent.done()));
        }

        private void rethrowReleasing() {
            RuntimeException f = failure.get();
            if (f != null) {
                inFlight.release();
                throw f;
            }
        }

        private void attempt(ChangeSet batch, long[] records, long[] lines, int attempt, CompletableFuture<Void> done) {
            CompletableFuture<Answer> answer = http.batch(batch);
            answer.whenComplete((a, error) -> {
                boolean retry = error != null ? TableServiceHttp.retriable(error) : TableServiceHttp.retriable(a.status());
                if ((error != null || !a.succeeded()) && retry && attempt < TableScan.ATTEMPTS && failure.get() == null) {
                    CompletableFuture.delayedExecutor(Math.min(10_000, 200L << Math.min(attempt, 6)), TimeUnit.MILLISECONDS)
                            .execute(() -> attempt(batch, records, lines, attempt + 1, done));
                    return;
                }
                try {
                    if (error != null) {
                        fail("Writing the batch of " + where(lines) + " of " + request.input() + " failed: "
                                + CallFailure.describe(error, http.account().endpoint()));
                        return;
                    }
                    BatchResult result = BatchResult.of(a, batch.size());
                    if (!result.applied()) {
                        String line = result.failedOperation() >= 0 && result.failedOperation() < lines.length
                                ? "line " + lines[result.failedOperation()] : "the batch of " + where(lines);
                        fail("The service refused " + line + " of " + request.input() + " (PartitionKey '"
                                + batch.partitionKey() + "'): " + result.failure());
                        return;
                    }
                    written.done(records);
                } finally {
                    done.complete(null);
                    inFlight.release();
                }
            });
        }

        private static String where(long[] lines) {
            return lines.length == 1 ? "line " + lines[0] : "lines " + lines[0] + " to " + lines[lines.length - 1];
        }

        private void fail(String message) {
            failure.compareAndSet(null, new TransferException(message));
        }

        void rethrow() {
            RuntimeException f = failure.get();
            if (f != null) {
                throw f;
            }
        }

        /** Waits until nothing is in flight. */
        void drain() throws InterruptedException {
            inFlight.acquire(request.parallel());
            inFlight.release(request.parallel());
        }

        void awaitAll() throws InterruptedException {
            drain();
            rethrow();
        }
    }

    /**
     * Which entities are written: the count, and the longest run from the start of the file all
     * written (batches complete out of order, and group entities from all over the file), which is
     * what a checkpoint may promise.
     */
    static final class Written {
        private final AtomicLong count;
        /** Entities read and not yet written, by their index in the file. */
        private final TreeSet<Long> outstanding = new TreeSet<>();
        private long read;

        Written(long resumedAt) {
            this.count = new AtomicLong(resumedAt);
            this.read = resumedAt;
        }

        long count() {
            return count.get();
        }

        synchronized void read(long record) {
            outstanding.add(record);
            read = record + 1;
        }

        synchronized long contiguous() {
            return outstanding.isEmpty() ? read : outstanding.first();
        }

        synchronized void done(long[] records) {
            count.addAndGet(records.length);
            for (long r : records) {
                outstanding.remove(r);
            }
        }
    }

    /** How many entities a file holds (lines that are not blank; CSV rows). */
    static long countRecords(Path input, TransferFormat format) throws IOException {
        long n = 0;
        try (Records records = Records.open(input, format)) {
            while (records.next() != null) {
                n++;
            }
        }
        return n;
    }

    /** The entities of an input file, one JSON object each, with where each came from. */
    abstract static class Records implements AutoCloseable {
        static Records open(Path input, TransferFormat format) throws IOException {
            return format == TransferFormat.CSV ? new CsvRecordsOf(input) : new JsonLines(input);
        }

        /** The next entity's JSON, or null at the end. */
        abstract byte[] next() throws IOException;

        /** The line (JSON Lines) or row (CSV) of the last entity returned, from 1. */
        abstract long line();

        /** "line 12" or "CSV row 12": where the last entity came from. */
        abstract String where();

        @Override
        public abstract void close() throws IOException;
    }

    /** Lines of a JSON Lines file, blank ones skipped. */
    private static final class JsonLines extends Records {
        private final InputStream in;
        private byte[] buffer = new byte[1 << 20];
        private int position;
        private int limit;
        private boolean end;
        private long line;

        JsonLines(Path input) throws IOException {
            this.in = Files.newInputStream(input);
        }

        @Override
        byte[] next() throws IOException {
            while (true) {
                int newline = -1;
                int scanned = position;
                while (true) {
                    for (int i = scanned; i < limit; i++) {
                        if (buffer[i] == '\n') {
                            newline = i;
                            break;
                        }
                    }
                    if (newline >= 0 || end) {
                        break;
                    }
                    scanned = limit - position;
                    fill();
                    scanned += position;
                }
                if (newline < 0 && position == limit) {
                    return null;
                }
                int lineEnd = newline >= 0 ? newline : limit;
                int from = position;
                position = newline >= 0 ? newline + 1 : limit;
                line++;
                int to = lineEnd;
                while (to > from && isBlank(buffer[to - 1])) {
                    to--;
                }
                int start = from;
                while (start < to && isBlank(buffer[start])) {
                    start++;
                }
                if (start < to) {
                    return Arrays.copyOfRange(buffer, start, to);
                }
            }
        }

        private static boolean isBlank(byte b) {
            return b == ' ' || b == '\t' || b == '\r';
        }

        /** Moves the unread bytes to the front, grows the buffer if a line fills it, and reads more. */
        private void fill() throws IOException {
            int unread = limit - position;
            if (position == 0 && unread == buffer.length) {
                buffer = Arrays.copyOf(buffer, buffer.length * 2);
            } else {
                System.arraycopy(buffer, position, buffer, 0, unread);
            }
            position = 0;
            limit = unread;
            int n = in.read(buffer, limit, buffer.length - limit);
            if (n < 0) {
                end = true;
            } else {
                limit += n;
            }
        }

        @Override
        long line() {
            return line;
        }

        @Override
        String where() {
            return "line " + line;
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }

    /** Rows of a typed CSV file. */
    private static final class CsvRecordsOf extends Records {
        private final java.io.Reader in;
        private final CsvEntities.RowReader rows;

        CsvRecordsOf(Path input) throws IOException {
            this.in = Files.newBufferedReader(input, StandardCharsets.UTF_8);
            this.rows = new CsvEntities.RowReader(in);
        }

        @Override
        byte[] next() throws IOException {
            return rows.next();
        }

        @Override
        long line() {
            return rows.rows();
        }

        @Override
        String where() {
            return "CSV row " + rows.rows();
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
