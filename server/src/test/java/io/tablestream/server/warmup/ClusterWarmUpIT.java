package io.tablestream.server.warmup;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablestream.client.LeanTableClient;
import io.tablestream.client.TableAccount;
import io.tablestream.client.TableServiceHttp;
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
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The warm-up in a cluster: two instances on the shared test broker (in this JVM, as TlsClusterIT
 * runs its own), the second started with a few seconds of warm-up once the first serves. Its
 * warm-up's reads of partitions the first holds are forwarded there and answered, since both know
 * the cluster's scratch account, so it runs its whole time; it leaves no scratch table on either;
 * and a request to the scratch account signed with a guessed key is refused by both.
 */
@KafkaTest
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ClusterWarmUpIT {
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final Duration WARM_UP = Duration.ofSeconds(4);

    @Test
    void aWarmUpReadsFromTheOtherInstancesToTheEndAndLeavesNoTableOnAny(KafkaCluster kafka) throws Exception {
        Path root = Files.createTempDirectory("tablestream-cluster-warm-up-it");
        String prefix = kafka.uniqueName("cluster-warm-up");
        List<Integer> ports = List.of(ServerProcess.freePort(), ServerProcess.freePort());
        List<TablestreamServer> nodes = new ArrayList<>();
        try {
            nodes.add(TablestreamServer.start(config(root, kafka, prefix, ports, 0), ApplyObserver.NONE, Duration.ZERO));
            nodes.add(TablestreamServer.start(config(root, kafka, prefix, ports, 1), ApplyObserver.NONE, WARM_UP));

            // a rebalance after the join can still move a partition here, which then replays: ready after it
            String ready = awaitReady(ports.get(1), Duration.ofSeconds(60));
            assertThat(ready).as("the second instance's readiness").startsWith("200 ")
                    .contains("\"warm-up\":{\"status\":\"UP\"")
                    .contains("its time was up").doesNotContain("stopped").doesNotContain("not deleted");

            StartupWarmUp scratch = StartupWarmUp.sharedScratchAccount(nodes.get(0).processor().commandsTopicId(),
                    Set.of()).orElseThrow();
            assertThat(nodes.get(1).processor().commandsTopicId()).isEqualTo(nodes.get(0).processor().commandsTopicId());
            for (int port : ports) {
                try (LeanTableClient owner = client(port, scratch.account(), scratch.key())) {
                    LeanTableClient.Answer tables = owner.getRaw("Tables").get(30, TimeUnit.SECONDS);
                    assertThat(tables.status()).as("the scratch account's tables via port %d", port).isEqualTo(200);
                    assertThat(tables.body()).as("the scratch account's tables via port %d", port)
                            .doesNotContain(StartupWarmUp.TABLE_PREFIX);
                }
                byte[] guessed = new byte[32];
                new SecureRandom().nextBytes(guessed);
                try (LeanTableClient outsider = client(port, scratch.account(),
                        Base64.getEncoder().encodeToString(guessed))) {
                    assertThat(outsider.getRaw("Tables").get(30, TimeUnit.SECONDS).status())
                            .as("the scratch account with a guessed key, via port %d", port).isEqualTo(403);
                    assertThat(outsider.createTable("Guessed").get(30, TimeUnit.SECONDS).status())
                            .as("a table created in the scratch account with a guessed key, via port %d", port)
                            .isEqualTo(403);
                }
            }
        } finally {
            nodes.forEach(TablestreamServer::close);
            TestDirectories.delete(root);
        }
    }

    private static ServerConfig config(Path root, KafkaCluster kafka, String prefix, List<Integer> ports, int node) {
        String id = "node-" + (node + 1);
        return ServerConfig.of(Map.ofEntries(
                Map.entry(ServerSettings.DATA_DIR, root.resolve(id)),
                Map.entry(ServerSettings.KAFKA_BOOTSTRAP_SERVERS, kafka.bootstrapServers()),
                Map.entry(ServerSettings.TOPIC_PREFIX, prefix),
                Map.entry(ServerSettings.PARTITIONS, 4),
                Map.entry(ServerSettings.PORT, ports.get(node)),
                Map.entry(ServerSettings.ADVERTISED_ADDRESS, "127.0.0.1:" + ports.get(node)),
                Map.entry(ServerSettings.INSTANCE_ID, id),
                Map.entry(ServerSettings.STREAM_THREADS, 1),
                Map.entry(ServerSettings.GROUP_SESSION_TIMEOUT_MS, 3_000),
                Map.entry(ServerSettings.GROUP_HEARTBEAT_INTERVAL_MS, 500)));
    }

    private static LeanTableClient client(int port, String account, String key) {
        return new LeanTableClient(TableAccount.parse("AccountName=" + account + ";AccountKey=" + key
                + ";TableEndpoint=http://127.0.0.1:" + port + "/" + account), TableServiceHttp.MINIMAL_METADATA);
    }

    /** The readiness answer once it is 200, or the last one after {@code timeout}. */
    private static String awaitReady(int port, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        String last = readiness(port);
        while (!last.startsWith("200 ") && System.nanoTime() < deadline) {
            Thread.sleep(100);
            last = readiness(port);
        }
        return last;
    }

    private static String readiness(int port) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                + "/_health/ready")).build(), HttpResponse.BodyHandlers.ofString());
        return r.statusCode() + " " + r.body();
    }
}
