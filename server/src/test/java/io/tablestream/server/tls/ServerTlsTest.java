package io.tablestream.server.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablestream.testsupport.TestCertificates;
import io.tablestream.testsupport.TestCertificates.KeyForm;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How a changed certificate pair or trust file is taken up, without a server. */
class ServerTlsTest {
    private static final TestCertificates CA = TestCertificates.authority("ServerTlsTest CA");
    /** Longer than a test: the test checks the files itself. */
    private static final Duration NO_BACKGROUND_CHECK = Duration.ofHours(1);

    @TempDir
    Path dir;

    @Test
    void aRotatedPairIsTakenUpOnceBothFilesAgree() {
        TestCertificates.Issued first = CA.issue("localhost", "localhost");
        TlsFile cert = new TlsFile(first.writeChain(dir.resolve("cert.pem")), "tls-cert-file");
        TlsFile key = new TlsFile(first.writeKey(dir.resolve("key.pem"), KeyForm.TRADITIONAL), "tls-key-file");
        try (ServerTls tls = ServerTls.start(cert, key, null, NO_BACKGROUND_CHECK)) {
            assertThat(tls.certificate().leaf()).isEqualTo(first.certificate());
            TestCertificates.Issued second = CA.issue("localhost", "localhost");

            second.writeChain(cert.path()); // the new certificate before its key: not a pair yet
            tls.checkFilesNow();
            assertThat(tls.certificate().leaf()).as("a certificate beside the old key is not served")
                    .isEqualTo(first.certificate());

            second.writeKey(key.path(), KeyForm.PKCS8);
            tls.checkFilesNow();
            assertThat(tls.certificate().leaf()).isEqualTo(second.certificate());

            tls.checkFilesNow(); // unchanged files: nothing to do
            assertThat(tls.certificate().leaf()).isEqualTo(second.certificate());
        }
    }

    @Test
    void aMissingTrustFileIsNamed() {
        TestCertificates.Issued server = CA.issue("localhost", "localhost");
        Path missing = dir.resolve("missing-ca.pem");

        assertThatThrownBy(() -> ServerTls.start(new TlsFile(server.writeChain(dir.resolve("cert.pem")), "tls-cert-file"),
                new TlsFile(server.writeKey(dir.resolve("key.pem"), KeyForm.PKCS8), "tls-key-file"),
                new TlsFile(missing, "tls-trust-file"), NO_BACKGROUND_CHECK))
                .isInstanceOf(TlsFileException.class)
                .hasMessage("tls-trust-file " + missing + ": no such file");
    }
}
