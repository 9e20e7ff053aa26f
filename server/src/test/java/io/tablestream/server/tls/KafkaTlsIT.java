package io.tablestream.server.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionType;
import io.tablestream.kafka.embedded.EmbeddedKafkaBroker;
import io.tablestream.server.RawTableClient;
import io.tablestream.server.ServerConfig;
import io.tablestream.server.ServerSettings;
import io.tablestream.server.TablestreamServer;
import io.tablestream.testsupport.TestCertificates;
import io.tablestream.testsupport.TestCertificates.KeyForm;
import io.tablestream.testsupport.TestDirectories;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Kafka's own TLS and SASL, through the pass-through settings alone: a real broker (the embedded
 * one, in this JVM) whose only listener for clients speaks SASL_SSL (a certificate of a CA made for
 * the test, SASL PLAIN), and a Tablestream instance whose every Kafka client — the command log's
 * producer and consumer, Kafka Streams', the change feed's, the admin clients of topics, health and
 * session tokens — reaches it with {@code kafka.security.protocol=SASL_SSL}, a PEM trust file and a
 * JAAS login; a wrong password stops the start with Kafka's reason.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KafkaTlsIT {
    private static final String USER = "tablestream";
    private static final String PASSWORD = "kafka-secret-for-tests";

    private Path dir;
    private Path caFile;
    private EmbeddedKafkaBroker broker;
    private TablestreamServer server;

    @BeforeAll
    void start() throws IOException {
        dir = Files.createTempDirectory("tablestream-kafka-tls-it");
        TestCertificates ca = TestCertificates.authority("KafkaTlsIT CA");
        TestCertificates.Issued brokerCertificate = ca.issue("kafka", "localhost", "127.0.0.1");
        caFile = ca.writeCertificate(dir.resolve("ca.pem"));
        broker = EmbeddedKafkaBroker.builder(dir.resolve("kafka"))
                .secureListener("SASL_SSL", 0)
                .brokerProperty("ssl.keystore.type", "PEM")
                .brokerProperty("ssl.keystore.certificate.chain", brokerCertificate.chainPem())
                .brokerProperty("ssl.keystore.key", brokerCertificate.keyPem(KeyForm.PKCS8))
                .brokerProperty("sasl.enabled.mechanisms", "PLAIN")
                .brokerProperty("listener.name.sasl_ssl.plain.sasl.jaas.config",
                        "org.apache.kafka.common.security.plain.PlainLoginModule required user_" + USER + "=\""
                                + PASSWORD + "\";")
                .start();
        server = TablestreamServer.start(config(PASSWORD, "tls"));
    }

    @AfterAll
    void stop() {
        if (server != null) {
            server.close();
        }
        if (broker != null) {
            broker.close();
        }
        TestDirectories.delete(dir);
    }

    private ServerConfig config(String password, String prefix) {
        return ServerConfig.of(Map.of(
                        ServerSettings.PORT, 0,
                        ServerSettings.DATA_DIR, dir.resolve("data-" + prefix),
                        ServerSettings.KAFKA_BOOTSTRAP_SERVERS, broker.secureBootstrapServers(),
                        ServerSettings.TOPIC_PREFIX, prefix,
                        ServerSettings.PARTITIONS, 2,
                        ServerSettings.PROCESSOR_STARTUP_TIMEOUT_MS, 60_000))
                .with("kafka.security.protocol", "SASL_SSL")
                .with("kafka.ssl.truststore.type", "PEM")
                .with("kafka.ssl.truststore.location", caFile.toString())
                .with("kafka.sasl.mechanism", "PLAIN")
                .with("kafka.sasl.jaas.config", "org.apache.kafka.common.security.plain.PlainLoginModule required"
                        + " username=\"" + USER + "\" password=\"" + password + "\";");
    }

    @Test
    void everyKafkaClientOfTheServerSpeaksSaslSsl() {
        TableServiceClient service = new TableServiceClientBuilder().connectionString(
                        "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey="
                                + io.tablestream.core.model.EmulatorAccount.KEY
                                + ";TableEndpoint=http://127.0.0.1:" + server.port() + "/devstoreaccount1;")
                .buildClient();
        TableClient table = service.createTable("OverSaslSsl");
        table.createEntity(new TableEntity("p", "r1").addProperty("N", 1));
        table.submitTransaction(List.of(
                new TableTransactionAction(TableTransactionActionType.CREATE, new TableEntity("p", "r2")),
                new TableTransactionAction(TableTransactionActionType.CREATE, new TableEntity("p", "r3"))));

        assertThat(table.listEntities().stream().map(TableEntity::getRowKey)).containsExactly("r1", "r2", "r3");
        RawTableClient raw = new RawTableClient(server.port());
        RawTableClient.Response written = raw.send("POST", "OverSaslSsl",
                "{\"PartitionKey\":\"p\",\"RowKey\":\"r4\"}", "Content-Type", "application/json",
                "Prefer", "respond-async");
        assertThat(written.status()).isEqualTo(202);
        // a read carrying the session token waits for the write it names, looking the log's end up
        RawTableClient.Response read = raw.read("OverSaslSsl(PartitionKey='p',RowKey='r4')",
                "x-ms-session-token", written.header("x-ms-session-token"));
        assertThat(read.status()).isEqualTo(200);
        // the change feed's consumers: the first change, once committed (an answer waits up to 10 s for it)
        RawTableClient.Response changes = raw.read("OverSaslSsl()/$changes?from=beginning&wait=10");
        assertThat(changes.status()).isEqualTo(200);
        assertThat(changes.body()).contains("\"r1\"");
        assertThat(raw.requestAt("GET", "/_health/ready").unsigned().send().status()).isEqualTo(200);
    }

    @Test
    void aWrongPasswordStopsTheStartWithKafkasReason() {
        assertThatThrownBy(() -> TablestreamServer.start(config("not-the-password", "refused")).close())
                .hasStackTraceContaining("Authentication failed");
    }
}
