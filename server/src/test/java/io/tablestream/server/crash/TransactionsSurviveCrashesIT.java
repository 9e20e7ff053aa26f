package io.tablestream.server.crash;

import static io.tablestream.server.process.ServerProcess.freePort;
import static org.assertj.core.api.Assertions.assertThat;

import io.tablestream.server.RawTableClient;
import io.tablestream.server.ServerSettings;
import io.tablestream.server.TransactionRequests;
import io.tablestream.server.process.ServerProcess;
import io.tablestream.server.process.ServerProcessLogs;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cross-partition transactions across {@code kill -9}: a client submits transactions of four
 * inserts on four PartitionKeys of two tables while the server is killed and restarted. Every
 * transaction that was answered 202 is afterwards fully applied: each part Applied with exactly one
 * report (an insert applied twice would fail the second time, with EntityAlreadyExists, and be
 * reported twice), and every row there. Rounds: {@code -Dtablestream.crash.rounds=N} (default 2).
 */
@ExtendWith(ServerProcessLogs.class)
class TransactionsSurviveCrashesIT {
    private static final Logger LOG = LoggerFactory.getLogger(TransactionsSurviveCrashesIT.class);
    private static final int ROUNDS = Integer.getInteger("tablestream.crash.rounds", 2);
    private static final Duration START = Duration.ofMinutes(3);

    @TempDir
    Path dataDir;

    /** An accepted transaction and the rows it inserts. */
    private record Accepted(String id, String token, List<String> rows) {
    }

    @Test
    @SuppressWarnings("unchecked")
    void everyAcceptedTransactionIsAppliedExactlyOnceAcrossKills() throws Exception {
        ServerProcess.Builder builder = ServerProcess.builder(dataDir).with(ServerSettings.PORT, freePort())
                .with(ServerSettings.PARTITIONS, 4);
        ServerProcess server = builder.start();
        Map<Integer, Accepted> accepted = new ConcurrentHashMap<>();
        AtomicBoolean stop = new AtomicBoolean();
        try {
            int port = server.awaitServing(START);
            RawTableClient raw = new RawTableClient(port);
            TransactionRequests tx = new TransactionRequests(raw);
            assertThat(raw.send("POST", "Tables", "{\"TableName\":\"TxA\"}").status()).isIn(201, 204);
            assertThat(raw.send("POST", "Tables", "{\"TableName\":\"TxB\"}").status()).isIn(201, 204);
            Thread client = new Thread(() -> {
                for (int k = 0; !stop.get(); k++) {
                    String rk = "t" + k;
                    List<String> rows = List.of("TxA/a" + k % 7 + "/" + rk, "TxB/b" + k % 5 + "/" + rk,
                            "TxA/c" + k % 3 + "/" + rk, "TxB/d" + k % 11 + "/" + rk);
                    List<String> ops = new ArrayList<>();
                    for (String row : rows) {
                        String[] p = row.split("/");
                        ops.add(tx.insert(p[0], p[1], p[2], "\"K\":" + k));
                    }
                    try {
                        RawTableClient.Response r = tx.submit(ops);
                        if (r.status() == 202) {
                            accepted.put(k, new Accepted((String) r.json().get("TransactionId"),
                                    r.header("x-ms-session-token"), rows));
                        }
                    } catch (RuntimeException e) {
                        // the server is down: this one may or may not be on the log; it is not checked
                        sleep(200);
                    }
                }
            }, "tx-client");
            client.start();
            for (int round = 1; round <= ROUNDS; round++) {
                sleep(3000);
                LOG.info("Round {}: kill -9 with {} transactions accepted", round, accepted.size());
                server.kill();
                server = builder.start();
                port = server.awaitServing(START);
                LOG.info("Round {}: serving again after {} ms", round, server.startedIn().toMillis());
            }
            sleep(2000);
            stop.set(true);
            client.join(Duration.ofMinutes(1).toMillis());
            assertThat(accepted.size()).as("transactions accepted across the kills").isGreaterThan(20);

            TransactionRequests after = new TransactionRequests(new RawTableClient(port));
            RawTableClient reader = new RawTableClient(port);
            for (Map.Entry<Integer, Accepted> e : accepted.entrySet()) {
                Accepted a = e.getValue();
                Map<String, Object> status = after.awaitDone(a.id(), a.token(), Duration.ofSeconds(90));
                assertThat(status.get("State")).as("transaction %d: %s", e.getKey(), status).isEqualTo("Applied");
                for (Object part : (List<Object>) status.get("Parts")) {
                    assertThat(((Map<String, Object>) part).get("Reports")).as("reports of a part of %d", e.getKey())
                            .isEqualTo(1);
                }
                for (String row : a.rows()) {
                    String[] p = row.split("/");
                    RawTableClient.Response r = readRetryingBusy(reader,
                            p[0] + "(PartitionKey='" + p[1] + "',RowKey='" + p[2] + "')", a.token());
                    assertThat(r.status()).as("%s of transaction %d: %s", row, e.getKey(), busy(r)).isEqualTo(200);
                }
            }
            LOG.info("{} accepted transactions checked", accepted.size());
        } finally {
            stop.set(true);
            server.close();
        }
    }

    /**
     * Reads {@code target} with the session token, again on 503 for up to a minute: a partition whose
     * task restarted answers 503 ServerBusy until it has replayed its log, and a read with a session
     * token waits a bounded time for the writes it names (docs/azure-differences.md), a moment's
     * unavailability the SDKs retry, not a loss. CI met one such 503 once, right after the last restart.
     */
    private static RawTableClient.Response readRetryingBusy(RawTableClient reader, String target, String token) {
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        while (true) {
            RawTableClient.Response r = reader.read(target, "x-ms-session-token", token);
            if (r.status() != 503 || System.nanoTime() > deadline) {
                return r;
            }
            LOG.info("{} answered {}; again in a moment", target, busy(r));
            sleep(500);
        }
    }

    /** A 503's whole answer, to tell which wait refused it: error code, Retry-After and message text. */
    private static String busy(RawTableClient.Response r) {
        return r.status() + " " + r.header("x-ms-error-code") + " (Retry-After " + r.header("Retry-After") + "): "
                + r.body();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
