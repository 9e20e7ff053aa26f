package io.tablestream.server.tls;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.ListTablesOptions;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.sas.TableSasPermission;
import com.azure.data.tables.sas.TableSasProtocol;
import com.azure.data.tables.sas.TableSasSignatureValues;
import io.tablestream.server.RawTableClient;
import io.tablestream.server.ServerConfig;
import io.tablestream.server.ServerSettings;
import io.tablestream.server.TablestreamServer;
import io.tablestream.server.TableNames;
import io.tablestream.server.process.ServerProcess;
import io.tablestream.server.process.ServerProcessLogs;
import io.tablestream.testsupport.KafkaCluster;
import io.tablestream.testsupport.KafkaTest;
import io.tablestream.testsupport.TestCertificates;
import io.tablestream.testsupport.TestCertificates.KeyForm;
import io.tablestream.testsupport.TestDirectories;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two instances of a cluster on the shared test broker (each forwards to the other; a third would
 * add start-up time and no path), serving HTTPS with a certificate of their
 * own issued by a CA made for the test, and trusting that CA for each other:
 * through the official SDK over {@code DefaultEndpointsProtocol=https}, every instance answers
 * every request, reads of partitions held elsewhere and scans gathered from all being forwarded
 * between instances over HTTPS with the peer verified; a SAS restricted to https is honoured
 * through a forwarding instance.
 */
@KafkaTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
@ExtendWith(ServerProcessLogs.class)
class TlsClusterIT {
    private static final int NODES = 2;
    private static final int PARTITIONS = 6;
    private static final int ENTITIES = 24;

    private Path root;
    private TestCertificates ca;
    private final List<TablestreamServer> nodes = new ArrayList<>();
    private final List<Integer> ports = new ArrayList<>();
    private String table;

    @BeforeAll
    void startTheInstances(KafkaCluster kafka) throws IOException {
        root = Files.createTempDirectory("tablestream-tls-cluster");
        ca = TestCertificates.authority("TlsClusterIT CA");
        Path trust = ca.writeCertificate(root.resolve("tls/ca.pem"));
        String prefix = kafka.uniqueName("tls-cluster");
        for (int i = 0; i < NODES; i++) {
            ports.add(ServerProcess.freePort());
        }
        // in this JVM, not in processes of their own as the fail-over tests need: a third of the time
        List<CompletableFuture<TablestreamServer>> starting = new ArrayList<>();
        for (int i = 0; i < NODES; i++) {
            String id = "node-" + (i + 1);
            // each instance its own certificate, naming the address the others reach it at
            TestCertificates.Issued certificate = ca.issue(id, "localhost", "127.0.0.1");
            ServerConfig config = ServerConfig.of(Map.ofEntries(
                    Map.entry(ServerSettings.DATA_DIR, root.resolve(id)),
                    Map.entry(ServerSettings.KAFKA_BOOTSTRAP_SERVERS, kafka.bootstrapServers()),
                    Map.entry(ServerSettings.TOPIC_PREFIX, prefix),
                    Map.entry(ServerSettings.PARTITIONS, PARTITIONS),
                    Map.entry(ServerSettings.PORT, ports.get(i)),
                    Map.entry(ServerSettings.ADVERTISED_ADDRESS, "127.0.0.1:" + ports.get(i)),
                    Map.entry(ServerSettings.INSTANCE_ID, id),
                    Map.entry(ServerSettings.STREAM_THREADS, 1),
                    Map.entry(ServerSettings.GROUP_SESSION_TIMEOUT_MS, 3_000),
                    Map.entry(ServerSettings.GROUP_HEARTBEAT_INTERVAL_MS, 500),
                    Map.entry(ServerSettings.TLS_CERT_FILE, certificate.writeChain(root.resolve("tls/" + id + ".pem"))),
                    Map.entry(ServerSettings.TLS_KEY_FILE, certificate.writeKey(root.resolve("tls/" + id + "-key.pem"),
                            KeyForm.PKCS8)),
                    Map.entry(ServerSettings.TLS_TRUST_FILE, trust)));
            if (i == 0) {
                nodes.add(TablestreamServer.start(config)); // creates the topics; the others join them
            } else {
                starting.add(CompletableFuture.supplyAsync(() -> TablestreamServer.start(config)));
            }
        }
        RuntimeException failed = null;
        for (CompletableFuture<TablestreamServer> s : starting) {
            try {
                nodes.add(s.join()); // every one that started is stopped after the tests, whatever failed
            } catch (RuntimeException e) {
                failed = failed == null ? e : failed;
            }
        }
        if (failed != null) {
            throw failed;
        }
        awaitEveryInstanceActiveAndReachable(Duration.ofSeconds(90));
        table = TableNames.unique("TlsCluster");
        TableClient created = client(0).createTable(table);
        for (int i = 0; i < ENTITIES; i++) {
            created.createEntity(new TableEntity("pk-" + i, "r").addProperty("N", i));
        }
    }

