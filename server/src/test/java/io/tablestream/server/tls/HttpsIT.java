package io.tablestream.server.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.core.exception.HttpResponseException;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionType;
import com.azure.data.tables.sas.TableAccountSasPermission;
import com.azure.data.tables.sas.TableAccountSasResourceType;
import com.azure.data.tables.sas.TableAccountSasService;
import com.azure.data.tables.sas.TableAccountSasSignatureValues;
import com.azure.data.tables.sas.TableSasPermission;
import com.azure.data.tables.sas.TableSasProtocol;
import com.azure.data.tables.sas.TableSasSignatureValues;
import io.tablestream.server.ConfigurationException;
import io.tablestream.server.ServerConfig;
import io.tablestream.server.ServerSettings;
import io.tablestream.server.TableNames;
import io.tablestream.server.TablestreamServer;
import io.tablestream.server.process.ServerProcess;
import io.tablestream.server.process.ServerProcessLogs;
import io.tablestream.testsupport.KafkaCluster;
import io.tablestream.testsupport.KafkaTest;
import io.tablestream.testsupport.TestCertificates;
import io.tablestream.testsupport.TestCertificates.KeyForm;
import io.tablestream.testsupport.TestCertificates.KeyKind;
import io.tablestream.testsupport.TestDirectories;
import java.io.IOException;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * One instance serving the Table service over HTTPS with a certificate of a CA made for the test,
 * and plain HTTP beside it on a port of its own: the official SDK over
 * {@code DefaultEndpointsProtocol=https}, a SAS restricted to https accepted over HTTPS and refused
 * over plain HTTP with Azure's error, a renewed certificate served without a restart, the console
 * over HTTPS, and a bad certificate file stopping the start with a message naming it.
 */
@KafkaTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(ServerProcessLogs.class)
class HttpsIT {
    private TestCertificates ca;
    private Path dir;
    private Path certFile;
    private Path keyFile;
    private TablestreamServer server;
    private String endpoint;
    private TableServiceClient service;

    @BeforeAll
    void start(KafkaCluster kafka) throws IOException {
        dir = Files.createTempDirectory("tablestream-https-it");
        ca = TestCertificates.authority("HttpsIT CA");
        // an RSA key in OpenSSL's traditional PKCS#1 form, as many CAs and older tools write it
        TestCertificates.Issued issued = ca.issue("localhost", KeyKind.RSA, Instant.now().plus(Duration.ofDays(1)),
                "localhost", "127.0.0.1");
        certFile = issued.writeChain(dir.resolve("tls/cert.pem"));
        keyFile = issued.writeKey(dir.resolve("tls/key.pem"), KeyForm.TRADITIONAL);
        server = TablestreamServer.start(ServerConfig.of(Map.of(
                ServerSettings.PORT, 0,
                ServerSettings.DATA_DIR, dir.resolve("data"),
                ServerSettings.KAFKA_BOOTSTRAP_SERVERS, kafka.bootstrapServers(),
                ServerSettings.TOPIC_PREFIX, kafka.uniqueName("https"),
                ServerSettings.PARTITIONS, 2,
                ServerSettings.TLS_CERT_FILE, certFile,
                ServerSettings.TLS_KEY_FILE, keyFile,
                ServerSettings.PLAIN_HTTP_PORT, 0,
                ServerSettings.TLS_RELOAD_CHECK_MS, 200)));
        endpoint = "https://127.0.0.1:" + server.port() + "/devstoreaccount1";
        service = HttpsClients.sdk(endpoint, ca);
    }

    @AfterAll
    void stop() {
        if (server != null) {
            server.close();
        }
        TestDirectories.delete(dir);
    }

    @Test
    void theOfficialSdkWorksOverHttps() {
        String name = TableNames.unique("Https");
        TableClient table = service.createTable(name);
        table.createEntity(new TableEntity("p", "r1").addProperty("N", 1));
        table.submitTransaction(List.of(
                new TableTransactionAction(TableTransactionActionType.CREATE, new TableEntity("p", "r2").addProperty("N", 2)),
                new TableTransactionAction(TableTransactionActionType.UPSERT_MERGE, new TableEntity("p", "r3"))));

        assertThat(table.getEntity("p", "r1").getProperty("N")).isEqualTo(1);
        assertThat(table.listEntities(new ListEntitiesOptions().setFilter("PartitionKey eq 'p'"), null, null).stream()
                .map(TableEntity::getRowKey)).containsExactly("r1", "r2", "r3");
        // by name too: the client then names the host it wants (SNI), which the certificate must list
        TableServiceClient byName = HttpsClients.sdk("https://localhost:" + server.port() + "/devstoreaccount1", ca);
        assertThat(byName.getTableClient(name).getEntity("p", "r2").getProperty("N")).isEqualTo(2);
        byName.deleteTable(name);
    }

