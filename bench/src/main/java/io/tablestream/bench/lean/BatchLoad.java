package io.tablestream.bench.lean;

import io.tablestream.client.LeanTableClient;
import java.util.ArrayList;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;

/**
 * Loads a table through {@link LeanTableClient}: entity {@code i} has RowKey {@code r%07d} in PartitionKey
 * {@code p%06d} (one per batch of 100), inserted in batches, 8 in flight ({@link #load}), or in bulk writes
 * of many PartitionKeys each ({@link #bulk}: the same entities, in the same order). A failed batch is not
 * retried: the load goes on and then fails, naming the first failure.
 */
public final class BatchLoad {
    /** Entities per batch, so per PartitionKey. */
    public static final int PER_PARTITION = 100;
    private static final int IN_FLIGHT = 8;

    private BatchLoad() {
    }

    /** The PartitionKey of entity {@code i}. */
    public static String partitionKey(int i) {
        return String.format("p%06d", i / PER_PARTITION);
    }

    /** The RowKey of entity {@code i}. */
    public static String rowKey(int i) {
        return String.format("r%07d", i);
    }

    /** Inserts {@code entities} entities with {@code properties} of each index; answers the seconds it took. */
    public static double load(LeanTableClient client, String table, int entities,
                              IntFunction<Map<String, Object>> properties) throws InterruptedException {
        return load(client, table, 0, entities, properties);
    }

    /**
     * Inserts entities {@code from} (inclusive) to {@code to} (exclusive), both multiples of
     * {@link #PER_PARTITION}, so a table grows in steps; answers the seconds it took.
     */
    public static double load(LeanTableClient client, String table, int from, int to,
                              IntFunction<Map<String, Object>> properties) throws InterruptedException {
        long t0 = System.nanoTime();
        Semaphore inFlight = new Semaphore(IN_FLIGHT);
        AtomicReference<String> failed = new AtomicReference<>();
        for (int b = from / PER_PARTITION; b < to / PER_PARTITION; b++) {
            List<LeanTableClient.BatchOperation> ops = new ArrayList<>(PER_PARTITION);
            for (int r = 0; r < PER_PARTITION; r++) {
                int i = b * PER_PARTITION + r;
                ops.add(LeanTableClient.BatchOperation.insert(rowKey(i), properties.apply(i)));
            }
            inFlight.acquire();
            client.batch(table, partitionKey(b * PER_PARTITION), ops).whenComplete((a, e) -> {
                inFlight.release();
                if (e != null || !a.succeeded()) {
                    failed.compareAndSet(null, "a load batch failed: " + (e != null ? e : a.status() + " " + a.operations()));
                }
            });
        }
        inFlight.acquire(IN_FLIGHT);
        inFlight.release(IN_FLIGHT);
        if (failed.get() != null) {
            throw new IllegalStateException(failed.get());
        }
        return (System.nanoTime() - t0) / 1e9;
    }

    /**
     * Writes entities {@code from} (inclusive) to {@code to} (exclusive) as {@link #load} does, but through
     * {@code $bulk} in {@code mode=insert}: requests of {@code perRequest} entities (consecutive, so about
     * {@code perRequest / 100} PartitionKeys each), {@code inFlight} at a time, each answered once applied;
     * answers the seconds it took.
     */
    public static double bulk(LeanTableClient client, String table, int from, int to, int perRequest, int inFlight,
                              IntFunction<Map<String, Object>> properties) {
        long t0 = System.nanoTime();
        int requests = (to - from + perRequest - 1) / perRequest;
        BulkRequests.send(client, table, "insert", false, 0, requests, inFlight, r -> {
            StringBuilder b = new StringBuilder(perRequest * 340);
            for (int i = from + r * perRequest; i < Math.min(to, from + (r + 1) * perRequest); i++) {
                b.append(LeanTableClient.entityJson(partitionKey(i), rowKey(i), properties.apply(i))).append('\n');
            }
            return b.toString().getBytes(StandardCharsets.UTF_8);
        }, r -> Math.min(to, from + (r + 1) * perRequest) - (from + r * perRequest), null);
        return (System.nanoTime() - t0) / 1e9;
    }
}
