package io.tablestream.bench;

import io.tablestream.bench.lean.BatchLoad;
import io.tablestream.bench.measure.Percentiles;
import io.tablestream.bench.measure.ServerCpu;
import io.tablestream.client.LeanTableClient;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Jobs against a running server, over raw HTTP with an account SAS:
 * <ol>
 * <li><b>load</b>: {@code --entities} N rows in batches of 100 over N/100 PartitionKeys, each with an
 *     Int32 {@code N} (its sequence number), as {@link CountBenchmark} loads them;</li>
 * <li><b>restore</b>: {@code POST <table>()/$restore} into a new table, followed through
 *     {@code $jobs/<id>} until Completed: the time from the request to Completed, the entities it
 *     reports, and the new table's count (which must be N);</li>
 * <li><b>delete by filter</b>: {@code DELETE <copy>()?$filter=N lt <D>} ({@code --delete} D rows)
 *     on the restored table, followed until Completed, while one client reads single entities of the
 *     rows that stay, one at a time: their latency before the job (as long as the job then takes, at
 *     least 10 s) and while it runs; then the count, which must be N - D.</li>
 * </ol>
 * With {@code --server-pid} the server process's CPU time per entity copied and deleted is reported too.
 * Usage: {@code JobBenchmark [--endpoint URL] [--entities 1000000] [--delete 250000] [--table name]
 * [--server-pid pid]} ({@code --table}: an existing table of N rows loaded by an earlier run).
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
        LeanTableClient client = o.client();
        String table = o.get("table");
        if (table == null) {
            table = BenchmarkArgs.newTable(client, "JobBench");
            double seconds = BatchLoad.load(client, table, entities, i -> Map.of("N", i));
            System.out.printf(Locale.ROOT, "RESULT job load %d entities in %.1f s (%.0f entities/s)%n", entities,
                    seconds, entities / seconds);
        }

        String copy = table + "Copy" + Long.toString(System.nanoTime() % 100_000, 36);
        long cpu = cpu(pid);
        long t0 = System.nanoTime();
        String restore = accepted(client.post(table + "()/$restore?", "{\"TableName\":\"" + copy + "\"}").join());
        long copied = await(client, restore);
        double restoreSeconds = (System.nanoTime() - t0) / 1e9;
        long restoreCpu = cpu(pid) - cpu;
        check(CountBenchmark.countAll(client, copy, null), entities, "the restored table");
        System.out.printf(Locale.ROOT, "RESULT job restore %d entities in %.1f s (%.0f entities/s)%s%n", copied,
                restoreSeconds, copied / restoreSeconds, perEntity(pid, restoreCpu, copied));

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
        cpu = cpu(pid);
        t0 = System.nanoTime();
        reader.start();
        String deletion = accepted(client.deleteRaw(copy + "()?$filter="
                + java.net.URLEncoder.encode("N lt " + deleted, java.nio.charset.StandardCharsets.UTF_8)
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
