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
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Imports a JSON Lines or CSV file (as {@link Exporter} writes them) into a table, creating it if
 * needed.
 *
 * <ul>
 *   <li><b>Batches of 100</b>: consecutive entities of one PartitionKey go in one entity group
 *       transaction (at most 100 operations, under 4 MiB, each RowKey once), written Insert Or Replace
 *       (or Insert Or Merge); an exported file is in key order, so its partitions fill whole batches.</li>
 *   <li><b>Parallel</b>: up to {@code parallel} batches are in flight at once, each on its own
 *       connection; batches of different PartitionKeys are applied by the service in parallel.</li>
 *   <li><b>Resumable</b>: a checkpoint beside the input records how many entities from the start of
 *       the file are all written (at most once a second by default). Run the same import again and it skips them;
 *       writes are idempotent (Insert Or Replace/Merge), so a batch written twice changes nothing.</li>
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
    /** What to import and how. */
    public record Request(String table, Path input, TransferFormat format, ChangeSet.Mode mode, int parallel,
                          boolean createTable) {
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
        if (request.createTable()) {
            Answer created = http.createTable(request.table()).get(60, TimeUnit.SECONDS);
            if (!created.succeeded() && created.status() != 409) {
                throw new TransferException("Cannot create the table " + request.table() + ": " + created.describe());
            }
        }
        Path input = request.input();
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
        try (Records records = Records.open(input, request.format());
             Progress progress = new Progress("import " + request.table(), written::count, total::get, style, messages)) {
            long index = 0;
            ChangeSet batch = null;
            long batchFirst = 0;
            long[] batchLines = new long[ChangeSet.MAX_OPERATIONS];
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
                    throw new TransferException(records.where() + ": " + e.getMessage());
                }
                if (batch != null && (!batch.partitionKey().equals(key.partitionKey()) || !batch.fits(entity.length)
                        || batch.contains(key.rowKey()))) {
                    sender.send(batch, batchFirst, Arrays.copyOf(batchLines, batch.size()));
                    batch = null;
                }
                if (batch == null) {
                    batch = new ChangeSet(key.partitionKey());
                    batchFirst = record;
                }
                batchLines[batch.size()] = records.line();
                batch.add(request.mode(), http.entityUrl(request.table(), key.partitionKey(), key.rowKey()),
                        key.rowKey(), entity);
                sender.rethrow();
                long now = System.nanoTime();
                if (now - checkpointedAt >= checkpointNanos) {
                    save(checkpoint, what, written);
                    checkpointedAt = now;
                }
            }
            if (batch != null) {
                sender.send(batch, batchFirst, Arrays.copyOf(batchLines, batch.size()));
            }
            sender.awaitAll();
            total.set(index);
        } catch (Exception e) {
            sender.drain(); // what is in flight still counts
            save(checkpoint, what, written);
            throw e;
        } finally {
            counter.interrupt();
        }
        checkpoint.delete();
        return written.count();
    }

    private static void save(Checkpoint checkpoint, Map<String, String> what, Written written) {
        Map<String, String> v = new HashMap<>(what);
        v.put("entities", Long.toString(written.contiguous()));
        checkpoint.save(v);
    }

    /** Sends batches, at most {@code parallel} at once, retrying what may succeed later. */
    private final class Sender {
        private final Request request;
        private final Written written;
        private final Semaphore inFlight;
        private final AtomicReference<RuntimeException> failure = new AtomicReference<>();

        Sender(Request request, Written written) {
            this.request = request;
            this.written = written;
            this.inFlight = new Semaphore(request.parallel());
        }

        void send(ChangeSet batch, long first, long[] lines) throws InterruptedException {
            inFlight.acquire();
            rethrowReleasing();
            attempt(batch, first, lines, 1);
        }

        private void rethrowReleasing() {
            RuntimeException f = failure.get();
            if (f != null) {
                inFlight.release();
                throw f;
            }
        }

        private void attempt(ChangeSet batch, long first, long[] lines, int attempt) {
            CompletableFuture<Answer> answer = http.batch(batch);
            answer.whenComplete((a, error) -> {
                boolean retry = error != null ? TableServiceHttp.retriable(error) : TableServiceHttp.retriable(a.status());
                if ((error != null || !a.succeeded()) && retry && attempt < TableScan.ATTEMPTS && failure.get() == null) {
                    CompletableFuture.delayedExecutor(Math.min(10_000, 200L << Math.min(attempt, 6)), TimeUnit.MILLISECONDS)
                            .execute(() -> attempt(batch, first, lines, attempt + 1));
                    return;
                }
                try {
                    if (error != null) {
                        fail("Writing the batch of lines " + lines[0] + "-" + lines[lines.length - 1] + " failed: " + error);
                        return;
                    }
                    BatchResult result = BatchResult.of(a, batch.size());
                    if (!result.applied()) {
                        String where = result.failedOperation() >= 0 && result.failedOperation() < lines.length
                                ? "line " + lines[result.failedOperation()]
                                : "the batch of lines " + lines[0] + "-" + lines[lines.length - 1];
                        fail("The service refused " + where + " (PartitionKey '" + batch.partitionKey() + "'): "
                                + result.failure());
                        return;
                    }
                    written.done(first, batch.size());
                } finally {
                    inFlight.release();
                }
            });
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
     * written (batches complete out of order), which is what a checkpoint may promise.
     */
    private static final class Written {
        private final AtomicLong count;
        private long contiguous;
        private final TreeMap<Long, Long> ahead = new TreeMap<>();

        Written(long resumedAt) {
            this.count = new AtomicLong(resumedAt);
            this.contiguous = resumedAt;
        }

        long count() {
            return count.get();
        }

        synchronized long contiguous() {
            return contiguous;
        }

        synchronized void done(long first, int n) {
            count.addAndGet(n);
            ahead.put(first, (long) n);
            Long next;
            while ((next = ahead.remove(contiguous)) != null) {
                contiguous += next;
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
