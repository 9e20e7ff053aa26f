package io.tablestream.server.crash;

import static io.tablestream.testsupport.Eventually.eventuallyPasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.core.http.policy.ExponentialBackoffOptions;
import com.azure.core.http.policy.RetryOptions;
import com.azure.core.http.rest.Response;
import com.azure.core.util.Context;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableClientBuilder;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableEntityUpdateMode;
import com.azure.data.tables.models.TableServiceException;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionType;
import io.tablestream.server.RawTableClient;
import io.tablestream.server.ServerSettings;
import io.tablestream.server.process.ServerProcess;
import io.tablestream.server.process.ServerProcessLogs;
import io.tablestream.testsupport.TestDirectories;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code kill -9} of a server (a child JVM holding the embedded broker, the processor and the HTTP
 * port) again and again while sync single writes, {@code respond-async} writes and batches stream
 * in: every round the server starts again on the same data, and at the end every acknowledged write
 * reads back — sync ones with exactly the ETag they were answered with — and no batch is partly
 * applied. Rounds: {@code -Dcrash.rounds} (default 2, the first on a fresh server, so one restart
 * under writes and the last one that verifies, each a restart after kill -9; more for a longer run;
 * AnsweredWritesSurviveCrashesIT kills under writes too); seed: {@code -Dcrash.seed}.
 */
@ExtendWith(ServerProcessLogs.class)
class KillRecoveryIT {
    private static final Logger LOG = LoggerFactory.getLogger(KillRecoveryIT.class);
    private static final String TABLE = "Crash";
    private static final int BATCH_SIZE = 10;
    /** A restart that takes longer than this fails the test; the target (10 s) is reported, not asserted. */
    private static final Duration RESTART_BOUND = Duration.ofSeconds(Long.getLong("crash.restartBoundSeconds", 90));

    /** Under target/, and kept when the test fails, for a post-mortem. */
    private Path dataDir;

    /** Sync writes: key → the ETag the client was answered with. */
    private final Map<String, String> answered = new ConcurrentHashMap<>();
    /** Async writes acknowledged with 202. */
    private final Set<String> accepted = ConcurrentHashMap.newKeySet();
    /** Batches answered 202: their PartitionKeys (the SDK does not hand out the ETags of a batch's operations). */
    private final Set<String> batches = ConcurrentHashMap.newKeySet();
    /** Every batch PartitionKey ever sent, answered or not. */
    private final Set<String> batchesSent = ConcurrentHashMap.newKeySet();

    @Test
    void everyRoundRestartsAndEveryAcknowledgedWriteReadsBackWithItsETag() throws Exception {
        int rounds = Integer.getInteger("crash.rounds", 2);
        long seed = Long.getLong("crash.seed", System.nanoTime());
        dataDir = Path.of("target", "kill-recovery-" + seed).toAbsolutePath();
        LOG.info("kill -9 rounds: {}, seed {} (-Dcrash.seed={} repeats it), data in {}", rounds, seed, seed, dataDir);
        Random random = new Random(seed);
        List<Duration> restarts = new ArrayList<>();

        for (int round = 0; round < rounds; round++) {
            try (ServerProcess server = start()) {
                int port;
                if (round == 0) { // a first start, not a restart: it creates the table
                    port = server.awaitServing(Duration.ofMinutes(2));
                    server.client().createTable(TABLE);
                } else {
                    port = server.awaitServing(RESTART_BOUND);
                    restarts.add(server.startedIn());
                }
                LOG.info("round {}: serving on {} after {} ms", round, port, server.startedIn().toMillis());
                AtomicBoolean killed = new AtomicBoolean();
                List<Thread> writers = startWriters(server, round, killed);
                Thread.sleep(1_000 + random.nextInt(2_500));
                killed.set(true);
                server.kill();
                for (Thread writer : writers) {
                    writer.join(90_000);
                    assertThat(writer.isAlive()).as("a writer still blocked after the kill").isFalse();
                }
                LOG.info("round {}: killed; acknowledged so far: {} sync, {} async, {} batches", round,
                        answered.size(), accepted.size(), batches.size());
            }
        }

        try (ServerProcess last = start()) {
            last.awaitServing(RESTART_BOUND);
            restarts.add(last.startedIn());
            verify(last);
            assertThat(last.linesContaining("corrupted and hence need to be re-initialized"))
                    .as("no restart threw its stores away to rebuild them from the changelogs").isEmpty();
            last.stop();
        }
        List<Long> millis = restarts.stream().map(Duration::toMillis).sorted().collect(Collectors.toList());
        LOG.info("restart to serving after kill -9, {} rounds: median {} ms, max {} ms, all {}", millis.size(),
                millis.get(millis.size() / 2), millis.get(millis.size() - 1), millis);
        assertThat(answered.size() + accepted.size()).as("writes were acknowledged at all").isGreaterThan(rounds * 10);
        assertThat(batches).as("batches were acknowledged at all").isNotEmpty();
        TestDirectories.delete(dataDir);
    }

    private ServerProcess start() {
        return ServerProcess.builder(dataDir).with(ServerSettings.PARTITIONS, 4).start();
    }

