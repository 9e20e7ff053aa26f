package io.tablestream.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.TableEntity;
import io.tablestream.testsupport.KafkaCluster;
import io.tablestream.testsupport.KafkaTest;
import io.tablestream.testsupport.TestDirectories;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The read budgets of the settings catalogue change what a page holds (a server of its own, small budgets). */
@KafkaTest
class SettingsIT {
    private static TablestreamServer server;
    private static Path dataDir;
    private static RawTableClient raw;
    private static TableServiceClient service;

    @BeforeAll
    static void start(KafkaCluster kafka) throws Exception {
        dataDir = Files.createTempDirectory("tablestream-settings-it");
        server = TablestreamServer.start(ServerConfig.of(Map.of(
                ServerSettings.PORT, 0,
                ServerSettings.DATA_DIR, dataDir,
                ServerSettings.KAFKA_BOOTSTRAP_SERVERS, kafka.bootstrapServers(),
                ServerSettings.TOPIC_PREFIX, kafka.uniqueName("settings"),
                ServerSettings.PARTITIONS, 1,
                ServerSettings.TABLE_SCAN_BUDGET, 3,
                ServerSettings.QUERY_PAGE_BYTES, 2_000,
                ServerSettings.RESPONDER_THREADS, 2)));
        raw = new RawTableClient(server.port());
        service = new TableServiceClientBuilder().connectionString(TablestreamServer.connectionString(
                "http://127.0.0.1:" + server.port() + "/" + RawTableClient.ACCOUNT)).buildClient();
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
        TestDirectories.delete(dataDir);
    }

    @Test
    void aQueryTablesPageExaminesNoMoreTablesThanTheTableScanBudget() {
        for (int i = 0; i < 5; i++) {
            service.createTable("Budget" + i);
        }

        RawTableClient.Response first = raw.read("Tables");

        assertThat(first.status()).isEqualTo(200);
        assertThat(first.rows()).hasSize(3);
        assertThat(first.header("x-ms-continuation-NextTableName")).isNotNull();
        assertThat(service.listTables().stream().filter(t -> t.getName().startsWith("Budget"))).hasSize(5);
    }

    @Test
    void aQueryEntitiesPageHoldsAboutTheQueryPageBytes() {
        TableClient table = service.createTable("PageBytes");
        for (int i = 0; i < 10; i++) {
            table.createEntity(new TableEntity("p", "r" + i).addProperty("Text", "x".repeat(500)));
        }

        RawTableClient.Response first = raw.read("PageBytes()?" + RawTableClient.query("$filter", "PartitionKey eq 'p'"));

        assertThat(first.status()).isEqualTo(200);
        assertThat(first.rows()).hasSizeBetween(1, 4);
        assertThat(first.header("x-ms-continuation-NextRowKey")).isNotNull();
        assertThat(table.listEntities()).hasSize(10);
    }
}
