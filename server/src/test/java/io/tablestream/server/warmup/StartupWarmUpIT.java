package io.tablestream.server.warmup;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablestream.processor.ApplyObserver;
import io.tablestream.server.RawTableClient;
import io.tablestream.server.ServerConfig;
import io.tablestream.server.ServerSettings;
import io.tablestream.server.TablestreamServer;
import io.tablestream.testsupport.KafkaCluster;
import io.tablestream.testsupport.KafkaTest;
import io.tablestream.testsupport.TestDirectories;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** An instance started with a warm-up is not ready while it warms up, and leaves no table of its warm-up behind. */
@KafkaTest
class StartupWarmUpIT {
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final Pattern WRITES = Pattern.compile("\"detail\":\"(\\d+) writes and (\\d+) reads");

    @Test
    void anInstanceWarmsUpBeforeItReportsReadyAndLeavesNoTableBehind(KafkaCluster kafka) throws Exception {
        int port = freePort();
        Path dataDir = Files.createTempDirectory("tablestream-warm-up-it");
        CompletableFuture<TablestreamServer> starting = CompletableFuture.supplyAsync(() -> TablestreamServer.start(
                ServerConfig.of(Map.of(
                        ServerSettings.PORT, port,
                        ServerSettings.DATA_DIR, dataDir,
                        ServerSettings.KAFKA_BOOTSTRAP_SERVERS, kafka.bootstrapServers(),
                        ServerSettings.TOPIC_PREFIX, kafka.uniqueName("warm-up"),
                        ServerSettings.PARTITIONS, 2)),
                ApplyObserver.NONE, Duration.ofSeconds(3)));
        TablestreamServer server = null;
        try {
            HttpResponse<String> during = firstReadinessAnswer(port, starting);
            assertThat(starting).as("the readiness answer came while the instance warmed up").isNotDone();
            assertThat(during.statusCode()).isEqualTo(503);
            assertThat(during.body()).contains("\"warm-up\":{\"status\":\"DOWN\"");

            server = starting.get(120, TimeUnit.SECONDS);
            HttpResponse<String> after = readiness(port);
            assertThat(after.statusCode()).as(after.body()).isEqualTo(200);
            assertThat(after.body()).contains("\"warm-up\":{\"status\":\"UP\"").contains("its time was up")
                    .doesNotContain("not deleted");
            Matcher counts = WRITES.matcher(after.body());
            assertThat(counts.find()).as(after.body()).isTrue();
            assertThat(Integer.parseInt(counts.group(1))).as("writes").isPositive();
            assertThat(Integer.parseInt(counts.group(2))).as("reads").isPositive();

            RawTableClient.Response tables = new RawTableClient(port).read("Tables");
            assertThat(tables.status()).isEqualTo(200);
            assertThat(tables.body()).as("the emulator account's tables").doesNotContain("WarmUp");
        } finally {
            if (server == null) {
                server = starting.get(120, TimeUnit.SECONDS);
            }
            server.close();
            TestDirectories.delete(dataDir);
        }
    }

    /** The first answer of /_health/ready once the port is open (polled every 20 ms while the start runs). */
    private static HttpResponse<String> firstReadinessAnswer(int port, CompletableFuture<?> starting) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline && !starting.isDone()) {
            try {
                return readiness(port);
            } catch (IOException notYetOpen) {
                Thread.sleep(20);
            }
        }
        throw new AssertionError("the port did not answer while the instance started");
    }

    private static HttpResponse<String> readiness(int port) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/_health/ready")).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
