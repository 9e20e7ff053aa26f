package io.tablestream.server.cluster;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.TableEntity;
import io.tablestream.server.RawTableClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A steady workload through the official SDK (clients that never retry, so every failure counts):
 * point reads of known entities on every partition, scans (two pages each), and inserts of new entities, each
 * recorded with when it started and ended and how it went — what the fail-over figures are computed
 * from; and, over raw HTTP, bulk writes of new entities on several PartitionKeys. Every acknowledged
 * insert is kept, and every line of a bulk write answered as written, to check that none is lost.
 */
final class ClusterLoad implements AutoCloseable {
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final OpLog log = new OpLog();
    private final ConcurrentLinkedQueue<TableEntity> acknowledged = new ConcurrentLinkedQueue<>();
    private final AtomicLong sequence = new AtomicLong();
    /** Row keys of this load's inserts start with it, so no two loads on one table insert the same entity. */
    private final String run = Long.toString(System.nanoTime(), 36);
    private final List<Thread> threads = new ArrayList<>();

    /**
     * Starts the load on {@code tables} (one client per instance the load goes through): a reader and
     * a writer per client, a bulk writer per raw client, and one scanner on the first.
     *
     * @param raw raw clients of the same instances, for bulk writes (10 entities on 10 PartitionKeys each)
     * @param readKeys PartitionKey/RowKey pairs of existing entities, read in turn
     */
    static ClusterLoad start(List<TableClient> tables, List<RawTableClient> raw, List<String[]> readKeys) {
        ClusterLoad load = new ClusterLoad();
        String bulkTable = tables.get(0).getTableName();
        for (int i = 0; i < raw.size(); i++) {
            RawTableClient http = raw.get(i);
            load.thread("bulk-" + i, () -> {
                long n = load.sequence.incrementAndGet();
                List<TableEntity> entities = new ArrayList<>();
                StringBuilder body = new StringBuilder();
                for (int e = 0; e < 10; e++) {
                    TableEntity entity = new TableEntity("w" + ((n + e) % 24), load.run + "-b" + n + "-" + e)
                            .addProperty("N", n);
                    entities.add(entity);
                    body.append("{\"PartitionKey\":\"").append(entity.getPartitionKey()).append("\",\"RowKey\":\"")
                            .append(entity.getRowKey()).append("\",\"N\":").append(n).append("}\n");
                }
                load.record("bulk", () -> {
                    RawTableClient.Response r = http.request("POST", bulkTable + "()/$bulk")
                            .contentType("application/x-ndjson").body(body.toString().getBytes(StandardCharsets.UTF_8))
                            .send();
                    if (r.status() != 200) {
                        throw new IllegalStateException("Status code " + r.status() + " " + r.errorCode());
                    }
                    Set<Integer> failed = new HashSet<>();
                    @SuppressWarnings("unchecked")
                    List<Map<String, Object>> lines = (List<Map<String, Object>>) r.json().get("Failed");
                    for (Map<String, Object> line : lines) {
                        // a line the server could not answer for in time (an instance failing over)
                        if (!List.of("ServerBusy", "OperationTimedOut").contains(String.valueOf(line.get("Code")))) {
                            throw new IllegalStateException("a bulk line failed with " + line);
                        }
                        failed.add(((Number) line.get("Line")).intValue());
                    }
                    for (int e = 0; e < entities.size(); e++) {
                        if (!failed.contains(e + 1)) {
                            load.acknowledged.add(entities.get(e));
                        }
                    }
                });
            });
        }
        for (int i = 0; i < tables.size(); i++) {
            TableClient table = tables.get(i);
            int offset = i;
            load.thread("reader-" + i, () -> {
                String[] key = readKeys.get((int) (load.sequence.incrementAndGet() + offset) % readKeys.size());
                load.record("read", () -> table.getEntity(key[0], key[1]));
            });
            load.thread("writer-" + i, () -> {
                long n = load.sequence.incrementAndGet();
                TableEntity entity = new TableEntity("w" + (n % 24), load.run + "-" + n).addProperty("N", n);
                if (load.record("write", () -> table.createEntity(entity))) {
                    load.acknowledged.add(entity);
                }
            });
        }
        TableClient scanned = tables.get(0);
        // the first two pages of a scan of the whole table: every partition, a continuation followed
        load.thread("scanner", () -> load.record("scan", () -> {
            var pages = scanned.listEntities(new ListEntitiesOptions().setTop(100), null, null).iterableByPage().iterator();
            for (int i = 0; i < 2 && pages.hasNext(); i++) {
                pages.next().getValue().size();
            }
        }));
        return load;
    }

    private void thread(String name, Runnable step) {
        Thread t = new Thread(() -> {
            while (running.get()) {
                step.run();
            }
        }, "load-" + name);
        t.setDaemon(true);
        threads.add(t);
        t.start();
    }

    private boolean record(String kind, Runnable op) {
        boolean ok = log.record(kind, op);
        if (!ok) {
            sleep(Duration.ofMillis(20)); // a failing instance answers at once: do not spin
        }
        return ok;
    }

    List<TableEntity> acknowledged() {
        return List.copyOf(acknowledged);
    }

    /** See {@link OpLog#disruptedFor}. */
    Duration disruptedFor(String kind, long sinceNanos, Duration slow) {
        return log.disruptedFor(kind, sinceNanos, slow);
    }

    /** Operations that ended after {@code sinceNanos} and failed. */
    List<OpLog.Op> failures(long sinceNanos) {
        return log.failures(sinceNanos);
    }

    /** The longest operation of {@code kind} that started after {@code sinceNanos}. */
    Duration longest(String kind, long sinceNanos) {
        return log.longest(kind, sinceNanos);
    }

    /** See {@link OpLog#slowest}. */
    String slowest(long sinceNanos, int n) {
        return log.slowest(sinceNanos, n);
    }

    long count(String kind) {
        return log.count(kind);
    }

    static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        running.set(false);
        for (Thread t : threads) {
            try {
                t.join(30_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
