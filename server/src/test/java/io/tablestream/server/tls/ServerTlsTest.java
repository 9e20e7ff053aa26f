package io.tablestream.server.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablestream.server.ConfigurationException;
import io.tablestream.server.ServerConfig;
import io.tablestream.server.ServerSettings;
import io.tablestream.server.Setting;
import io.tablestream.testsupport.TestCertificates;
import io.tablestream.testsupport.TestCertificates.KeyForm;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which TLS settings go together, and how a changed certificate pair is taken up (without a server). */
class ServerTlsTest {
    private static TestCertificates ca;

    @TempDir
    Path dir;

    @BeforeAll
    static void authority() {
        ca = TestCertificates.authority("ServerTlsTest CA");
    }

    @Test
    void withoutACertificateThereIsNoTls() {
        assertThat(ServerTls.from(config(Map.of()))).isEmpty();
    }

    @Test
    void aCertificateNeedsItsKeyAndTheKeyItsCertificate() {
        Path cert = ca.issue("localhost", "localhost").writeChain(dir.resolve("cert.pem"));

        assertThatThrownBy(() -> ServerTls.from(config(Map.of(ServerSettings.TLS_CERT_FILE, cert))))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("tls-cert-file and tls-key-file go together")
                .hasMessageContaining("only tls-cert-file is set");
        assertThatThrownBy(() -> ServerTls.from(config(Map.of(ServerSettings.TLS_KEY_FILE, cert))))
                .hasMessageContaining("only tls-key-file is set");
    }

    @Test
    void trustAndAPlainPortMeanNothingWithoutACertificate() {
        assertThatThrownBy(() -> ServerTls.from(config(Map.of(ServerSettings.TLS_TRUST_FILE, "ca.pem"))))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("tls-trust-file is set but tls-cert-file is not");
        assertThatThrownBy(() -> ServerTls.from(config(Map.of(ServerSettings.PLAIN_HTTP_PORT, 10003))))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("plain-http-port is set but tls-cert-file is not");
    }

    @Test
    void aMissingTrustFileIsNamed() {
        TestCertificates.Issued server = ca.issue("localhost", "localhost");
        Path missing = dir.resolve("missing-ca.pem");

        assertThatThrownBy(() -> ServerTls.from(config(Map.of(
                ServerSettings.TLS_CERT_FILE, server.writeChain(dir.resolve("cert.pem")),
                ServerSettings.TLS_KEY_FILE, server.writeKey(dir.resolve("key.pem"), KeyForm.PKCS8),
                ServerSettings.TLS_TRUST_FILE, missing))))
                .isInstanceOf(ConfigurationException.class)
                .hasMessage("tls-trust-file " + missing + ": no such file");
    }

    @Test
    void aRotatedPairIsTakenUpOnceBothFilesAgree() {
        TestCertificates.Issued first = ca.issue("localhost", "localhost");
        Path cert = first.writeChain(dir.resolve("cert.pem"));
        Path key = first.writeKey(dir.resolve("key.pem"), KeyForm.TRADITIONAL);
        try (ServerTls tls = ServerTls.from(config(Map.of(ServerSettings.TLS_CERT_FILE, cert,
                ServerSettings.TLS_KEY_FILE, key, ServerSettings.TLS_RELOAD_CHECK_MS, 3_600_000))).orElseThrow()) {
            assertThat(tls.certificate().leaf()).isEqualTo(first.certificate());
            TestCertificates.Issued second = ca.issue("localhost", "localhost");

            second.writeChain(cert); // the new certificate before its key: not a pair yet
            tls.checkFilesNow();
            assertThat(tls.certificate().leaf()).as("a certificate beside the old key is not served")
                    .isEqualTo(first.certificate());

            second.writeKey(key, KeyForm.PKCS8);
            tls.checkFilesNow();
            assertThat(tls.certificate().leaf()).isEqualTo(second.certificate());

            tls.checkFilesNow(); // unchanged files: nothing to do
            assertThat(tls.certificate().leaf()).isEqualTo(second.certificate());
        }
    }

    private static ServerConfig config(Map<Setting<?>, ?> values) {
        Map<Setting<?>, Object> all = new HashMap<>(values);
        return ServerConfig.of(all);
    }
}
