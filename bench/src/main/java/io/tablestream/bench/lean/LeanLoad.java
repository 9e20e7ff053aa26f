package io.tablestream.bench.lean;

import io.tablestream.bench.lean.LeanTableClient.Answer;
import io.tablestream.bench.lean.LeanTableClient.BatchAnswer;
import io.tablestream.bench.lean.LeanTableClient.BatchOperation;
import io.tablestream.bench.measure.Percentiles;
import io.tablestream.bench.measure.ServerCpu;
import io.tablestream.bench.workload.SyntheticEntities;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongFunction;

/**
 * Load through {@link LeanTableClient}: raw HTTP, an account SAS, many requests in flight — the
 * server's capacity, apart from what an SDK costs on the same cores. For each workload and each
 * concurrency (requests kept in flight), a warm-up, then a measured period; every answer's status
 * is checked (a batch's every operation too), and any wrong one fails the run.
 *
 * <pre>
 * LeanLoad --endpoint URL [--target NAME] [--workloads insert,upsert,merge,batch,read]
 *          [--concurrency 1,16] [--duration 10] [--warmup 3] [--batch-size 100]
 *          [--account-name devstoreaccount1] [--account-key KEY] [--server-pid PID]
 * </pre>
 *
 * Prints per workload and concurrency:
 * {@code RESULT <target> lean <workload>-c<N> <rate> <p50_ms> <p99_ms> <unit> <requests> <seconds>}, and with
 * {@code --server-pid} (Linux) the server's CPU time in the measured period:
 * {@code CPU <target> lean <workload>-c<N> <cpu_ms> <requests> <cpu_us_per_request>}.
 */
public final class LeanLoad {
    private static final String EMULATOR_KEY = io.tablestream.cli.http.TableAccount.EMULATOR_KEY;
    /** Entities the upsert workload cycles over, which merges and reads then use. */
    private static final int UPDATED_KEYS = 10_000;
    private static final int PARTITIONS = 256;

    private LeanLoad() {
    }

    /** One request of a workload: index in, a future of (units done, or an error message). */
    private record Workload(String name, String unit, LongFunction<CompletableFuture<Result>> request) {
    }

    private record Result(long units, String wrong) {
        static Result ok(long units) {
            return new Result(units, null);
        }
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> o = options(args);
        String endpoint = o.get("--endpoint");
        if (endpoint == null) {
            System.err.println("Usage: LeanLoad --endpoint URL [--target NAME] [--workloads insert,upsert,merge,batch,read]"
                    + " [--concurrency 1,16] [--duration 10] [--warmup 3] [--batch-size 100] [--account-name N]"
                    + " [--account-key K] [--server-pid PID]");
            System.exit(2);
        }
        String target = o.getOrDefault("--target", "target");
        List<String> workloads = List.of(o.getOrDefault("--workloads", "insert,upsert,merge,batch,read").split(","));
        List<Integer> concurrencies = new ArrayList<>();
        for (String c : o.getOrDefault("--concurrency", "1,16").split(",")) {
            concurrencies.add(Integer.parseInt(c.strip()));
        }
        double duration = Double.parseDouble(o.getOrDefault("--duration", "10"));
        double warmUp = Double.parseDouble(o.getOrDefault("--warmup", "3"));
        int batchSize = Integer.parseInt(o.getOrDefault("--batch-size", "100"));
        long serverPid = Long.parseLong(o.getOrDefault("--server-pid", "0"));
        String sas = LeanTableClient.accountSas(endpoint, o.getOrDefault("--account-name", "devstoreaccount1"),
                o.getOrDefault("--account-key", EMULATOR_KEY));
        LeanTableClient client = new LeanTableClient(endpoint, sas);
        String table = "Lean" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        Answer created = client.createTable(table).get(60, TimeUnit.SECONDS);
        if (!created.succeeded()) {
            throw new IllegalStateException("Create Table answered " + created.status() + ": " + created.body());
        }
        AtomicLong sequence = new AtomicLong();
        System.err.printf("lean client against %s, table %s%n", endpoint, table);
        preload(client, table);
        for (String name : workloads) {
            Workload w = workload(name.strip(), client, table, batchSize, sequence);
            for (int concurrency : concurrencies) {
                run(target, w, concurrency, warmUp, duration, serverPid);
            }
        }
    }

    private static Workload workload(String name, LeanTableClient client, String table, int batchSize,
                                     AtomicLong sequence) {
        return switch (name) {
            case "insert" -> new Workload(name, "ops/s", i -> {
                long n = sequence.getAndIncrement();
                String pk = "li" + (n % PARTITIONS);
                String rk = String.format("r%012d", n);
                return client.insert(table, pk, rk, SyntheticEntities.properties(pk, rk), false)
                        .thenApply(a -> check(a, 204, "insert"));
            });
            case "upsert" -> new Workload(name, "ops/s", i -> {
                long n = i % UPDATED_KEYS;
                String pk = "lu" + (n % PARTITIONS);
                String rk = "r" + n;
                return client.upsert(table, pk, rk, SyntheticEntities.properties(pk, rk))
                        .thenApply(a -> check(a, 204, "upsert"));
            });
            case "merge" -> new Workload(name, "ops/s", i -> {
                long n = i % UPDATED_KEYS;
                String pk = "lu" + (n % PARTITIONS);
                String rk = "r" + n;
                Map<String, Object> change = new LinkedHashMap<>();
                change.put("Revision", (int) (i % 1_000_000));
                return client.merge(table, pk, rk, "*", change).thenApply(a -> check(a, 204, "merge"));
            });
            case "read" -> new Workload(name, "ops/s", i -> {
                long n = Math.floorMod(i * 7919, UPDATED_KEYS);
                String pk = "lu" + (n % PARTITIONS);
                String rk = "r" + n;
                return client.get(table, pk, rk).thenApply(a -> check(a, 200, "read"));
            });
            case "batch" -> new Workload(name, "entities/s", i -> {
                long n = sequence.getAndIncrement();
                String pk = "lb" + n;
                List<BatchOperation> ops = new ArrayList<>(batchSize);
                for (int k = 0; k < batchSize; k++) {
                    String rk = String.format("r%05d", k);
                    ops.add(BatchOperation.insert(rk, SyntheticEntities.properties(pk, rk)));
                }
                return client.batch(table, pk, ops).thenApply(a -> check(a, batchSize));
            });
            default -> throw new IllegalArgumentException("unknown workload " + name
                    + " (insert, upsert, merge, batch, read)");
        };
    }