    private List<Thread> startWriters(ServerProcess server, int round, AtomicBoolean killed) {
        List<Thread> writers = new ArrayList<>();
        for (int w = 0; w < 2; w++) {
            TableClient sdk = sdk(server);
            String pk = "sync-" + round + "-" + w;
            writers.add(writer(killed, i -> {
                String rk = "r" + i;
                Response<Void> r = sdk.createEntityWithResponse(new TableEntity(pk, rk).addProperty("N", i), null,
                        Context.NONE);
                answered.put(pk + "/" + rk, etag(r.getHeaders().getValue("ETag")));
            }));
        }
        TableClient upserts = sdk(server);
        String upsertPk = "upsert-" + round;
        writers.add(writer(killed, i -> {
            String rk = "r" + i;
            Response<Void> r = upserts.upsertEntityWithResponse(new TableEntity(upsertPk, rk).addProperty("N", i),
                    TableEntityUpdateMode.MERGE, null, Context.NONE);
            answered.put(upsertPk + "/" + rk, etag(r.getHeaders().getValue("ETag")));
        }));
        TableClient batcher = sdk(server);
        writers.add(writer(killed, i -> {
            String pk = "batch-" + round + "-" + i;
            List<TableTransactionAction> actions = new ArrayList<>();
            for (int e = 0; e < BATCH_SIZE; e++) {
                actions.add(new TableTransactionAction(TableTransactionActionType.CREATE,
                        new TableEntity(pk, "r" + e).addProperty("Batch", pk)));
            }
            batchesSent.add(pk);
            batcher.submitTransactionWithResponse(actions, null, Context.NONE);
            batches.add(pk);
        }));
        RawTableClient http = new RawTableClient(server.port());
        for (int w = 0; w < 2; w++) {
            String pk = "async-" + round + "-" + w;
            writers.add(writer(killed, i -> {
                String rk = "r" + i;
                RawTableClient.Response r = http.send("POST", TABLE,
                        "{\"PartitionKey\":\"" + pk + "\",\"RowKey\":\"" + rk + "\",\"N\":" + i + "}",
                        "Prefer", "respond-async");
                if (r.status() != 202) {
                    throw new IllegalStateException("async insert answered " + r.status() + ": " + r.body());
                }
                accepted.add(pk + "/" + rk);
            }));
        }
        return writers;
    }

    /** Runs {@code write} with 0, 1, 2, … until the first failure (the server is gone) or the kill. */
    private static Thread writer(AtomicBoolean killed, Write write) {
        Thread t = new Thread(() -> {
            for (int i = 0; !killed.get(); i++) {
                try {
                    write.run(i);
                } catch (RuntimeException e) {
                    if (!killed.get()) {
                        LOG.info("a write failed before the kill: {}", e.toString());
                    }
                    return;
                }
            }
        }, "crash-writer");
        t.setDaemon(true);
        t.start();
        return t;
    }

    private void verify(ServerProcess server) throws InterruptedException {
        TableClient table = sdk(server);
        Map<String, TableEntity> all = new HashMap<>();
        // async writes were acknowledged once in the log; the processor may still be applying them
        eventuallyPasses(() -> {
            all.clear();
            try {
                table.listEntities().forEach(e -> all.put(e.getPartitionKey() + "/" + e.getRowKey(), e));
            } catch (TableServiceException e) { // a 503 says which wait refused it: logged whole, then again
                LOG.info("Listing the table answered {} {} (Retry-After {}): {}", e.getResponse().getStatusCode(),
                        e.getValue() == null ? null : e.getValue().getErrorCode(),
                        e.getResponse().getHeaderValue("Retry-After"), e.getMessage());
                throw e;
            }
            assertThat(all.keySet()).as("every 202-accepted async write").containsAll(accepted);
        }, Duration.ofSeconds(60));
        Map<String, String> found = new HashMap<>();
        answered.keySet().forEach(k -> found.put(k, all.containsKey(k) ? etag(all.get(k).getETag()) : null));
        assertThat(found).as("every answered sync write, with the ETag it was answered with").isEqualTo(answered);
        for (String pk : batchesSent) {
            Map<String, String> stored = all.values().stream().filter(e -> e.getPartitionKey().equals(pk))
                    .collect(Collectors.toMap(TableEntity::getRowKey, e -> etag(e.getETag())));
            assertThat(stored.size()).as("batch %s is applied whole or not at all", pk).isIn(0, BATCH_SIZE);
            assertThat(Set.copyOf(stored.values())).as("one ETag for the whole batch %s", pk).hasSizeLessThanOrEqualTo(1);
            if (batches.contains(pk)) {
                assertThat(stored).as("answered batch %s", pk).hasSize(BATCH_SIZE);
            }
        }
        LOG.info("verified {} sync writes, {} async writes, {} answered batches of {} sent", answered.size(),
                accepted.size(), batches.size(), batchesSent.size());
    }

    /**
     * An ETag without its quotes: the SDK hands response headers over without the closing quote of
     * {@code W/"datetime'…'"} (the server sends it), while entities carry it whole.
     */
    private static String etag(String value) {
        return value == null ? null : value.replace("\"", "");
    }

    private static TableClient sdk(ServerProcess server) {
        return new TableClientBuilder().connectionString(server.connectionString()).tableName(TABLE)
                .retryOptions(new RetryOptions(new ExponentialBackoffOptions().setMaxRetries(0))).buildClient();
    }

    @FunctionalInterface
    private interface Write {
        void run(int i);
    }
}
