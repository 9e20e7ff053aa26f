package io.tablestream.server.warmup;

import static io.tablestream.testsupport.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.tablestream.client.LeanTableClient;
import io.tablestream.client.TableAccount;
import io.tablestream.client.TableServiceHttp;
import io.tablestream.core.model.EmulatorAccount;
import io.tablestream.processor.ApplyObserver;
import io.tablestream.server.ServerConfig;
import io.tablestream.server.ServerSettings;
import io.tablestream.server.TablestreamServer;
import io.tablestream.server.process.ServerProcess;
import io.tablestream.testsupport.KafkaCluster;
import io.tablestream.testsupport.KafkaTest;
import io.tablestream.testsupport.TestDirectories;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The warm-up after ready: the instance is ready as soon as it serves, warms itself up meanwhile (its
 * readiness probes do not stop it), stops at a client's first request, saying so, and leaves no scratch
 * table; stopped with the instance, it deletes its table too; and the next warm-up of an instance
 * deletes what an earlier run of that instance left, never another instance's table.
 */
@KafkaTest
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class AfterReadyWarmUpIT {
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final WarmUpTimes AFTER_READY = new WarmUpTimes(Duration.ZERO, Duration.ofSeconds(60));
    private static final Duration WAIT = Duration.ofSeconds(30);

    @Test
    void anInstanceIsReadyAtOnceWarmsUpUntilAClientsFirstRequestAndLeavesNoTable(KafkaCluster kafka) throws Exception {
        Path dataDir = Files.createTempDirectory("tablestream-after-ready-warm-up-it");
        int port = ServerProcess.freePort();
        ServerConfig config = ServerConfig.of(Map.of(
                ServerSettings.PORT, port,
                ServerSettings.DATA_DIR, dataDir,
                ServerSettings.KAFKA_BOOTSTRAP_SERVERS, kafka.bootstrapServers(),
                ServerSettings.TOPIC_PREFIX, kafka.uniqueName("after-ready-warm-up"),
                ServerSettings.PARTITIONS, 2));
        StartupWarmUp scratch = null;
        String othersTable = null;
        try {
            String leftover;
            try (TablestreamServer server = TablestreamServer.start(config, ApplyObserver.NONE, AFTER_READY)) {
                String ready = eventually(() -> readiness(port), r -> r.startsWith("200 "), WAIT);
                assertThat(ready).as("readiness once the stores are restored")
                        .contains("\"warm-up\":{\"status\":\"UP\"").contains("until a client's first request");
                scratch = StartupWarmUp.sharedScratchAccount(server.processor().commandsTopicId(), Set.of(),
                        config.get(ServerSettings.INSTANCE_ID)).orElseThrow();
                StartupWarmUp own = scratch;
                eventually("the warm-up's scratch table exists", () -> tables(port, own).contains(own.instanceTables()),
                        WAIT);
                assertThat(readiness(port)).as("readiness probes do not stop it").contains("until a client's first request");

                try (LeanTableClient client = client(port, EmulatorAccount.NAME, EmulatorAccount.KEY)) {
                    assertThat(client.getRaw("Tables").get(30, TimeUnit.SECONDS).status()).isEqualTo(200);
                }
                String ended = eventually(() -> readiness(port), r -> r.contains(" ms ("), WAIT);
                assertThat(ended).startsWith("200 ").contains("(stopped: a client's first request (account "
                        + EmulatorAccount.NAME + "))").doesNotContain("not deleted");
                assertThat(tables(port, scratch)).as("the scratch account's tables").doesNotContain("WarmUp");

                // what a kill -9 mid-warm-up leaves, of this instance and of another one
                leftover = scratch.instanceTables() + "leftover";
                othersTable = StartupWarmUp.sharedScratchAccount(server.processor().commandsTopicId(), Set.of(),
                        "another-instance").orElseThrow().instanceTables() + "running";
                try (LeanTableClient owner = client(port, scratch.account(), scratch.key())) {
                    assertThat(owner.createTable(leftover).get(30, TimeUnit.SECONDS).status()).isEqualTo(204);
                    assertThat(owner.createTable(othersTable).get(30, TimeUnit.SECONDS).status()).isEqualTo(204);
                }
            }

            try (TablestreamServer again = TablestreamServer.start(config, ApplyObserver.NONE, AFTER_READY)) {
                StartupWarmUp own = scratch;
                eventually("the earlier run's table deleted, this run's created", () -> {
                    String tables = tables(port, own);
                    return !tables.contains(leftover) && tables.contains(own.instanceTables());
                }, WAIT);
                long stopping = System.nanoTime();
                again.close();
                assertThat(Duration.ofNanos(System.nanoTime() - stopping)).as("the stop, warm-up running")
                        .isLessThan(Duration.ofSeconds(20));
            }

            try (TablestreamServer cold = TablestreamServer.start(config, ApplyObserver.NONE, WarmUpTimes.NONE)) {
                assertThat(eventually(() -> readiness(port), r -> r.startsWith("200 "), WAIT)).as("without a warm-up")
                        .doesNotContain("warm-up");
                String tables = tables(port, scratch);
                assertThat(tables).as("the scratch tables after a stop mid-warm-up")
                        .doesNotContain(scratch.instanceTables()).contains(othersTable);
                try (LeanTableClient owner = client(port, scratch.account(), scratch.key())) {
                    assertThat(owner.deleteRaw("Tables('" + othersTable + "')").get(30, TimeUnit.SECONDS).status())
                            .isEqualTo(204);
                }
            }
        } finally {
            TestDirectories.delete(dataDir);
        }
    }

    /** The scratch account's Query Tables answer. */
    private static String tables(int port, StartupWarmUp scratch) throws Exception {
        try (LeanTableClient owner = client(port, scratch.account(), scratch.key())) {
            LeanTableClient.Answer answer = owner.getRaw("Tables").get(30, TimeUnit.SECONDS);
            assertThat(answer.status()).as(answer.body()).isEqualTo(200);
            return answer.body();
        }
    }

    private static LeanTableClient client(int port, String account, String key) {
        return new LeanTableClient(TableAccount.parse("AccountName=" + account + ";AccountKey=" + key
                + ";TableEndpoint=http://127.0.0.1:" + port + "/" + account), TableServiceHttp.MINIMAL_METADATA);
    }

    private static String readiness(int port) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                + "/_health/ready")).build(), HttpResponse.BodyHandlers.ofString());
        return r.statusCode() + " " + r.body();
    }
}
