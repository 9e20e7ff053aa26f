package io.tablestream.bench;

import io.tablestream.bench.lean.BatchLoad;
import io.tablestream.client.LeanTableClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code GET <table>()/$count} against a running server, over raw HTTP with an account SAS:
 * <ol>
 * <li><b>load</b>: {@code --entities} N rows in batches of 100 (8 in flight) over N/100
 *     PartitionKeys, each with an Int32 {@code N} (its sequence number);</li>
 * <li><b>count</b>: {@code --rounds} counts of the whole table, each followed through its
 *     continuations (every answer examines at most the server's {@code query-row-budget} rows) and
 *     summed, which must be N: the time of each whole count (p50, min, max) and the number of
 *     requests it took;</li>
 * <li>the same with a {@code $filter} on a property ({@code N ge <N/2>}: every row decoded and
 *     tested, half of them counted), and for one PartitionKey (100 rows).</li>
 * </ol>
 * Usage: {@code CountBenchmark [--endpoint URL] [--entities 1000000] [--rounds 7] [--table name]}
 * ({@code --table} counts an existing table of N rows loaded by an earlier run instead of loading).
 */
public final class CountBenchmark {

    public static void main(String[] args) throws Exception {
        BenchmarkArgs o = BenchmarkArgs.parse(args);
        int entities = o.integer("entities", 1_000_000);
        int rounds = o.integer("rounds", 7);
        LeanTableClient client = o.client();
        String table = o.get("table");
        if (table == null) {
            table = BenchmarkArgs.newTable(client, "CountBench");
            load(client, table, entities);
        }

        measure(client, table, null, entities, rounds, "whole table");
        measure(client, table, "N ge " + entities / 2, entities - entities / 2, rounds, "filter N ge N/2");
        measure(client, table, "PartitionKey eq 'p000042'", BatchLoad.PER_PARTITION, rounds, "one partition");
        System.exit(0);
    }

    private static void load(LeanTableClient client, String table, int entities) throws InterruptedException {
        System.err.println("table " + table);
        double seconds = BatchLoad.load(client, table, entities, i -> Map.of("N", i));
        System.out.printf(Locale.ROOT, "RESULT count load %d entities in %.1f s (%.0f entities/s)%n", entities, seconds,
                entities / seconds);
    }

    private static void measure(LeanTableClient client, String table, String filter, long expected, int rounds,
                                String what) {
        List<Double> millis = new ArrayList<>();
        int requests = 0;
        for (int round = 0; round < rounds + 1; round++) { // the first round warms up, unmeasured
            long t0 = System.nanoTime();
            int[] pages = new int[1];
            long total = countAll(client, table, filter, pages);
            requests = pages[0];
            double ms = (System.nanoTime() - t0) / 1e6;
            if (total != expected) {
                throw new IllegalStateException(what + ": counted " + total + ", expected " + expected);
            }
            if (round > 0) {
                millis.add(ms);
            }
        }
        millis.sort(Double::compare);
        System.out.printf(Locale.ROOT, "RESULT count %s (%d) %d rounds: p50 %.1f ms min %.1f ms max %.1f ms, %d requests"
                        + " each%n", what, expected, rounds, millis.get(millis.size() / 2), millis.get(0),
                millis.get(millis.size() - 1), requests);
    }

    /** The count of {@code table}'s entities matching {@code filter} (null: all), its continuations followed. */
    public static long countAll(LeanTableClient client, String table, String filter) {
        return countAll(client, table, filter, new int[1]);
    }

    /** The same, with the number of requests it took in {@code requests[0]}. */
    private static long countAll(LeanTableClient client, String table, String filter, int[] requests) {
        long total = 0;
        String nextPk = null;
        String nextRk = null;
        do {
            LeanTableClient.Count c = client.count(table, filter, nextPk, nextRk).join();
            if (c.status() != 200) {
                throw new IllegalStateException("count answered " + c.status());
            }
            requests[0]++;
            total += c.value();
            nextPk = c.nextPartitionKey();
            nextRk = c.nextRowKey();
        } while (nextPk != null);
        return total;
    }
}
