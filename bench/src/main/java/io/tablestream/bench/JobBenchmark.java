package io.tablestream.bench;

import io.tablestream.bench.lean.BatchLoad;
import io.tablestream.bench.measure.Percentiles;
import io.tablestream.bench.measure.ServerCpu;
import io.tablestream.client.LeanTableClient;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Jobs against a running server, over raw HTTP with an account SAS:
 * <ol>
 * <li><b>load</b>: {@code --entities} N rows over N/100 PartitionKeys (100 each), each with an Int32
 *     {@code N} (its sequence number): with {@code --load batch}, in batches of 100 as
 *     {@link CountBenchmark} loads them; with {@code --load bulk} (the default), in bulk writes of
 *     100,000 rows, two in flight;</li>
 * <li><b>restore</b>: {@code POST <table>()/$restore} into a new table, followed through
 *     {@code $jobs/<id>} until Completed: the time from the request to Completed, the entities it
 *     reports, and the new table's count (which must be N);</li>
 * <li><b>delete by filter</b>: {@code DELETE <copy>()?$filter=N lt <D>} ({@code --delete} D rows)
 *     on the restored table, followed until Completed, while one client reads single entities of the
 *     rows that stay, one at a time: their latency before the job (as long as the job then takes, at
 *     least 10 s) and while it runs; then the count, which must be N - D.</li>
 * </ol>
 * With {@code --server-pid} the server process's CPU time per entity copied and deleted is reported too.
 * {@code --steps restore} stops after the restore; {@code --steps delete} skips it and deletes from the
 * loaded table itself (so each step fits a short run of its own; the point reads before the deletion
 * then last 10 s).
 * Usage: {@code JobBenchmark [--endpoint URL] [--entities 1000000] [--delete 250000] [--load bulk|batch]
 * [--steps restore,delete] [--table name] [--server-pid pid]} ({@code --table}: an existing table of
 * N rows loaded by an earlier run).
 */
public final class JobBenchmark {
    private static final Pattern ID = Pattern.compile("\"Id\":\"([^\"]+)\"");
    private static final Pattern STATE = Pattern.compile("\"State\":\"([A-Za-z]+)\"");
    private static final Pattern ENTITIES = Pattern.compile("\"Entities\":(\\d+)");

    public static void main(String[] args) throws Exception {
        BenchmarkArgs o = BenchmarkArgs.parse(args);
        int entities = o.integer("entities", 1_000_000);
        int deleted = o.integer("delete", 250_000);
        long pid = o.serverPid();
        List<String> steps = List.of(o.get("steps", "restore,delete").split(","));
        boolean bulkLoad = !o.get("load", "bulk").equals("batch");
        LeanTableClient client = o.client();
        String table = o.get("table");
        if (table == null) {
            table = BenchmarkArgs.newTable(client, "JobBench");
            double seconds = bulkLoad ? bulkLoad(client, table, entities)
                    : BatchLoad.load(client, table, entities, i -> Map.of("N", i));
            System.out.printf(Locale.ROOT, "RESULT job load %d entities (%s) in %.1f s (%.0f entities/s)%n", entities,
                    bulkLoad ? "bulk" : "batches of 100", seconds, entities / seconds);
        }

        boolean restoring = steps.contains("restore");
        String copy = restoring ? table + "Copy" + Long.toString(System.nanoTime() % 100_000, 36) : table;
        double restoreSeconds = 0;
        if (restoring) {
            long cpu = cpu(pid);
            long t0 = System.nanoTime();
            String restore = accepted(client.post(table + "()/$restore?", "{\"TableName\":\"" + copy + "\"}").join());
            long copied = await(client, restore);
            restoreSeconds = (System.nanoTime() - t0) / 1e9;
            long restoreCpu = cpu(pid) - cpu;
            check(CountBenchmark.countAll(client, copy, null), entities, "the restored table");
            System.out.printf(Locale.ROOT, "RESULT job restore %d entities in %.1f s (%.0f entities/s)%s%n", copied,
                    restoreSeconds, copied / restoreSeconds, perEntity(pid, restoreCpu, copied));
        }
        if (!steps.contains("delete")) {
            System.exit(0);
        }

        Percentiles before = new Percentiles();
        Percentiles during = new Percentiles();
        AtomicBoolean running = new AtomicBoolean(true);
        long baseline = Math.max(10_000, (long) (restoreSeconds * 1000 * deleted / Math.max(1, entities)));
        long until = System.currentTimeMillis() + baseline;
        while (System.currentTimeMillis() < until) {
            pointRead(client, copy, deleted, entities, before);
        }
        Thread reader = new Thread(() -> {
            while (running.get()) {
                pointRead(client, copy, deleted, entities, during);
            }
        }, "point-reader");
        long cpu = cpu(pid);
        long t0 = System.nanoTime();
        reader.start();
        String deletion = accepted(client.deleteRaw(copy + "()?$filter="
                + java.net.URLEncoder.encode("N lt " + deleted, StandardCharsets.UTF_8)
                        .replace("+", "%20")).join());
        long gone = await(client, deletion);
        double deleteSeconds = (System.nanoTime() - t0) / 1e9;
        long deleteCpu = cpu(pid) - cpu;
        running.set(false);
        reader.join();
        check(CountBenchmark.countAll(client, copy, null), entities - deleted, "the table after the deletion");
        System.out.printf(Locale.ROOT, "RESULT job delete-by-filter %d of %d entities in %.1f s (%.0f entities/s)%s%n",
                gone, entities, deleteSeconds, gone / deleteSeconds, perEntity(pid, deleteCpu, gone));
        System.out.printf(Locale.ROOT, "RESULT job point reads before: %d reads p50 %.2f ms p99 %.2f ms; during the"
                        + " deletion: %d reads p50 %.2f ms p99 %.2f ms%n", before.count(), before.millis(50),
                before.millis(99), during.count(), during.millis(50), during.millis(99));
        System.exit(0);
    }

