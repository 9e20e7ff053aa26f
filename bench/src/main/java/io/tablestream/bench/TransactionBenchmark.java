package io.tablestream.bench;

import io.tablestream.bench.measure.Percentiles;
import io.tablestream.client.LeanTableClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Cross-partition transactions against a running server, over raw HTTP with an account SAS:
 * {@code --transactions} sequential transactions of {@code --parts} inserts, each on its own
 * PartitionKey (of two tables, alternately); for each, the time from sending it to the first status
 * read (with its session token, polled every millisecond) that says every part is Applied, and the
 * time to its 202. Usage: {@code TransactionBenchmark [--endpoint URL] [--transactions 300] [--parts 10]}.
 */
public final class TransactionBenchmark {
    private static final Pattern ID = Pattern.compile("\"TransactionId\":\"([^\"]+)\"");

    public static void main(String[] args) throws Exception {
        BenchmarkArgs o = BenchmarkArgs.parse(args);
        int transactions = o.integer("transactions", 300);
        int partsPer = o.integer("parts", 10);
        LeanTableClient client = o.client();
        String suffix = Long.toString(System.currentTimeMillis(), 36);
        String[] tables = {"TxBenchA" + suffix, "TxBenchB" + suffix};
        for (String t : tables) {
            client.createTable(t).join();
        }
        Percentiles accepted = new Percentiles();
        Percentiles applied = new Percentiles();
        for (int n = 0; n < transactions + 20; n++) {
            List<LeanTableClient.Addressed> ops = new ArrayList<>();
            for (int p = 0; p < partsPer; p++) {
                ops.add(new LeanTableClient.Addressed(tables[p % 2], "p" + n + "-" + p,
                        LeanTableClient.BatchOperation.insert("r", Map.of("N", n))));
            }
            long start = System.nanoTime();
            LeanTableClient.Answer a = client.transaction(ops).join();
            long acceptedAt = System.nanoTime();
            Matcher m = ID.matcher(a.body());
            if (a.status() != 202 || !m.find()) {
                throw new IllegalStateException("transaction answered " + a.status() + " " + a.body());
            }
            String id = m.group(1);
            String status;
            do {
                status = client.transactionStatus(id, a.sessionToken()).join().body();
            } while (!status.contains("\"State\":\"Applied\",\"AcceptedAt\"") && !status.contains("Failed"));
            long done = System.nanoTime();
            if (status.contains("Failed")) {
                throw new IllegalStateException("transaction failed: " + status);
            }
            if (n >= 20) { // the first 20 warm up
                accepted.add(acceptedAt - start);
                applied.add(done - start);
            }
        }
        System.out.printf(Locale.ROOT, "RESULT transaction %d-part accepted %d p50 %.1f ms p99 %.1f ms%n", partsPer,
                accepted.count(), accepted.millis(50), accepted.millis(99));
        System.out.printf(Locale.ROOT, "RESULT transaction %d-part applied %d p50 %.1f ms p99 %.1f ms%n", partsPer,
                applied.count(), applied.millis(50), applied.millis(99));
        System.exit(0);
    }
}
