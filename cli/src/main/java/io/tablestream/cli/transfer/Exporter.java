package io.tablestream.cli.transfer;

import io.tablestream.client.Continuation;
import io.tablestream.client.TableServiceHttp;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Exports a table, or the entities a {@code $filter} selects, to a JSON Lines or CSV file.
 *
 * <ul>
 *   <li><b>Parallel</b>: with split points, each PartitionKey range is read by a thread of its own
 *       (see {@link TableScan}); pages of different ranges are appended as they come, each whole.</li>
 *   <li><b>Resumable</b>: after each page written (at most once a second by default) a checkpoint beside the
 *       output records the output's length and where each range goes on. Run the same export again
 *       and it truncates the output to that length and continues every range from there; nothing is
 *       lost or written twice. The entities are written as JSON Lines to {@code <output>.part}, which
 *       becomes the output (or is converted to it, for CSV) once complete: the output never holds
 *       part of a table. An export that fails before writing an entity (no such table, a wrong
 *       filter, nothing answering) leaves no file behind.</li>
 *   <li><b>Point in time</b>: with {@code asOf}, every page is read as the table was then (a table
 *       with history): a consistent snapshot however the table changes during the export.</li>
 *   <li><b>Progress</b>: entities written, rate, and — once a concurrent count of the query (keys only)
 *       is done — the total and the time left.</li>
 * </ul>
 */
public final class Exporter {
    /** What to export and where. */
    public record Request(String table, String filter, String select, List<String> splitPoints, Path output,
                          TransferFormat format, boolean count, String asOf) {
        public Request(String table, String filter, String select, List<String> splitPoints, Path output,
                       TransferFormat format, boolean count) {
            this(table, filter, select, splitPoints, output, format, count, null);
        }
    }

    private final TableServiceHttp http;
    private final PrintStream messages;
    private final Progress.Style style;
    private final long checkpointNanos;

    /** @param checkpointInterval how often the checkpoint is saved (at most) */
    public Exporter(TableServiceHttp http, PrintStream messages, Progress.Style style, java.time.Duration checkpointInterval) {
        this.http = http;
        this.messages = messages;
        this.style = style;
        this.checkpointNanos = checkpointInterval.toNanos();
    }

    /** Runs the export (resuming a checkpointed one); returns how many entities the output holds. */
    public long run(Request request) throws Exception {
        boolean csv = request.format() == TransferFormat.CSV;
        TableScan.requireTable(http, request.table());
        Path lines = request.output().resolveSibling(request.output().getFileName() + ".part");
        Checkpoint checkpoint = new Checkpoint(request.output().resolveSibling(request.output().getFileName() + ".progress"));
        List<String> filters = TableScan.rangeFilters(request.filter(), request.splitPoints());
        Map<String, String> what = new LinkedHashMap<>();
        what.put("what.operation", "export");
        what.put("what.account", http.account().endpoint());
        what.put("what.table", request.table());
        what.put("what.filter", String.valueOf(request.filter()));
        what.put("what.select", String.valueOf(request.select()));
        what.put("what.ranges", String.valueOf(filters));
        what.put("what.format", request.format().name());
        what.put("what.asOf", String.valueOf(request.asOf()));

        List<TableScan.Position> from = new ArrayList<>();
        long entities = 0;
        long bytes = 0;
        Map<String, String> saved = checkpoint.read().orElse(null);
        if (saved != null && Checkpoint.sameTransfer(saved, what) && Files.exists(lines)) {
            bytes = Long.parseLong(saved.get("bytes"));
            entities = Long.parseLong(saved.get("entities"));
            for (int i = 0; i < filters.size(); i++) {
                from.add(position(saved, i));
            }
            try (FileChannel channel = FileChannel.open(lines, StandardOpenOption.WRITE)) {
                channel.truncate(bytes);
            }
            messages.printf("Resuming the export of %s at %,d entities (checkpoint %s)%n", request.table(), entities,
                    checkpoint.file());
        } else {
            if (saved != null) {
                messages.printf("The checkpoint %s is of another export; starting over%n", checkpoint.file());
            }
            filters.forEach(f -> from.add(TableScan.Position.START));
            Files.deleteIfExists(lines);
        }

        AtomicLong total = new AtomicLong(-1);
        Thread counter = request.count() ? startCount(request, filters, total) : null;
        try (OutputStream file = new BufferedOutputStream(Files.newOutputStream(lines, StandardOpenOption.CREATE,
                StandardOpenOption.WRITE, StandardOpenOption.APPEND), 1 << 20)) {
            PageWriter writer = new PageWriter(file, checkpoint, what, from, entities, bytes, checkpointNanos);
            try (Progress progress = new Progress("export " + request.table(), writer::entities, total::get, style,
                    messages)) {
                new TableScan(http, request.table(), request.select(), filters, request.asOf()).run(from, writer);
            }
            writer.checkpoint();
            entities = writer.entities();
        } catch (Exception e) {
            if (Files.exists(lines) && Files.size(lines) == 0) {
                // nothing exported: nothing to resume, no file left behind
                Files.deleteIfExists(lines);
                checkpoint.delete();
            }
            throw e;
        } finally {
            if (counter != null) {
                counter.interrupt();
            }
        }
        if (csv) {
            messages.printf("Writing %s as CSV%n", request.output());
            CsvEntities.fromLines(lines, request.output());
            Files.delete(lines);
        } else {
            Files.move(lines, request.output(), StandardCopyOption.REPLACE_EXISTING);
        }
        checkpoint.delete();
        return entities;
    }