    /** Writes the entities upserts, merges and reads work on (untimed): one batch per PartitionKey. */
    private static void preload(LeanTableClient client, String table) throws Exception {
        List<CompletableFuture<BatchAnswer>> all = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++) {
            String pk = "lu" + p;
            List<BatchOperation> ops = new ArrayList<>();
            for (int n = p; n < UPDATED_KEYS; n += PARTITIONS) {
                ops.add(BatchOperation.upsert("r" + n, SyntheticEntities.properties(pk, "r" + n)));
            }
            all.add(client.batch(table, pk, ops));
            if (all.size() == 16) {
                for (CompletableFuture<BatchAnswer> f : all) {
                    BatchAnswer a = f.get(120, TimeUnit.SECONDS);
                    if (!a.succeeded()) {
                        throw new IllegalStateException("preload batch answered " + a.status() + " " + a.operations());
                    }
                }
                all.clear();
            }
        }
        for (CompletableFuture<BatchAnswer> f : all) {
            if (!f.get(120, TimeUnit.SECONDS).succeeded()) {
                throw new IllegalStateException("preload batch failed");
            }
        }
    }

    private static Result check(Answer a, int expected, String what) {
        return a.status() == expected ? Result.ok(1)
                : new Result(0, what + " answered " + a.status() + ": " + a.body());
    }

    private static Result check(BatchAnswer a, int operations) {
        if (!a.succeeded() || a.operations().size() != operations) {
            return new Result(0, "batch answered " + a.status() + " with " + a.operations());
        }
        return Result.ok(operations);
    }

    /** Keeps {@code concurrency} requests in flight for the warm-up, then for the measured period. */
    private static void run(String target, Workload w, int concurrency, double warmUpSeconds, double seconds,
                            long serverPid) throws Exception {
        Semaphore inFlight = new Semaphore(concurrency);
        Percentiles latency = new Percentiles();
        AtomicLong units = new AtomicLong();
        AtomicLong requests = new AtomicLong();
        AtomicReference<String> wrong = new AtomicReference<>();
        long start = System.nanoTime();
        long measureFrom = start + (long) (warmUpSeconds * 1e9);
        long measureUntil = measureFrom + (long) (seconds * 1e9);
        long lastEnd = measureFrom;
        AtomicLong lastCompletion = new AtomicLong(measureFrom);
        long cpuFrom = -1;
        for (long i = 0; wrong.get() == null; i++) {
            inFlight.acquire();
            long t0 = System.nanoTime();
            if (t0 >= measureUntil) {
                inFlight.release();
                break;
            }
            boolean measured = t0 >= measureFrom;
            if (measured && cpuFrom < 0 && serverPid > 0) {
                cpuFrom = ServerCpu.millis(serverPid);
            }
            w.request().apply(i).whenComplete((r, e) -> {
                long t1 = System.nanoTime();
                if (e != null) {
                    wrong.compareAndSet(null, w.name() + " failed: " + e);
                } else if (r.wrong() != null) {
                    wrong.compareAndSet(null, r.wrong());
                } else if (measured) {
                    latency.add(t1 - t0);
                    units.addAndGet(r.units());
                    requests.incrementAndGet();
                    lastCompletion.accumulateAndGet(t1, Math::max);
                }
                inFlight.release();
            });
        }
        inFlight.acquire(concurrency); // the last ones
        if (wrong.get() != null) {
            System.out.printf("FAILED %s lean %s-c%d wrong answer: %s%n", target, w.name(), concurrency, wrong.get());
            System.exit(3);
        }
        lastEnd = Math.max(lastEnd, lastCompletion.get());
        double measuredSeconds = (lastEnd - measureFrom) / 1e9;
        System.out.printf(Locale.ROOT, "RESULT %s lean %s-c%d %.0f %.2f %.2f %s %d %.1f%n", target, w.name(), concurrency,
                units.get() / measuredSeconds, latency.millis(50), latency.millis(99), w.unit(), requests.get(),
                measuredSeconds);
        if (cpuFrom >= 0) {
            long cpu = ServerCpu.millis(serverPid) - cpuFrom;
            System.out.printf(Locale.ROOT, "CPU %s lean %s-c%d %d %d %.1f%n", target, w.name(), concurrency, cpu,
                    requests.get(), cpu * 1000.0 / Math.max(1, requests.get()));
        }
        System.out.flush();
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> o = new LinkedHashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            o.put(args[i], args[i + 1]);
        }
        return o;
    }
}