    /**
     * Loads entities 0..n-1 (keys as {@link BatchLoad}'s, an Int32 {@code N}) in bulk writes of up to
     * 100,000, two in flight; answers the seconds it took.
     */
    private static double bulkLoad(LeanTableClient client, String table, int entities) {
        int perRequest = 100_000;
        int requests = (entities + perRequest - 1) / perRequest;
        AtomicInteger next = new AtomicInteger();
        long t0 = System.nanoTime();
        List<CompletableFuture<Void>> workers = new ArrayList<>();
        for (int w = 0; w < 2; w++) {
            workers.add(CompletableFuture.runAsync(() -> {
                for (int r = next.getAndIncrement(); r < requests; r = next.getAndIncrement()) {
                    int from = r * perRequest;
                    int to = Math.min(entities, from + perRequest);
                    StringBuilder b = new StringBuilder((to - from) * 48);
                    for (int i = from; i < to; i++) {
                        b.append("{\"PartitionKey\":\"").append(BatchLoad.partitionKey(i)).append("\",\"RowKey\":\"")
                                .append(BatchLoad.rowKey(i)).append("\",\"N\":").append(i).append("}\n");
                    }
                    LeanTableClient.Answer a = client.bulk(table, "insert", b.toString().getBytes(StandardCharsets.UTF_8),
                            false).join();
                    if (a.status() != 200 || !a.body().startsWith("{\"Entities\":" + (to - from) + ",")) {
                        throw new IllegalStateException("a bulk load request answered " + a.status() + " "
                                + a.body().substring(0, Math.min(500, a.body().length())));
                    }
                }
            }));
        }
        CompletableFuture.allOf(workers.toArray(CompletableFuture[]::new)).join();
        return (System.nanoTime() - t0) / 1e9;
    }

    /** A point read of a row the deletion keeps (N at or above {@code deleted}), timed into {@code into}. */
    private static void pointRead(LeanTableClient client, String table, int deleted, int entities, Percentiles into) {
        int i = deleted + ThreadLocalRandom.current().nextInt(entities - deleted);
        long t = System.nanoTime();
        LeanTableClient.Answer a = client.get(table, String.format("p%06d", i / BatchLoad.PER_PARTITION),
                String.format("r%07d", i)).join();
        into.add(System.nanoTime() - t);
        if (a.status() != 200) {
            throw new IllegalStateException("a point read of a kept row answered " + a.status() + " " + a.body());
        }
    }

    /** The id of the job an answer accepted. */
    private static String accepted(LeanTableClient.Answer a) {
        Matcher id = ID.matcher(a.body());
        if (a.status() != 202 || !id.find()) {
            throw new IllegalStateException("the job was not accepted: " + a.status() + " " + a.body());
        }
        return id.group(1);
    }

    /** Polls the job every 100 ms until it is no longer Running; answers the entities it processed. */
    private static long await(LeanTableClient client, String jobId) throws InterruptedException {
        while (true) {
            LeanTableClient.Answer a = client.getRaw("$jobs/" + jobId + "?").join();
            Matcher state = STATE.matcher(a.body());
            if (a.status() == 200 && state.find() && !state.group(1).equals("Running")) {
                Matcher n = ENTITIES.matcher(a.body());
                if (!state.group(1).equals("Completed") || !n.find()) {
                    throw new IllegalStateException("job " + jobId + " ended: " + a.body());
                }
                return Long.parseLong(n.group(1));
            }
            Thread.sleep(100);
        }
    }

    private static void check(long counted, long expected, String what) {
        if (counted != expected) {
            throw new IllegalStateException(what + " holds " + counted + " entities, not " + expected);
        }
    }

    private static long cpu(long pid) {
        return pid < 0 ? 0 : ServerCpu.millis(pid);
    }

    private static String perEntity(long pid, long cpuMillis, long entities) {
        return pid < 0 ? "" : String.format(Locale.ROOT, ", server CPU %.1f s (%.1f µs per entity)", cpuMillis / 1e3,
                cpuMillis * 1e3 / Math.max(1, entities));
    }
}
