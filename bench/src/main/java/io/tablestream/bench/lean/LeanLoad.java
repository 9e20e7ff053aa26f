package io.tablestream.bench.lean;

import io.tablestream.bench.measure.Percentiles;
import io.tablestream.bench.measure.ServerCpu;
import io.tablestream.bench.workload.SyntheticEntities;
import io.tablestream.client.LeanTableClient.Answer;
import io.tablestream.client.LeanTableClient.BatchAnswer;
import io.tablestream.client.LeanTableClient.BatchOperation;
import io.tablestream.client.LeanTableClient;
import io.tablestream.core.model.EmulatorAccount;
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
 *          [--size N] [--rounds 1] [--clock-from EPOCH_MS] [--measure-from EPOCH_MS [--warm-up-load]]
 * </pre>
 *
 * {@code --size N} first loads a table of N entities ({@link BatchLoad}'s keys: 100 per
 * PartitionKey), which {@code get} and {@code range} read. {@code --concurrency} is a list, or
 * {@code workload=list} pairs separated by {@code ;} ({@code get=1,16;range=4}). {@code --rounds R}
 * runs the whole list R times (how a server warms up under the same load). {@code --measure-from T}
 * waits until then (after the load) before the first workload; with {@code --warm-up-load} it runs
 * the workloads until then instead, unmeasured (their lines say {@code WARMUP} instead of
 * {@code RESULT}).
 *
 * Prints per workload and concurrency:
 * {@code RESULT <target> lean <workload>-c<N> <rate> <p50_ms> <p99_ms> <unit> <requests> <seconds> <from_s> <to_s>}
 * (the measured period in seconds since {@code --clock-from}, default the client's start), and with
 * {@code --server-pid} (Linux) the server's CPU time in the measured period:
 * {@code CPU <target> lean <workload>-c<N> <cpu_ms> <requests> <cpu_us_per_request> <cpu_us_per_unit>}.
 * The {@code async} workload also prints {@code <workload>-applied}: the entities over the time until a
 * read carrying every answered session token was served (Tablestream: applied, not only logged).
 *
 * <p>One class, over 400 lines: each workload is a few lines (a request and its check, in
 * {@code workload}); the rest is the one measuring loop they all run through (warm-up, the measured
 * period, percentiles, the server's CPU, the result line), which is what makes their figures comparable.
 */
public final class LeanLoad {
    /** Entities the upsert workload cycles over, which merges and reads then use. */
    private static final int UPDATED_KEYS = 10_000;
    private static final int PARTITIONS = 256;

    private LeanLoad() {
    }

    /**
     * One request of a workload: index in, a future of (units done, or an error message); for
     * {@code async}, the session tokens its answers carried.
     */
    private record Workload(String name, String unit, LongFunction<CompletableFuture<Result>> request,
                            SessionTokens tokens) {
        Workload(String name, String unit, LongFunction<CompletableFuture<Result>> request) {
            this(name, unit, request, null);
        }
    }

    /** The highest command-log offset per partition that answered session tokens named. */
    private static final class SessionTokens {
        private final Map<Integer, Long> highest = new java.util.concurrent.ConcurrentHashMap<>();

        void add(String token) {
            if (token == null) {
                return;
            }
            for (String position : token.split(",")) {
                int colon = position.indexOf(':');
                highest.merge(Integer.parseInt(position.substring(0, colon).strip()),
                        Long.parseLong(position.substring(colon + 1).strip()), Math::max);
            }
        }

        /** A token naming every position seen, or null when none was. */
        String merged() {
            if (highest.isEmpty()) {
                return null;
            }
            StringBuilder b = new StringBuilder();
            highest.forEach((partition, offset) -> b.append(b.isEmpty() ? "" : ",").append(partition).append(':')
                    .append(offset));
            return b.toString();
        }
    }

    /** Where the run's measured periods are placed in time, and the loaded table's size. */
    private record Run(String target, long originNanos, long serverPid, int size, String tag) {
        double seconds(long nanos) {
            return (nanos - originNanos) / 1e9;
        }
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
                    + " [--account-key K] [--server-pid PID] [--size N] [--rounds R] [--clock-from EPOCH_MS]"
                    + " [--measure-from EPOCH_MS [--warm-up-load]]");
            System.exit(2);
        }
        String target = o.getOrDefault("--target", "target");
        List<String> workloads = List.of(o.getOrDefault("--workloads", "insert,upsert,merge,batch,read").split(","));
        Map<String, List<Integer>> concurrencies = concurrencies(o.getOrDefault("--concurrency", "1,16"));
        int size = Integer.parseInt(o.getOrDefault("--size", "0"));
        int rounds = Integer.parseInt(o.getOrDefault("--rounds", "1"));
        long clockFrom = Long.parseLong(o.getOrDefault("--clock-from", Long.toString(System.currentTimeMillis())));
        long originNanos = System.nanoTime() - (System.currentTimeMillis() - clockFrom) * 1_000_000L;
        long measureFrom = Long.parseLong(o.getOrDefault("--measure-from", "0"));
        boolean warmUpLoad = o.containsKey("--warm-up-load");
        double duration = Double.parseDouble(o.getOrDefault("--duration", "10"));
        double warmUp = Double.parseDouble(o.getOrDefault("--warmup", "3"));
        int batchSize = Integer.parseInt(o.getOrDefault("--batch-size", "100"));
        long serverPid = Long.parseLong(o.getOrDefault("--server-pid", "0"));
        String sas = LeanTableClient.accountSas(endpoint, o.getOrDefault("--account-name", "devstoreaccount1"),
                o.getOrDefault("--account-key", EmulatorAccount.KEY));
        LeanTableClient client = new LeanTableClient(endpoint, sas);
        String table = "Lean" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        Answer created = client.createTable(table).get(60, TimeUnit.SECONDS);
        if (!created.succeeded()) {
            throw new IllegalStateException("Create Table answered " + created.status() + ": " + created.body());
        }
        AtomicLong sequence = new AtomicLong();
        System.err.printf("lean client against %s, table %s%n", endpoint, table);
        preload(client, table);
        if (size > 0) {
            double seconds = BatchLoad.load(client, table, size, i ->
                    SyntheticEntities.properties(BatchLoad.partitionKey(i), BatchLoad.rowKey(i)));
            System.err.printf(Locale.ROOT, "loaded %,d entities in %.1f s (%.0f/s)%n", size, seconds, size / seconds);
        }
        Run run = new Run(target, originNanos, serverPid, size, "RESULT");
        List<Workload> chosen = new ArrayList<>();
        for (String name : workloads) {
            chosen.add(workload(name.strip(), client, table, batchSize, sequence, size));
        }
        Run warming = new Run(target, originNanos, 0, size, "WARMUP");
        while (warmUpLoad && System.currentTimeMillis() < measureFrom) {
            for (Workload w : chosen) {
                for (int concurrency : concurrencies.getOrDefault(w.name(), concurrencies.get(""))) {
                    double left = (measureFrom - System.currentTimeMillis()) / 1000.0;
                    if (left > 0) {
                        run(warming, w, concurrency, 0, Math.min(duration, left), client, table);
                    }
                }
            }
        }
        long wait = measureFrom - System.currentTimeMillis();
        if (wait > 0) {
            System.err.printf(Locale.ROOT, "waiting %.1f s until the measured workloads%n", wait / 1000.0);
            Thread.sleep(wait);
        }
        for (int round = 0; round < rounds; round++) {
            for (Workload w : chosen) {
                for (int concurrency : concurrencies.getOrDefault(w.name(), concurrencies.get(""))) {
                    run(run, w, concurrency, warmUp, duration, client, table);
                }
            }
        }
    }

    /** {@code 1,16} for every workload, or {@code get=1,16;range=4} (a workload not named: {@code 1}). */
    private static Map<String, List<Integer>> concurrencies(String text) {
        Map<String, List<Integer>> byWorkload = new LinkedHashMap<>();
        byWorkload.put("", List.of(1));
        for (String part : text.split(";")) {
            int eq = part.indexOf('=');
            List<Integer> values = new ArrayList<>();
            for (String c : part.substring(eq + 1).split(",")) {
                values.add(Integer.parseInt(c.strip()));
            }
            byWorkload.put(eq < 0 ? "" : part.substring(0, eq).strip(), values);
        }
        return byWorkload;
    }

    private static Workload workload(String name, LeanTableClient client, String table, int batchSize,
                                     AtomicLong sequence, int size) {
        if ((name.equals("get") || name.equals("range")) && size < BatchLoad.PER_PARTITION) {
            throw new IllegalArgumentException(name + " reads the loaded table: give --size (at least "
                    + BatchLoad.PER_PARTITION + ")");
        }
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
            case "upsert-new" -> new Workload(name, "ops/s", i -> {
                long n = sequence.getAndIncrement();
                String pk = "ln" + (n % PARTITIONS);
                String rk = String.format("r%012d", n);
                return client.upsert(table, pk, rk, SyntheticEntities.properties(pk, rk))
                        .thenApply(a -> check(a, 204, "insert-or-replace"));
            });
            case "async" -> {
                SessionTokens tokens = new SessionTokens();
                yield new Workload(name, "ops/s", i -> {
                    long n = sequence.getAndIncrement();
                    String pk = "la" + (n % PARTITIONS);
                    String rk = String.format("r%012d", n);
                    return client.insertAsync(table, pk, rk, SyntheticEntities.properties(pk, rk)).thenApply(a -> {
                        tokens.add(a.sessionToken());
                        return a.status() == 202 || a.status() == 201 || a.status() == 204 ? Result.ok(1)
                                : new Result(0, "respond-async insert answered " + a.status() + ": " + a.body());
                    });
                }, tokens);
            }
            case "get" -> new Workload(name, "ops/s", i -> {
                int n = (int) Math.floorMod(i * 7919L, (long) size);
                return client.get(table, BatchLoad.partitionKey(n), BatchLoad.rowKey(n))
                        .thenApply(a -> check(a, 200, "get"));
            });
            case "range" -> new Workload(name, "ops/s", i -> {
                int first = (int) Math.floorMod(i * 7919L, (long) (size / BatchLoad.PER_PARTITION))
                        * BatchLoad.PER_PARTITION;
                String filter = "PartitionKey eq '" + BatchLoad.partitionKey(first) + "' and RowKey ge '"
                        + BatchLoad.rowKey(first) + "' and RowKey lt '" + BatchLoad.rowKey(first + BatchLoad.PER_PARTITION)
                        + "'";
                return client.query(table, filter).thenApply(a -> {
                    int rows = a.status() == 200 ? occurrences(a.body(), "\"RowKey\"") : -1;
                    return rows == BatchLoad.PER_PARTITION ? Result.ok(1)
                            : new Result(0, "range query answered " + a.status() + " with " + rows + " rows");
                });
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
                    + " (insert, upsert, upsert-new, merge, batch, read, async, get, range)");
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

    private static int occurrences(String text, String part) {
        int n = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length())) {
            n++;
        }
        return n;
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
    private static void run(Run run, Workload w, int concurrency, double warmUpSeconds, double seconds,
                            LeanTableClient client, String table) throws Exception {
        String target = run.target();
        long serverPid = run.serverPid();
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
        System.out.printf(Locale.ROOT, "%s %s lean %s-c%d %.0f %.2f %.2f %s %d %.1f %.1f %.1f%n", run.tag(), target, w.name(),
                concurrency, units.get() / measuredSeconds, latency.millis(50), latency.millis(99), w.unit(),
                requests.get(), measuredSeconds, run.seconds(measureFrom), run.seconds(lastEnd));
        String token = w.tokens() == null ? null : w.tokens().merged();
        if (token != null) {
            long applied = awaitApplied(client, table, token);
            double appliedSeconds = (applied - measureFrom) / 1e9;
            System.out.printf(Locale.ROOT, "%s %s lean %s-applied-c%d %.0f - - entities/s %d %.1f %.1f %.1f%n",
                    run.tag(), target, w.name(), concurrency, units.get() / appliedSeconds, requests.get(), appliedSeconds,
                    run.seconds(measureFrom), run.seconds(applied));
        }
        if (cpuFrom >= 0) {
            long cpu = ServerCpu.millis(serverPid) - cpuFrom;
            System.out.printf(Locale.ROOT, "CPU %s lean %s-c%d %d %d %.1f %.1f%n", target, w.name(), concurrency, cpu,
                    requests.get(), cpu * 1000.0 / Math.max(1, requests.get()), cpu * 1000.0 / Math.max(1, units.get()));
        }
        System.out.flush();
    }

    /**
     * When a read carrying {@code token} (every position the async writes were answered with) was
     * served: the writes are applied then. A 503 (the wait's bound passed) is asked again, up to 10 minutes.
     */
    private static long awaitApplied(LeanTableClient client, String table, String token) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
        while (true) {
            Answer a = client.get(table, "lu0", "r0", token).get(60, TimeUnit.SECONDS);
            if (a.status() == 200) {
                return System.nanoTime();
            }
            if (a.status() != 503 || System.nanoTime() > deadline) {
                throw new IllegalStateException("a read after the async writes answered " + a.status() + ": " + a.body());
            }
        }
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> o = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--warm-up-load")) {
                o.put(args[i], "true");
            } else if (i + 1 < args.length) {
                o.put(args[i], args[++i]);
            }
        }
        return o;
    }
}
