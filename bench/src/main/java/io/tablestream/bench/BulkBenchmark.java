package io.tablestream.bench;

import io.tablestream.bench.lean.BulkRequests;
import io.tablestream.bench.measure.Percentiles;
import io.tablestream.bench.measure.ServerCpu;
import io.tablestream.client.LeanTableClient;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Bulk writes ({@code POST <table>()/$bulk}) against a running server, over raw HTTP with an
 * account SAS: {@code --requests} requests of {@code --entities} entities each (telemetry-like:
 * about 110 bytes of JSON, an Int64, a Double and a Boolean, over {@code --partition-keys}
 * PartitionKeys), {@code --concurrency} in flight, each answered once every entity is applied (or,
 * with {@code --async true}, once the log has them). First {@code --warmup} requests unmeasured.
 * Reports entities applied per second, the latency of a request (p50, p99) and, with
 * {@code --server-pid}, the server's CPU per entity (user + system time of the whole process,
 * embedded broker included, over the measured requests). Every answer must report every entity
 * accepted; at the end, {@code $count} must find them all.
 * <pre>
 * BulkBenchmark [--endpoint URL] [--entities 100000] [--requests 20] [--concurrency 2] [--warmup 3]
 *               [--partition-keys 10000] [--mode replace] [--async false] [--server-pid PID]
 * </pre>
 */
public final class BulkBenchmark {

    public static void main(String[] args) throws Exception {
        BenchmarkArgs o = BenchmarkArgs.parse(args);
        int entities = o.integer("entities", 100_000);
        int requests = o.integer("requests", 20);
        int concurrency = o.integer("concurrency", 2);
        int warmup = o.integer("warmup", 3);
        int partitionKeys = o.integer("partition-keys", 10_000);
        String mode = o.get("mode", "replace");
        boolean async = o.flag("async", false);
        long pid = o.serverPid();

        LeanTableClient client = o.client();
        String table = BenchmarkArgs.newTable(client, "BulkBench");
        System.err.println("table " + table);

        run(client, table, mode, async, entities, warmup, 1, partitionKeys, 0, null);
        Percentiles latency = new Percentiles();
        long cpu0 = pid > 0 ? ServerCpu.millis(pid) : 0;
        long t0 = System.nanoTime();
        run(client, table, mode, async, entities, requests, concurrency, partitionKeys, warmup, latency);
        double seconds = (System.nanoTime() - t0) / 1e9;
        long cpuMillis = pid > 0 ? ServerCpu.millis(pid) - cpu0 : -1;
        long written = (long) entities * requests;
        System.out.printf(Locale.ROOT, "RESULT bulk %s%s %d requests of %d entities, %d in flight: %.0f entities/s"
                        + " (%.1f s), request p50 %.0f ms p99 %.0f ms, server CPU %s%n", mode, async ? " async" : "",
                requests, entities, concurrency, written / seconds, seconds, latency.millis(50), latency.millis(99),
                cpuMillis < 0 ? "n/a (no --server-pid)" : String.format(Locale.ROOT, "%.2f µs per entity (%.2f cores)",
                        cpuMillis * 1000.0 / written, cpuMillis / 1000.0 / seconds));

        long expected = (long) entities * (warmup + requests);
        long counted = CountBenchmark.countAll(client, table, null);
        System.out.printf(Locale.ROOT, "RESULT bulk count %d of %d%n", counted, expected);
        System.exit(counted == expected ? 0 : 3);
    }

    /** Requests {@code first..first+requests-1}, {@code concurrency} in flight. */
    private static void run(LeanTableClient client, String table, String mode, boolean async, int entities,
                            int requests, int concurrency, int partitionKeys, int first, Percentiles latency) {
        BulkRequests.send(client, table, mode, async, first, first + requests, concurrency,
                r -> body(r, entities, partitionKeys), r -> entities, latency);
    }

    /** Request {@code r}'s body: entities of sequence numbers r*n.. over the PartitionKeys, new keys each. */
    static byte[] body(int r, int entities, int partitionKeys) {
        StringBuilder b = new StringBuilder(entities * 120);
        for (int i = 0; i < entities; i++) {
            long seq = (long) r * entities + i;
            b.append("{\"PartitionKey\":\"dev-").append(String.format(Locale.ROOT, "%05d", seq % partitionKeys))
                    .append("\",\"RowKey\":\"").append(String.format(Locale.ROOT, "%012d", seq))
                    .append("\",\"Seq@odata.type\":\"Edm.Int64\",\"Seq\":\"").append(seq)
                    .append("\",\"Temp\":").append(20 + (seq % 100) / 10.0)
                    .append(",\"Ok\":").append(seq % 7 != 0).append("}\n");
        }
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }
}
