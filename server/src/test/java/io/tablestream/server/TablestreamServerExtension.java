package io.tablestream.server;

import io.tablestream.core.model.EmulatorAccount;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import io.tablestream.testsupport.KafkaCluster;
import io.tablestream.testsupport.KafkaExtension;
import io.tablestream.testsupport.TestDirectories;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives integration tests a running Tablestream — one per test JVM, on the shared test broker,
 * with a free HTTP port — and official SDK clients pointed at it with the emulator's connection
 * string. Tests use their own table names. A Query Entities page examines at most 2,000 rows here,
 * so a filtered query over more rows than that may take several (short or empty) pages.
 */
public final class TablestreamServerExtension implements ParameterResolver {
    /** A second account of the server, for tests that would crowd the emulator account (thousands of tables). */
    public static final String OTHER_ACCOUNT = "otheraccount";
    public static final String OTHER_KEY = java.util.Base64.getEncoder().encodeToString(
            "a key of the other account, for tests only, 64 bytes long......".getBytes(java.nio.charset.StandardCharsets.US_ASCII));

    /** The running server of this JVM. */
    public record RunningServer(TablestreamServer server, KafkaCluster kafka, Path dataDir) {
        public int port() {
            return server.port();
        }

        public String endpoint() {
            return "http://127.0.0.1:" + port() + "/" + EmulatorAccount.NAME;
        }

        public String connectionString() {
            return EmulatorAccount.connectionString(endpoint());
        }

        public TableServiceClient client() {
            return new TableServiceClientBuilder().connectionString(connectionString()).buildClient();
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == RunningServer.class || type == TableServiceClient.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        RunningServer running = server(context);
        return parameter.getParameter().getType() == RunningServer.class ? running : running.client();
    }

    public static RunningServer server(ExtensionContext context) {
        KafkaCluster kafka = KafkaExtension.cluster(context);
        return context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL)
                .getOrComputeIfAbsent(RunningServer.class, k -> start(kafka), ServerResource.class).running();
    }

    private static ServerResource start(KafkaCluster kafka) {
        try {
            Path dataDir = Files.createTempDirectory("tablestream-it");
            TablestreamServer server = TablestreamServer.start(ServerConfig.of(Map.of(
                    ServerSettings.PORT, 0,
                    ServerSettings.DATA_DIR, dataDir,
                    ServerSettings.KAFKA_BOOTSTRAP_SERVERS, kafka.bootstrapServers(),
                    ServerSettings.TOPIC_PREFIX, kafka.uniqueName("it"),
                    ServerSettings.PARTITIONS, 4,
                    ServerSettings.ACCOUNTS, OTHER_ACCOUNT + ":" + OTHER_KEY,
                    // far below the default, so tests with a few thousand rows meet short and empty pages
                    ServerSettings.QUERY_ROW_BUDGET, 2_000,
                    // a sweep round every half second (default 5 s), so tests see deleted rows reclaimed soon
                    ServerSettings.SWEEP_INTERVAL_MS, 500,
                    // a commit every 100 ms (default 500), so tests that read the change feed wait less for it;
                    // the crash and cluster tests run their own servers with the default
                    ServerSettings.COMMIT_INTERVAL_MS, 100)));
            return new ServerResource(new RunningServer(server, kafka, dataDir));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Closes the server when the test run ends. */
    record ServerResource(RunningServer running) implements ExtensionContext.Store.CloseableResource {
        @Override
        public void close() {
            running.server().close();
            TestDirectories.delete(running.dataDir());
        }
    }
}
