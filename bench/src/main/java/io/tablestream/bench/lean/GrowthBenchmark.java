package io.tablestream.bench.lean;

import io.tablestream.bench.measure.Percentiles;
import io.tablestream.bench.measure.ServerCpu;
import io.tablestream.bench.workload.SyntheticEntities;
import io.tablestream.client.LeanTableClient;
import io.tablestream.core.model.EmulatorAccount;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;

/**
 * One step of the growth benchmark ({@code bench/growth.sh}), through {@link LeanTableClient}:
 * {@code load} grows the table from {@code --from} to {@code --to} entities ({@link BatchLoad}'s
 * layout: PartitionKey {@code p%06d} holds 100 entities, RowKeys {@code r%07d}; six typed properties
 * of about 200 bytes each), with {@code --loader bulk} (the default: {@code $bulk} requests of
 * {@code --bulk-entities} 40,000, {@code --bulk-in-flight} 2) or {@code --loader batch} (transactions of
 * 100, 8 in flight), and with {@code --server-pid} the server's CPU per 1,000 entities; {@code measure} times, at the table's size, point GETs of random
 * entities (16 in flight), 100-row range queries (one PartitionKey, a RowKey range; 4 in flight), a
 * full scan paged (1,000 a page, for at most {@code --scan-seconds}) and a whole-table
 * {@code $count} followed through its continuations; each timed figure after {@code --warmup} seconds (10)
 * of the same requests unmeasured. Prints one line per figure:
 * {@code GROWTH <size> <figure> <value> <unit> [p50_ms p99_ms cpu_ms_per_op]}.
 */
public final class GrowthBenchmark {

