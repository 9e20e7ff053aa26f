package io.tablestream.bench.lean;

import io.tablestream.bench.measure.Percentiles;
import io.tablestream.client.LeanTableClient;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import java.util.function.IntUnaryOperator;

/**
 * Bulk writes ({@code POST <table>()/$bulk}) through {@link LeanTableClient}: requests numbered
 * {@code first..end-1}, {@code concurrency} in flight, request {@code r}'s NDJSON body built just before
 * it is sent (so at most {@code concurrency} bodies are held). Every answer must count every entity of
 * its request written ({@code 200}, or {@code 202} with {@code async}); the first that does not stops
 * the run with what it answered.
 */
public final class BulkRequests {

    private BulkRequests() {
    }

    /**
     * Sends the requests and waits for their answers.
     *
     * @param body request {@code r}'s body, one entity per line
     * @param entities how many entities request {@code r}'s body holds
     * @param latency each request's time from send to answer, or null
     */
    public static void send(LeanTableClient client, String table, String mode, boolean async, int first, int end,
                            int concurrency, IntFunction<byte[]> body, IntUnaryOperator entities, Percentiles latency) {
        AtomicInteger next = new AtomicInteger(first);
        List<CompletableFuture<Void>> workers = new ArrayList<>();
        for (int w = 0; w < concurrency; w++) {
            workers.add(CompletableFuture.runAsync(() -> {
                for (int r = next.getAndIncrement(); r < end; r = next.getAndIncrement()) {
                    byte[] b = body.apply(r);
                    long t = System.nanoTime();
                    LeanTableClient.Answer a = client.bulk(table, mode, b, async).join();
                    if (latency != null) {
                        latency.add(System.nanoTime() - t);
                    }
                    if (a.status() != (async ? 202 : 200)
                            || !a.body().startsWith("{\"Entities\":" + entities.applyAsInt(r) + ",")) {
                        throw new IllegalStateException("bulk request " + r + " answered " + a.status() + " "
                                + a.body().substring(0, Math.min(500, a.body().length())));
                    }
                }
            }));
        }
        CompletableFuture.allOf(workers.toArray(CompletableFuture[]::new)).join();
    }
}
