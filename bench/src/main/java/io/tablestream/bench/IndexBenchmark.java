package io.tablestream.bench;

import io.tablestream.bench.lean.BatchLoad;
import io.tablestream.bench.measure.Percentiles;
import io.tablestream.client.LeanTableClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Secondary indexes against a running server, over raw HTTP with an account SAS:
 * <ol>
 * <li><b>load</b>: {@code --entities} N rows in batches of 100 (8 in flight), each with a unique
 *     {@code Email}, over N/100 PartitionKeys;</li>
 * <li><b>build</b>: {@code POST ?comp=indexes} on {@code Email}, then the time until every
 *     partition reports the index Ready;</li>
 * <li><b>lookup</b>: {@code --lookups} sequential queries {@code Email eq '<random existing>'}:
 *     p50/p99 of the answer (each must hold exactly that row), and a few of the same lookup on an
 *     unindexed copy of the property ({@code Email2}), first page only, for comparison;</li>
 * <li><b>lag</b>: batches of 100 upserts paced to {@code --write-rate} entities/s for
 *     {@code --write-seconds}; one row per batch has a new unique Email, and for one batch in ten a
 *     poller (four of them) queries it by the index from the moment its batch is sent until it is
 *     found: p50/p99 of that delay, and of
 *     the batches' own answers (a sync write is answered once applied, row and index entries
 *     together).</li>
 * </ol>
 * Usage: {@code IndexBenchmark [--endpoint URL] [--entities 1000000] [--lookups 2000]
 * [--write-rate 10000] [--write-seconds 20]}.
 */
public final class IndexBenchmark {
    private static final int BATCH = 100;
    /** One batch in this many carries a row whose index visibility is measured. */
    private static final int SAMPLE_EVERY = 10;

