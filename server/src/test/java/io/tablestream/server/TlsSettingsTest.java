package io.tablestream.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablestream.server.tls.ServerTls;
import io.tablestream.testsupport.TestCertificates;
import io.tablestream.testsupport.TestCertificates.KeyForm;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which TLS settings go together, and the start-up error a bad certificate file is. */
class TlsSettingsTest {
    private static final TestCertificates CA = TestCertificates.authority("TlsSettingsTest CA");

    @TempDir
    Path dir;

    @Test
    void withoutACertificateThereIsNoTls() {
        assertThat(TablestreamServer.tls(ServerConfig.of(Map.of()))).isNull();
    }

    @Test
    void aCertificateNeedsItsKeyAndTheKeyItsCertificate() {
        Path cert = CA.issue("localhost", "localhost").writeChain(dir.resolve("cert.pem"));

        assertThatThrownBy(() -> TablestreamServer.tls(ServerConfig.of(Map.of(ServerSettings.TLS_CERT_FILE, cert))))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("tls-cert-file and tls-key-file go together")
                .hasMessageContaining("only tls-cert-file is set");
        assertThatThrownBy(() -> TablestreamServer.tls(ServerConfig.of(Map.of(ServerSettings.TLS_KEY_FILE, cert))))
                .hasMessageContaining("only tls-key-file is set");
    }

    @Test
    void trustAndAPlainPortMeanNothingWithoutACertificate() {
        assertThatThrownBy(() -> TablestreamServer.tls(ServerConfig.of(Map.of(ServerSettings.TLS_TRUST_FILE, "ca.pem"))))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("tls-trust-file is set but tls-cert-file is not");
        assertThatThrownBy(() -> TablestreamServer.tls(ServerConfig.of(Map.of(ServerSettings.PLAIN_HTTP_PORT, 10003))))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("plain-http-port is set but tls-cert-file is not");
    }

    @Test
    void aBadFileIsAConfigurationErrorNamingIt() {
        TestCertificates.Issued server = CA.issue("localhost", "localhost");
        Path cert = server.writeChain(dir.resolve("cert.pem"));
        Path missing = dir.resolve("key.pem");

        assertThatThrownBy(() -> TablestreamServer.tls(ServerConfig.of(Map.of(ServerSettings.TLS_CERT_FILE, cert,
                ServerSettings.TLS_KEY_FILE, missing))))
                .isInstanceOf(ConfigurationException.class)
                .hasMessage("tls-key-file " + missing + ": no such file");
    }

    @Test
    void aGoodPairIsServed() {
        TestCertificates.Issued server = CA.issue("localhost", "localhost");
        try (ServerTls tls = TablestreamServer.tls(ServerConfig.of(Map.of(
                ServerSettings.TLS_CERT_FILE, server.writeChain(dir.resolve("cert.pem")),
                ServerSettings.TLS_KEY_FILE, server.writeKey(dir.resolve("key.pem"), KeyForm.PKCS8))))) {
            assertThat(tls.certificate().leaf()).isEqualTo(server.certificate());
        }
    }
}