    private GrowthBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> o = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            o.put(args[i], args[i + 1]);
        }
        String endpoint = o.getOrDefault("--endpoint", "http://127.0.0.1:10002/devstoreaccount1");
        String table = o.getOrDefault("--table", "Growth");
        String phase = o.getOrDefault("--phase", "measure");
        int size = Integer.parseInt(o.get("--to"));
        long pid = Long.parseLong(o.getOrDefault("--server-pid", "0"));
        double seconds = Double.parseDouble(o.getOrDefault("--duration", "10"));
        double scanSeconds = Double.parseDouble(o.getOrDefault("--scan-seconds", "30"));
        double warmup = Double.parseDouble(o.getOrDefault("--warmup", "10"));
        LeanTableClient client = new LeanTableClient(endpoint, LeanTableClient.accountSas(endpoint,
                o.getOrDefault("--account-name", EmulatorAccount.NAME), o.getOrDefault("--account-key", EmulatorAccount.KEY)));
        if (phase.equals("load")) {
            int from = Integer.parseInt(o.getOrDefault("--from", "0"));
            if (from == 0) {
                LeanTableClient.Answer created = client.createTable(table).get(60, TimeUnit.SECONDS);
                if (!created.succeeded()) {
                    throw new IllegalStateException("Create Table answered " + created.status() + ": " + created.body());
                }
            }
            IntFunction<Map<String, Object>> properties = i -> SyntheticEntities.properties(BatchLoad.partitionKey(i),
                    BatchLoad.rowKey(i));
            String loader = o.getOrDefault("--loader", "bulk");
            long cpu0 = pid > 0 ? ServerCpu.millis(pid) : 0;
            double took = switch (loader) {
                case "bulk" -> BatchLoad.bulk(client, table, from, size,
                        Integer.parseInt(o.getOrDefault("--bulk-entities", "40000")),
                        Integer.parseInt(o.getOrDefault("--bulk-in-flight", "2")), properties);
                case "batch" -> BatchLoad.load(client, table, from, size, properties);
                default -> throw new IllegalArgumentException("--loader is bulk or batch, not " + loader);
            };
            print(size, "load", (size - from) / took, "entities/s (" + loader + ")", null,
                    pid > 0 ? (ServerCpu.millis(pid) - cpu0) / (double) (size - from) * 1000 : 0);
            return;
        }
        int partitions = size / BatchLoad.PER_PARTITION;
        // point GETs of random entities, 16 in flight
        SplittableRandom random = new SplittableRandom(42);
        timed(size, "point-get", 16, warmup, seconds, pid, () -> {
            int i = random.nextInt(size);
            return client.get(table, BatchLoad.partitionKey(i), BatchLoad.rowKey(i))
                    .thenApply(a -> check(a.status() == 200, "GET answered " + a.status()));
        });
        // 100-row range queries: a RowKey range in one PartitionKey, 4 in flight
        timed(size, "range-100", 4, warmup, seconds, pid, () -> {
            int b = random.nextInt(partitions);
            String filter = String.format("PartitionKey eq 'p%06d' and RowKey ge 'r%07d' and RowKey lt 'r%07d'", b,
                    b * BatchLoad.PER_PARTITION, (b + 1) * BatchLoad.PER_PARTITION);
            return client.page(table, filter, null, null)
                    .thenApply(p -> check(p.status() == 200 && p.rows() == 100, "range answered " + p));
        });
        // a full scan, paged, sequential, for at most scanSeconds
        long cpu0 = pid > 0 ? ServerCpu.millis(pid) : 0;
        long t0 = System.nanoTime();
        long rows = 0;
        String npk = null;
        String nrk = null;
        boolean whole = false;
        while ((System.nanoTime() - t0) / 1e9 < scanSeconds) {
            LeanTableClient.Page p = client.page(table, null, npk, nrk).get(60, TimeUnit.SECONDS);
            check(p.status() == 200, "scan page answered " + p);
            rows += p.rows();
            npk = p.nextPartitionKey();
            nrk = p.nextRowKey();
            if (npk == null) {
                whole = true;
                break;
            }
        }
        double took = (System.nanoTime() - t0) / 1e9;
        print(size, whole ? "full-scan" : "scan-first-" + rows, rows / took, "entities/s", null,
                pid > 0 ? (ServerCpu.millis(pid) - cpu0) / (double) rows * 1000 : 0);
        if (whole) {
            check(rows == size, "the scan read " + rows + " rows of " + size);
        }
        // $count of the whole table, following continuations
        t0 = System.nanoTime();
        long counted = 0;
        npk = null;
        nrk = null;
        int requests = 0;
        do {
            LeanTableClient.Count c = client.count(table, null, npk, nrk).get(60, TimeUnit.SECONDS);
            check(c.status() == 200, "$count answered " + c.status());
            counted += c.value();
            npk = c.nextPartitionKey();
            nrk = c.nextRowKey();
            requests++;
        } while (npk != null);
        check(counted == size, "$count said " + counted + " of " + size);
        print(size, "count", (System.nanoTime() - t0) / 1e9, "s (" + requests + " requests)", null, 0);
    }

    private interface Request {
        CompletableFuture<?> send();
    }

    /**
     * Keeps {@code inFlight} requests going for {@code warmup} seconds unmeasured (a server just started
     * compiles its hot paths then), then for {@code seconds}: rate, p50, p99 and server CPU per request.
     */
    private static void timed(int size, String name, int inFlight, double warmup, double seconds, long pid,
                              Request request) throws Exception {
        run(inFlight, warmup, request, new Percentiles());
        Percentiles latency = new Percentiles();
        long cpu0 = pid > 0 ? ServerCpu.millis(pid) : 0;
        long t0 = System.nanoTime();
        long done = run(inFlight, seconds, request, latency);
        double took = (System.nanoTime() - t0) / 1e9;
        double cpuPerOp = pid > 0 ? (ServerCpu.millis(pid) - cpu0) / (double) done : 0;
        print(size, name, done / took, "ops/s", latency, cpuPerOp);
    }

    private static long run(int inFlight, double seconds, Request request, Percentiles latency) throws Exception {
        Semaphore slots = new Semaphore(inFlight);
        AtomicLong done = new AtomicLong();
        long end = System.nanoTime() + (long) (seconds * 1e9);
        while (System.nanoTime() < end) {
            slots.acquire();
            long start = System.nanoTime();
            request.send().whenComplete((v, e) -> {
                latency.add(System.nanoTime() - start);
                done.incrementAndGet();
                slots.release();
                if (e != null) {
                    System.err.println("FAILED: " + e);
                    System.exit(3);
                }
            });
        }
        slots.acquire(inFlight);
        return done.get();
    }

    private static Object check(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException("wrong answer: " + what);
        }
        return null;
    }

    private static void print(int size, String figure, double value, String unit, Percentiles latency, double cpuMs) {
        System.out.printf(java.util.Locale.ROOT, "GROWTH %d %s %.1f %s%s%n", size, figure, value, unit,
                latency == null ? (cpuMs > 0 ? String.format(java.util.Locale.ROOT, " cpu_ms_per_1000 %.1f", cpuMs) : "")
                        : String.format(java.util.Locale.ROOT, " p50 %.2f p99 %.2f cpu_ms_per_op %.3f", latency.millis(50),
                        latency.millis(99), cpuMs));
    }
}