    public static void main(String[] args) throws Exception {
        BenchmarkArgs o = BenchmarkArgs.parse(args);
        int entities = o.integer("entities", 1_000_000);
        int lookups = o.integer("lookups", 2000);
        int writeRate = o.integer("write-rate", 10_000);
        int writeSeconds = o.integer("write-seconds", 20);
        LeanTableClient client = o.client();
        String table = BenchmarkArgs.newTable(client, "IndexBench");

        System.err.println("table " + table);
        double loadSeconds = BatchLoad.load(client, table, entities,
                i -> Map.of("Email", email(i), "Email2", email(i), "N", i));
        System.out.printf(Locale.ROOT, "RESULT index load %d entities %.1f s %.0f entities/s%n", entities, loadSeconds,
                entities / loadSeconds);

        long t1 = System.nanoTime();
        check(client.post(table + "?comp=indexes", "{\"Name\":\"ByEmail\",\"Property\":\"Email\"}").join(), 201,
                "create index");
        while (client.getRaw(table + "?comp=indexes").join().body().replace("\"State\":\"Ready\"", "")
                .matches("(?s).*\"State\":\".*")) {
            Thread.sleep(100);
        }
        double buildSeconds = (System.nanoTime() - t1) / 1e9;
        System.out.printf(Locale.ROOT, "RESULT index build %d entities %.1f s %.0f rows/s%n", entities, buildSeconds,
                entities / buildSeconds);

        SplittableRandom random = new SplittableRandom(42);
        Percentiles lookup = new Percentiles();
        for (int i = 0; i < lookups + 200; i++) {
            int target = random.nextInt(entities);
            long s = System.nanoTime();
            LeanTableClient.Answer a = client.query(table, "Email eq '" + email(target) + "'").join();
            long took = System.nanoTime() - s;
            if (a.status() != 200 || !a.body().contains(String.format("\"r%07d\"", target))) {
                throw new IllegalStateException("lookup of " + target + " answered " + a.status() + " " + a.body());
            }
            if (i >= 200) { // the first 200 warm up
                lookup.add(took);
            }
        }
        System.out.printf(Locale.ROOT, "RESULT index lookup-eq %d p50 %.2f ms p99 %.2f ms%n", lookup.count(),
                lookup.millis(50), lookup.millis(99));
        Percentiles scan = new Percentiles();
        for (int i = 0; i < 5; i++) {
            long s = System.nanoTime();
            client.query(table, "Email2 eq '" + email(random.nextInt(entities)) + "'").join();
            scan.add(System.nanoTime() - s);
        }
        System.out.printf(Locale.ROOT, "RESULT scan lookup-eq (first page, unindexed) %d p50 %.2f ms%n", scan.count(),
                scan.millis(50));

        Percentiles lag = new Percentiles();
        Percentiles writeLatency = new Percentiles();
        ConcurrentLinkedQueue<long[]> watching = new ConcurrentLinkedQueue<>();
        AtomicBoolean writing = new AtomicBoolean(true);
        // Four pollers, each following one sampled write at a time from its send until it is found.
        List<Thread> pollers = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            Thread poller = new Thread(() -> {
                while (writing.get() || !watching.isEmpty()) {
                    long[] w = watching.poll();
                    if (w == null) {
                        Thread.onSpinWait();
                        continue;
                    }
                    while (true) {
                        LeanTableClient.Answer a = client.query(table, "Email eq '" + lagEmail(w[0]) + "'").join();
                        if (a.status() == 200 && a.body().contains(lagEmail(w[0]))) {
                            lag.add(System.nanoTime() - w[1]);
                            break;
                        }
                    }
                }
            });
            poller.start();
            pollers.add(poller);
        }
        long batches = (long) writeRate * writeSeconds / BATCH;
        long intervalNanos = 1_000_000_000L * BATCH / writeRate;
        long start = System.nanoTime();
        List<CompletableFuture<?>> pending = new ArrayList<>();
        Semaphore writesInFlight = new Semaphore(16);
        for (long b = 0; b < batches; b++) {
            long due = start + b * intervalNanos;
            while (System.nanoTime() < due) {
                Thread.onSpinWait();
            }
            List<LeanTableClient.BatchOperation> ops = new ArrayList<>(BATCH);
            for (int r = 0; r < BATCH; r++) {
                int i = random.nextInt(entities);
                String email = r == 0 ? lagEmail(b) : email(i) + "-v" + b;
                ops.add(LeanTableClient.BatchOperation.upsert(String.format("w%07d", (b * BATCH + r) % 1_000_000),
                        Map.of("Email", email, "N", i)));
            }
            writesInFlight.acquire();
            long sent = System.nanoTime();
            if (b % SAMPLE_EVERY == 0) {
                watching.add(new long[] {b, sent});
            }
            pending.add(client.batch(table, "lag" + (b % 64), ops).whenComplete((a, e) -> {
                writeLatency.add(System.nanoTime() - sent);
                writesInFlight.release();
            }));
        }
        CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)).join();
        double writeSecondsTaken = (System.nanoTime() - start) / 1e9;
        writing.set(false);
        for (Thread poller : pollers) {
            poller.join();
        }
        System.out.printf(Locale.ROOT, "RESULT index lag %d batches (%d sampled) at %.0f entities/s (asked %d) p50 %.1f ms p99 %.1f ms"
                        + " max %.1f ms%n", batches, lag.count(), batches * BATCH / writeSecondsTaken, writeRate, lag.millis(50),
                lag.millis(99), lag.millis(100));
        System.out.printf(Locale.ROOT, "RESULT index lag-writes %d batches answered p50 %.1f ms p99 %.1f ms"
                + " (the index is written with the row: lag beyond the write's own latency is the poller's)%n",
                writeLatency.count(), writeLatency.millis(50), writeLatency.millis(99));
        System.exit(0);
    }

    private static String email(int i) {
        return "user" + i + "@example.com";
    }

    private static String lagEmail(long batch) {
        return "lag" + batch + "@example.com";
    }

    private static void check(LeanTableClient.Answer a, int status, String what) {
        if (a.status() != status) {
            throw new IllegalStateException(what + " answered " + a.status() + " " + a.body());
        }
    }
}