    @Test
    void theHttpsPortSpeaksOnlyTlsAndPlainHttpHasItsOwnPort() throws Exception {
        java.net.http.HttpClient plainClient = java.net.http.HttpClient.newHttpClient();

        assertThatThrownBy(() -> HttpsClients.status(plainClient, "http://127.0.0.1:" + server.port() + "/_health/live"))
                .isInstanceOf(IOException.class);
        assertThat(server.plainHttpPort()).isPositive().isNotEqualTo(server.port());
        assertThat(HttpsClients.status(plainClient, "http://127.0.0.1:" + server.plainHttpPort() + "/_health/live"))
                .isEqualTo(200);
        assertThat(HttpsClients.status(HttpsClients.jdk(ca), "https://127.0.0.1:" + server.port() + "/_health/ready"))
                .isEqualTo(200);
    }

    @Test
    void aSasRestrictedToHttpsIsAcceptedOverHttpsAndRefusedOverPlainHttpWithAzuresError() throws Exception {
        String name = TableNames.unique("Spr");
        TableClient table = service.createTable(name);
        table.createEntity(new TableEntity("p", "r"));
        String accountSas = service.generateAccountSas(new TableAccountSasSignatureValues(
                OffsetDateTime.now().plusHours(1), TableAccountSasPermission.parse("rl"),
                new TableAccountSasService().setTableAccess(true),
                new TableAccountSasResourceType().setService(true).setContainer(true).setObject(true))
                .setProtocol(TableSasProtocol.HTTPS_ONLY));
        String tableSas = table.generateSas(new TableSasSignatureValues(OffsetDateTime.now().plusHours(1),
                TableSasPermission.parse("r")).setProtocol(TableSasProtocol.HTTPS_ONLY));
        String eitherSas = table.generateSas(new TableSasSignatureValues(OffsetDateTime.now().plusHours(1),
                TableSasPermission.parse("r")).setProtocol(TableSasProtocol.HTTPS_HTTP));
        String plain = "http://127.0.0.1:" + server.plainHttpPort() + "/devstoreaccount1";
        assertThat(accountSas).contains("spr=https&");
        assertThat(tableSas).contains("spr=https&");

        for (String sas : List.of(accountSas, tableSas)) {
            assertThat(sasClient(endpoint, sas).getTableClient(name).getEntity("p", "r").getRowKey()).isEqualTo("r");
            assertThatThrownBy(() -> sasClient(plain, sas).getTableClient(name).getEntity("p", "r"))
                    .isInstanceOfSatisfying(HttpResponseException.class, e -> {
                        assertThat(e.getResponse().getStatusCode()).isEqualTo(403);
                        assertThat(e.getResponse().getHeaderValue("x-ms-error-code"))
                                .isEqualTo("AuthorizationProtocolMismatch");
                    });
        }
        HttpResponse<String> refused = java.net.http.HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(plain + "/" + name + "(PartitionKey='p',RowKey='r')?" + tableSas))
                .header("Accept", "application/json;odata=nometadata").build(), HttpResponse.BodyHandlers.ofString());
        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(refused.body()).contains("\"code\":\"AuthorizationProtocolMismatch\"")
                .contains("This request is not authorized to perform this operation using this protocol.");
        assertThat(sasClient(plain, eitherSas).getTableClient(name).getEntity("p", "r").getRowKey()).isEqualTo("r");
    }

    @Test
    void aRenewedCertificateIsServedWithoutARestart() throws Exception {
        TableServiceClient before = HttpsClients.sdk(endpoint, ca);
        assertThat(before.listTables().stream().count()).isNotNegative();
        TestCertificates.Issued renewed = ca.issue("localhost", KeyKind.EC, Instant.now().plus(Duration.ofDays(2)),
                "localhost", "127.0.0.1");

        // as a renewal tool replaces them: the key, then the certificate, each in one step
        renewed.writeKey(keyFile, KeyForm.PKCS8);
        renewed.writeChain(certFile);

        BigInteger served = awaitServed(renewed.serialNumber(), Duration.ofSeconds(15));
        assertThat(served).isEqualTo(renewed.serialNumber());
        assertThat(HttpsClients.sdk(endpoint, ca).listTables().stream().count()).isNotNegative();
    }

    @Test
    void theConsoleWorksOverHttps() throws Exception {
        assertThat(HttpsClients.status(HttpsClients.jdk(ca), "https://127.0.0.1:" + server.port() + "/_console/"))
                .isEqualTo(200);
        Optional<Path> chromium = firstExisting("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome");
        Optional<Path> driver = firstExisting("/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver");
        Assumptions.assumeTrue(chromium.isPresent() && driver.isPresent(),
                "no Chromium and chromedriver here: the console page was fetched over HTTPS, not run");
        String name = TableNames.unique("ConsoleTls");
        service.createTable(name);
        // the browser trusts the server's key (as if the test CA were installed), nothing else
        String spki = Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-256")
                .digest(HttpsClients.servedCertificate(ca, server.port()).getPublicKey().getEncoded()));
        ChromeOptions options = new ChromeOptions().setBinary(chromium.get().toFile())
                .addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                        "--ignore-certificate-errors-spki-list=" + spki,
                        "--user-data-dir=" + Files.createDirectories(dir.resolve("chromium")));
        ChromeDriver browser = new ChromeDriver(new ChromeDriverService.Builder()
                .usingDriverExecutable(driver.get().toFile()).usingAnyFreePort().build(), options);
        try {
            WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(30));
            browser.get("https://127.0.0.1:" + server.port() + "/_console/");
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("#secret")))
                    .sendKeys(io.tablestream.core.model.EmulatorAccount.KEY);
            browser.findElement(By.cssSelector("#sign-in-button")).click();
            // signed in the page itself (HMAC in the browser, which needs a secure context) and listed the tables
            wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#tables tr[data-table='" + name + "']")));
            assertThat(browser.getCurrentUrl()).startsWith("https://");
        } finally {
            browser.quit();
        }
    }

    @Test
    void aMissingOrMalformedCertificateFileStopsTheStartNamingIt(KafkaCluster kafka) throws Exception {
        Path missing = dir.resolve("tls/missing-key.pem");
        assertThatThrownBy(() -> TablestreamServer.start(ServerConfig.of(Map.of(
                ServerSettings.PORT, 0,
                ServerSettings.DATA_DIR, dir.resolve("never"),
                ServerSettings.KAFKA_BOOTSTRAP_SERVERS, kafka.bootstrapServers(),
                ServerSettings.TLS_CERT_FILE, certFile,
                ServerSettings.TLS_KEY_FILE, missing))))
                .isInstanceOf(ConfigurationException.class)
                .hasMessage("tls-key-file " + missing + ": no such file");
        assertThat(dir.resolve("never")).as("nothing started").doesNotExist();

        // the process: one line saying what is wrong, no stack trace, exit status 1
        Path notPem = Files.writeString(dir.resolve("tls/not-a-cert.pem"), "this is not a certificate\n");
        try (ServerProcess process = ServerProcess.builder(dir.resolve("never"))
                .with(ServerSettings.KAFKA_BOOTSTRAP_SERVERS, kafka.bootstrapServers())
                .with(ServerSettings.TLS_CERT_FILE, notPem)
                .with(ServerSettings.TLS_KEY_FILE, keyFile)
                .log(dir.resolve("bad-cert.log"))
                .start()) {
            assertThat(process.awaitExit(Duration.ofSeconds(60))).isEqualTo(1);
            assertThat(process.tail()).contains("Tablestream failed to start: tls-cert-file " + notPem
                    + ": not a PEM file (no '-----BEGIN ...-----' line)");
            assertThat(process.tail()).doesNotContain("\tat ");
        }
    }

    private TableServiceClient sasClient(String at, String sas) {
        TableServiceClientBuilder builder = new TableServiceClientBuilder().endpoint(at).sasToken(sas);
        if (at.startsWith("https:")) {
            builder.httpClient(HttpsClients.sdkHttpClient(ca));
        }
        return builder.buildClient();
    }

    private BigInteger awaitServed(BigInteger serial, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        BigInteger served = HttpsClients.servedSerial(ca, server.port());
        while (!served.equals(serial) && System.nanoTime() < deadline) {
            Thread.sleep(50); // a new handshake every 50 ms until the deadline
            served = HttpsClients.servedSerial(ca, server.port());
        }
        return served;
    }

    private static Optional<Path> firstExisting(String... paths) {
        return Stream.of(paths).map(Path::of).filter(Files::isExecutable).findFirst();
    }
}