    @AfterAll
    void stopAll() {
        nodes.forEach(TablestreamServer::close);
        TestDirectories.delete(root);
    }

    @Test
    void everyInstanceAnswersEveryReadOverHttpsForwardingToTheOthers() {
        for (int n = 0; n < nodes.size(); n++) {
            TableServiceClient service = client(n);
            awaitTable(service);
            TableClient via = service.getTableClient(table);
            for (int i = 0; i < ENTITIES; i++) {
                assertThat(via.getEntity("pk-" + i, "r").getProperty("N")).as("pk-%d via node-%d", i, n + 1).isEqualTo(i);
            }
            assertThat(via.listEntities(new ListEntitiesOptions().setFilter("N ge 0"), null, null).stream().count())
                    .as("a scan gathered from every instance, via node-%d", n + 1).isEqualTo(ENTITIES);
        }
    }

    @Test
    void aSasRestrictedToHttpsIsHonouredThroughAForwardingInstance() {
        String sas = client(0).getTableClient(table).generateSas(new TableSasSignatureValues(
                OffsetDateTime.now().plusHours(1), TableSasPermission.parse("r")).setProtocol(TableSasProtocol.HTTPS_ONLY));
        for (int n = 0; n < nodes.size(); n++) {
            awaitTable(client(n));
            TableClient via = new TableServiceClientBuilder().endpoint(endpoint(n)).sasToken(sas)
                    .httpClient(HttpsClients.sdkHttpClient(ca)).buildClient().getTableClient(table);
            for (int i = 0; i < ENTITIES; i++) {
                assertThat(via.getEntity("pk-" + i, "r").getProperty("N")).isEqualTo(i);
            }
        }
    }

    private String endpoint(int node) {
        return "https://127.0.0.1:" + ports.get(node) + "/devstoreaccount1";
    }

    private TableServiceClient client(int node) {
        return HttpsClients.sdk(endpoint(node), ca);
    }

    /** A table created through one instance reaches the others' registries a moment later. */
    private void awaitTable(TableServiceClient service) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (service.listTables(new ListTablesOptions().setFilter("TableName eq '" + table + "'"), null, null)
                .stream().findAny().isEmpty()) {
            assertThat(System.nanoTime()).as("table %s known to every instance within 10 s", table).isLessThan(deadline);
            pause();
        }
    }

    /**
     * Until {@code GET /_cluster} on the first instance lists every instance, each holding active
     * partitions and each reached by it (over HTTPS, verifying their certificates) for its own view.
     */
    @SuppressWarnings("unchecked")
    private void awaitEveryInstanceActiveAndReachable(Duration timeout) {
        RawTableClient raw = new RawTableClient(ports.get(0)).overHttps(ca.clientContext());
        long deadline = System.nanoTime() + timeout.toNanos();
        String last = "";
        while (System.nanoTime() < deadline) {
            RawTableClient.Response r = raw.requestAt("GET", "/_cluster").send();
            if (r.status() == 200) {
                List<Map<String, Object>> instances = (List<Map<String, Object>>) r.json().get("instances");
                if (instances.size() == NODES && instances.stream().allMatch(i -> Boolean.TRUE.equals(i.get("reachable"))
                        && !((List<Object>) i.getOrDefault("active", List.of())).isEmpty())) {
                    return;
                }
            }
            last = r.status() + " " + r.body();
            pause();
        }
        throw new AssertionError("The instances did not all serve and reach each other within " + timeout
                + "; last /_cluster: " + last);
    }

    private static void pause() {
        try {
            Thread.sleep(250); // polling a condition, with its deadline above
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