    /** Counts the query's entities (keys only) on a thread of its own, setting {@code total} when done. */
    private Thread startCount(Request request, List<String> filters, AtomicLong total) {
        Thread t = new Thread(() -> {
            try {
                total.set(new Counter(http).count(request.table(), filters, request.asOf(), n -> { }));
            } catch (Exception e) {
                // no total: progress shows no time left
            }
        }, "count");
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static TableScan.Position position(Map<String, String> saved, int range) {
        String state = saved.get("range." + range + ".state");
        if ("done".equals(state)) {
            return TableScan.Position.DONE;
        }
        if ("next".equals(state)) {
            return TableScan.Position.at(new Continuation(saved.get("range." + range + ".nextPartitionKey"),
                    saved.get("range." + range + ".nextRowKey")));
        }
        return TableScan.Position.START;
    }

    /** Appends each page's lines and keeps the checkpoint (called by the ranges' threads). */
    private static final class PageWriter implements TableScan.PageSink {
        private final long checkpointNanos;
        private final OutputStream out;
        private final Checkpoint checkpoint;
        private final Map<String, String> what;
        private final List<TableScan.Position> positions;
        private volatile long entities;
        private long bytes;
        private long checkpointedAt = System.nanoTime();

        PageWriter(OutputStream out, Checkpoint checkpoint, Map<String, String> what, List<TableScan.Position> from,
                   long entities, long bytes, long checkpointNanos) {
            this.checkpointNanos = checkpointNanos;
            this.out = out;
            this.checkpoint = checkpoint;
            this.what = what;
            this.positions = new ArrayList<>(from);
            this.entities = entities;
            this.bytes = bytes;
        }

        long entities() {
            return entities;
        }

        @Override
        public void accept(int range, byte[] page, Continuation next) throws IOException {
            EntityLines.Lines lines = EntityLines.fromPage(page);
            synchronized (this) {
                out.write(lines.bytes());
                bytes += lines.bytes().length;
                entities += lines.entities();
                positions.set(range, TableScan.Position.at(next));
                long now = System.nanoTime();
                if (now - checkpointedAt >= checkpointNanos) {
                    checkpoint();
                }
            }
        }

        /** Flushes the output and saves where every range stands. */
        synchronized void checkpoint() throws IOException {
            out.flush();
            checkpoint.save(values());
            checkpointedAt = System.nanoTime();
        }

        private Map<String, String> values() {
            Map<String, String> v = new HashMap<>(what);
            v.put("bytes", Long.toString(bytes));
            v.put("entities", Long.toString(entities));
            for (int i = 0; i < positions.size(); i++) {
                TableScan.Position p = positions.get(i);
                if (p.done()) {
                    v.put("range." + i + ".state", "done");
                } else if (p.continuation() == null) {
                    v.put("range." + i + ".state", "start");
                } else {
                    v.put("range." + i + ".state", "next");
                    v.put("range." + i + ".nextPartitionKey", p.continuation().partitionKey());
                    if (p.continuation().rowKey() != null) {
                        v.put("range." + i + ".nextRowKey", p.continuation().rowKey());
                    }
                }
            }
            return v;
        }
    }
}
