package io.tablestream.server.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablestream.testsupport.TestCertificates;
import io.tablestream.testsupport.TestCertificates.KeyForm;
import io.tablestream.testsupport.TestCertificates.KeyKind;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The PEM forms the server reads (certificate chains; PKCS#8, PKCS#1 and SEC1 keys), and the
 * message each kind of bad file gets: always the setting and the file, and what to do.
 */
class PemFilesTest {
    private static TestCertificates ca;
    private static TestCertificates.Issued ec;
    private static TestCertificates.Issued rsa;

    @TempDir
    Path dir;

    @BeforeAll
    static void issue() {
        ca = TestCertificates.authority("PemFilesTest CA");
        ec = ca.issue("localhost", KeyKind.EC, Instant.now().plus(Duration.ofDays(1)), "localhost", "127.0.0.1");
        rsa = ca.issue("localhost", KeyKind.RSA, Instant.now().plus(Duration.ofDays(1)), "localhost");
    }

    @ParameterizedTest(name = "{0} key as {1}")
    @CsvSource({"EC, PKCS8, PRIVATE KEY", "EC, TRADITIONAL, EC PRIVATE KEY", "RSA, PKCS8, PRIVATE KEY",
            "RSA, TRADITIONAL, RSA PRIVATE KEY"})
    void readsTheKeyFormsOpensslWrites(KeyKind kind, KeyForm form, String label) throws Exception {
        TestCertificates.Issued issued = kind == KeyKind.EC ? ec : rsa;
        Path file = issued.writeKey(dir.resolve("key.pem"), form);
        assertThat(Files.readString(file)).startsWith("-----BEGIN " + label + "-----");

        PrivateKey key = PemFiles.privateKey(file, "tls-key-file");

        assertThat(key.getAlgorithm()).isEqualTo(kind.name());
        assertThat(ServerCertificate.belongTogether(key, issued.certificate().getPublicKey())).isTrue();
    }

    @Test
    void readsAnEd25519KeyInPkcs8() throws Exception {
        var pair = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        Path file = write("ed.pem", "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(pair.getPrivate().getEncoded())
                + "\n-----END PRIVATE KEY-----\n");

        PrivateKey key = PemFiles.privateKey(file, "tls-key-file");

        assertThat(ServerCertificate.belongTogether(key, pair.getPublic())).isTrue();
    }

    @Test
    void skipsWhatIsNotTheKey() throws Exception {
        Path file = write("key.pem", "EC key made by openssl ecparam -genkey\n-----BEGIN EC PARAMETERS-----\nBggqhkjOPQMBBw==\n"
                + "-----END EC PARAMETERS-----\n" + ec.keyPem(KeyForm.TRADITIONAL));

        assertThat(PemFiles.privateKey(file, "tls-key-file").getAlgorithm()).isEqualTo("EC");
    }

    @Test
    void anEcKeyThatDoesNotNameItsCurveSaysHowToRewriteIt() throws Exception {
        java.io.StringWriter pem = new java.io.StringWriter();
        try (org.bouncycastle.openssl.jcajce.JcaPEMWriter writer = new org.bouncycastle.openssl.jcajce.JcaPEMWriter(pem)) {
            writer.writeObject(ec.keys().getPrivate()); // the bare SEC1 structure, without its [0] parameters
        }
        Path file = write("key.pem", pem.toString());

        assertThatThrownBy(() -> PemFiles.privateKey(file, "tls-key-file"))
                .hasMessageContaining("tls-key-file " + file + ": the 'EC PRIVATE KEY' block is not a valid key")
                .hasMessageContaining("does not name its curve");
    }

    @Test
    void readsTheChainInFileOrder() {
        Path file = ec.writeChain(dir.resolve("chain.pem"));

        List<X509Certificate> chain = PemFiles.certificates(file, "tls-cert-file");

        assertThat(chain).containsExactly(ec.certificate(), ca.certificate());
    }

    @Test
    void aCertificateAndItsKeyAreCheckedToBelongTogether() {
        Path cert = ec.writeChain(dir.resolve("cert.pem"));
        Path otherKey = rsa.writeKey(dir.resolve("key.pem"), KeyForm.PKCS8);

        assertThat(ServerCertificate.read(cert, "tls-cert-file", ec.writeKey(dir.resolve("ec.pem"), KeyForm.PKCS8),
                "tls-key-file").leaf()).isEqualTo(ec.certificate());
        assertThatThrownBy(() -> ServerCertificate.read(cert, "tls-cert-file", otherKey, "tls-key-file"))
                .isInstanceOf(TlsFileException.class)
                .hasMessageContaining("tls-key-file " + otherKey + ": the private key does not belong to the certificate"
                        + " of tls-cert-file " + cert);
    }

    @Test
    void aMissingFileIsNamed() {
        Path missing = dir.resolve("nowhere.pem");

        assertThatThrownBy(() -> PemFiles.certificates(missing, "tls-cert-file"))
                .isInstanceOf(TlsFileException.class)
                .hasMessage("tls-cert-file " + missing + ": no such file");
    }

    @Test
    void aFileThatIsNotPemSaysSo() throws Exception {
        Path file = write("cert.der", "\u0030\u0082garbage");

        assertThatThrownBy(() -> PemFiles.certificates(file, "tls-cert-file"))
                .hasMessage("tls-cert-file " + file + ": not a PEM file (no '-----BEGIN ...-----' line)");
    }

    @Test
    void aKeyFileGivenAsTheCertificateSaysThereIsNoCertificate() {
        Path key = ec.writeKey(dir.resolve("key.pem"), KeyForm.PKCS8);

        assertThatThrownBy(() -> PemFiles.certificates(key, "tls-cert-file"))
                .hasMessageStartingWith("tls-cert-file " + key + ": no certificate in the file");
        Path cert = ec.writeChain(dir.resolve("cert.pem"));
        assertThatThrownBy(() -> PemFiles.privateKey(cert, "tls-key-file"))
                .hasMessageStartingWith("tls-key-file " + cert + ": no private key in the file");
    }

    @Test
    void aTruncatedFileSaysWhere() throws Exception {
        String pem = ec.chainPem();
        Path file = write("cert.pem", pem.substring(0, pem.indexOf("-----END")));

        assertThatThrownBy(() -> PemFiles.certificates(file, "tls-cert-file"))
                .hasMessage("tls-cert-file " + file + ": the 'CERTIFICATE' block begun on line 1 never ends");
    }

    @Test
    void aDamagedCertificateSaysWhichOne() throws Exception {
        String pem = ec.chainPem();
        int second = pem.indexOf("-----BEGIN CERTIFICATE-----", 10) + 28;
        Path file = write("cert.pem", pem.substring(0, second) + "AAAA" + pem.substring(second + 4));

        assertThatThrownBy(() -> PemFiles.certificates(file, "tls-cert-file"))
                .hasMessageStartingWith("tls-cert-file " + file + ": certificate 2 of the file is not a valid X.509"
                        + " certificate");
    }

    @Test
    void anEncryptedKeyIsRefusedSayingHowToDecryptIt() throws Exception {
        Path pkcs8 = write("enc.pem", "-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIBvTBXBgkqhkiG9w0BBQ0wSjApBgkqhkiG\n"
                + "-----END ENCRYPTED PRIVATE KEY-----\n");
        Path traditional = write("enc-rsa.pem", "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\n"
                + "DEK-Info: AES-128-CBC,3F17F5316E2BAC89\n\nMIIBvTBXBgkqhkiG9w0BBQ0wSjApBgkqhkiG\n-----END RSA PRIVATE KEY-----\n");

        for (Path file : List.of(pkcs8, traditional)) {
            assertThatThrownBy(() -> PemFiles.privateKey(file, "tls-key-file"))
                    .isInstanceOf(TlsFileException.class)
                    .hasMessageStartingWith("tls-key-file " + file + ": the private key is encrypted")
                    .hasMessageContaining("openssl pkey -in " + file);
        }
    }

    @Test
    void aKeyOfNoKnownFormSaysWhichFormsAreRead() throws Exception {
        Path file = write("dsa.pem", "-----BEGIN DSA PRIVATE KEY-----\nAAAA\n-----END DSA PRIVATE KEY-----\n");

        assertThatThrownBy(() -> PemFiles.privateKey(file, "tls-key-file"))
                .hasMessage("tls-key-file " + file + ": a 'DSA PRIVATE KEY' is not a key form Tablestream reads (PKCS#8"
                        + " 'PRIVATE KEY', PKCS#1 'RSA PRIVATE KEY', SEC1 'EC PRIVATE KEY')");
    }

    private Path write(String name, String text) throws Exception {
        return Files.writeString(dir.resolve(name), text, StandardCharsets.ISO_8859_1);
    }
}
