package io.tablestream.bench;

import io.tablestream.bench.measure.Percentiles;
import io.tablestream.bench.measure.ServerCpu;
import io.tablestream.client.LeanTableClient;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * A prefix query ({@code startswith} in {@code $filter}) against the equivalent explicit range
 * ({@code ge} and {@code lt}), against a running server, over raw HTTP with an account SAS. Loads
 * {@code --partition-keys} × 100 entities ({@code pk-0000}.., RowKeys {@code r000..r099}) with bulk
 * writes, then for each pair of queries runs blocks of {@code --queries} sequential queries of one
 * form and then the other, twice (after a warm-up block of each): latency p50 and p99 of a query
 * (its whole answer, continuations followed) and, with {@code --server-pid}, the server's CPU per
 * query. The pairs: a PartitionKey prefix over ten PartitionKeys (1,000 entities), and a RowKey
 * prefix within one PartitionKey (10 entities). Both forms of a pair must return the same
 * entities.
 * <pre>
 * PrefixBenchmark [--endpoint URL] [--partition-keys 1000] [--queries 500] [--server-pid PID]
 * </pre>
 */
public final class PrefixBenchmark {
    private static final int ROWS = 100;

    public static void main(String[] args) {
        BenchmarkArgs o = BenchmarkArgs.parse(args);
        int partitionKeys = o.integer("partition-keys", 1000);
        int queries = o.integer("queries", 500);
        long pid = o.serverPid();
        LeanTableClient client = o.client();
        String table = BenchmarkArgs.newTable(client, "PrefixBench");
        load(client, table, partitionKeys);

        compare(client, table, pid, queries, "ten PartitionKeys (1,000 entities)",
                "startswith(PartitionKey,'pk-004')", "PartitionKey ge 'pk-004' and PartitionKey lt 'pk-005'", 1_000);
        compare(client, table, pid, queries, "a RowKey prefix in one PartitionKey (10 entities)",
                "PartitionKey eq 'pk-0042' and startswith(RowKey,'r04')",
                "PartitionKey eq 'pk-0042' and RowKey ge 'r04' and RowKey lt 'r05'", 10);
        System.exit(0);
    }

    private static void load(LeanTableClient client, String table, int partitionKeys) {
        StringBuilder b = new StringBuilder();
        for (int p = 0; p < partitionKeys; p++) {
            for (int r = 0; r < ROWS; r++) {
                b.append(String.format(Locale.ROOT, "{\"PartitionKey\":\"pk-%04d\",\"RowKey\":\"r%03d\",\"N\":%d}%n",
                        p, r, p * ROWS + r));
            }
        }
        LeanTableClient.Answer a = client.bulk(table, "replace", b.toString().getBytes(StandardCharsets.UTF_8), false)
                .join();
        if (a.status() != 200 || !a.body().startsWith("{\"Entities\":" + partitionKeys * ROWS + ",")) {
            throw new IllegalStateException("load answered " + a.status() + " " + a.body());
        }
    }

    private static void compare(LeanTableClient client, String table, long pid, int queries, String what,
                                String prefix, String range, int expected) {
        block(client, table, pid, queries / 5, prefix, expected); // warm-up, unmeasured
        block(client, table, pid, queries / 5, range, expected);
        for (int round = 1; round <= 2; round++) {
            for (String filter : List.of(prefix, range)) {
                Block b = block(client, table, pid, queries, filter, expected);
                System.out.printf(Locale.ROOT, "RESULT prefix %s round %d %-9s p50 %.2f ms p99 %.2f ms, server CPU %s"
                                + "  [%s]%n", what, round, filter == prefix ? "startswith" : "ge/lt", b.latency.millis(50),
                        b.latency.millis(99), b.cpuMillisPerQuery < 0 ? "n/a"
                                : String.format(Locale.ROOT, "%.0f µs per query", b.cpuMillisPerQuery * 1000), filter);
            }
        }
    }

    private record Block(Percentiles latency, double cpuMillisPerQuery) {
    }

    private static Block block(LeanTableClient client, String table, long pid, int queries, String filter,
                               int expected) {
        Percentiles latency = new Percentiles();
        long cpu0 = pid > 0 ? ServerCpu.millis(pid) : 0;
        for (int q = 0; q < queries; q++) {
            long t = System.nanoTime();
            int rows = 0;
            String nextPk = null;
            String nextRk = null;
            do {
                LeanTableClient.Page page = client.page(table, filter, nextPk, nextRk).join();
                if (page.status() != 200) {
                    throw new IllegalStateException(filter + " answered " + page.status());
                }
                rows += page.rows();
                nextPk = page.nextPartitionKey();
                nextRk = page.nextRowKey();
            } while (nextPk != null);
            latency.add(System.nanoTime() - t);
            if (rows != expected) {
                throw new IllegalStateException(filter + " answered " + rows + " entities, not " + expected);
            }
        }
        return new Block(latency, pid > 0 ? (ServerCpu.millis(pid) - cpu0) / (double) queries : -1);
    }
}
