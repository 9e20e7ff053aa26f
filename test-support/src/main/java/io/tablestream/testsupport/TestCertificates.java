package io.tablestream.testsupport;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import javax.security.auth.x500.X500Principal;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.util.io.pem.PemObject;

/**
 * A certificate authority made for one test, and the certificates it issues: real X.509 (v3, with
 * subject alternative names, key usages and key identifiers), written as the PEM files a server
 * or a Kafka broker is configured with, in the key forms OpenSSL writes (PKCS#8, or the traditional
 * PKCS#1 RSA and SEC1 EC forms). Nothing is kept outside the files a test writes (in its own
 * temporary directory, deleted with it).
 *
 * <pre>{@code
 * TestCertificates ca = TestCertificates.authority("Test CA");
 * TestCertificates.Issued server = ca.issue("localhost", "localhost", "127.0.0.1");
 * server.writeChain(dir.resolve("cert.pem"));
 * server.writeKey(dir.resolve("key.pem"), KeyForm.PKCS8);
 * SSLContext client = ca.clientContext();
 * }</pre>
 */
public final class TestCertificates {
    private static final AtomicLong SERIAL = new AtomicLong(System.currentTimeMillis());

    /** The algorithm of a key pair. */
    public enum KeyKind { EC, RSA }

    /** How a private key is written: PKCS#8 ({@code PRIVATE KEY}), or OpenSSL's traditional form of its algorithm. */
    public enum KeyForm { PKCS8, TRADITIONAL }

    private final X509Certificate certificate;
    private final KeyPair keys;

    private TestCertificates(X509Certificate certificate, KeyPair keys) {
        this.certificate = certificate;
        this.keys = keys;
    }

    /** A new self-signed CA (EC P-256), valid from an hour ago for a day. */
    public static TestCertificates authority(String name) {
        KeyPair keys = keyPair(KeyKind.EC);
        X500Principal subject = new X500Principal("CN=" + name + ",O=Tablestream tests");
        Instant now = Instant.now();
        try {
            JcaX509ExtensionUtils ids = new JcaX509ExtensionUtils();
            X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(subject, serial(),
                    Date.from(now.minus(Duration.ofHours(1))), Date.from(now.plus(Duration.ofDays(1))), subject,
                    keys.getPublic())
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(true))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
                    .addExtension(Extension.subjectKeyIdentifier, false, ids.createSubjectKeyIdentifier(keys.getPublic()));
            return new TestCertificates(sign(builder, keys.getPrivate()), keys);
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot make a test CA", e);
        }
    }

    /** A server (and client) certificate with an EC key, valid from an hour ago for a day. */
    public Issued issue(String commonName, String... names) {
        return issue(commonName, KeyKind.EC, Instant.now().plus(Duration.ofDays(1)), names);
    }

    /**
     * A server (and client) certificate for {@code names} (each a DNS name or an IP literal), with a
     * new key of {@code kind}, valid from an hour ago until {@code notAfter}.
     */
    public Issued issue(String commonName, KeyKind kind, Instant notAfter, String... names) {
        KeyPair pair = keyPair(kind);
        List<GeneralName> alternatives = new ArrayList<>();
        for (String n : names) {
            alternatives.add(n.matches("[0-9.]+|.*:.*") ? new GeneralName(GeneralName.iPAddress, n)
                    : new GeneralName(GeneralName.dNSName, n));
        }
        try {
            JcaX509ExtensionUtils ids = new JcaX509ExtensionUtils();
            X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(certificate, serial(),
                    Date.from(Instant.now().minus(Duration.ofHours(1))), Date.from(notAfter),
                    new X500Principal("CN=" + commonName + ",O=Tablestream tests"), pair.getPublic())
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
                    .addExtension(Extension.keyUsage, true,
                            new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyEncipherment))
                    .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(
                            new KeyPurposeId[] {KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth}))
                    .addExtension(Extension.subjectAlternativeName, false,
                            new GeneralNames(alternatives.toArray(new GeneralName[0])))
                    .addExtension(Extension.subjectKeyIdentifier, false, ids.createSubjectKeyIdentifier(pair.getPublic()))
                    .addExtension(Extension.authorityKeyIdentifier, false,
                            ids.createAuthorityKeyIdentifier(keys.getPublic()));
            return new Issued(sign(builder, keys.getPrivate()), pair, certificate);
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot issue a test certificate", e);
        }
    }

    /** The CA's own certificate. */
    public X509Certificate certificate() {
        return certificate;
    }

    /** The CA's certificate as PEM. */
    public String certificatePem() {
        return pem(certificate);
    }

    /** Writes the CA's certificate (a trust file) to {@code file}; returns it. */
    public Path writeCertificate(Path file) {
        return write(file, certificatePem());
    }

    /** A key store trusting this CA (for clients that take one, such as the official SDK's HTTP client). */
    public KeyStore trustStore() {
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            store.setCertificateEntry("test-ca", certificate);
            return store;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A TLS client context that trusts this CA alone. */
    public SSLContext clientContext() {
        try {
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(trustStore());
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trust.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A certificate this CA issued, with its key pair. */
    public record Issued(X509Certificate certificate, KeyPair keys, X509Certificate issuer) {
        /** The certificate, then its issuer's, as PEM (what a server's certificate file holds). */
        public String chainPem() {
            return pem(certificate) + pem(issuer);
        }

        /** The private key as PEM, in {@code form}. */
        public String keyPem(KeyForm form) {
            PrivateKey key = keys.getPrivate();
            try {
                if (form == KeyForm.PKCS8) {
                    return pem(new JcaPKCS8Generator(key, null).generate());
                }
                if (key.getAlgorithm().equals("EC")) {
                    // SEC1 as OpenSSL writes it: with the named curve and the public key, which the
                    // key's own PKCS#8 form keeps outside the inner structure
                    PrivateKeyInfo info = PrivateKeyInfo.getInstance(key.getEncoded());
                    org.bouncycastle.asn1.sec.ECPrivateKey inner =
                            org.bouncycastle.asn1.sec.ECPrivateKey.getInstance(info.parsePrivateKey());
                    org.bouncycastle.asn1.sec.ECPrivateKey full = new org.bouncycastle.asn1.sec.ECPrivateKey(256,
                            inner.getKey(), SubjectPublicKeyInfo.getInstance(keys.getPublic().getEncoded())
                            .getPublicKeyData(), info.getPrivateKeyAlgorithm().getParameters());
                    return pem(new PemObject("EC PRIVATE KEY", full.getEncoded()));
                }
                return pem(key); // RSA: PKCS#1
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** Writes {@link #chainPem()} to {@code file}; returns it. */
        public Path writeChain(Path file) {
            return write(file, chainPem());
        }

        /** Writes the private key to {@code file} in {@code form}; returns it. */
        public Path writeKey(Path file, KeyForm form) {
            return write(file, keyPem(form));
        }

        public BigInteger serialNumber() {
            return certificate.getSerialNumber();
        }
    }

    private static X509Certificate sign(X509v3CertificateBuilder builder, PrivateKey issuerKey)
            throws GeneralSecurityException {
        try {
            String algorithm = issuerKey.getAlgorithm().equals("RSA") ? "SHA256withRSA" : "SHA256withECDSA";
            return new JcaX509CertificateConverter().getCertificate(
                    builder.build(new JcaContentSignerBuilder(algorithm).build(issuerKey)));
        } catch (OperatorCreationException e) {
            throw new GeneralSecurityException(e);
        }
    }

    private static KeyPair keyPair(KeyKind kind) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance(kind.name());
            if (kind == KeyKind.EC) {
                generator.initialize(new ECGenParameterSpec("secp256r1"));
            } else {
                generator.initialize(2048);
            }
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static BigInteger serial() {
        return BigInteger.valueOf(SERIAL.incrementAndGet()).shiftLeft(16).or(BigInteger.valueOf(new SecureRandom().nextInt(1 << 16)));
    }

    private static String pem(Object object) {
        StringWriter out = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
            writer.writeObject(object);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    private static Path write(Path file, String text) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            // written beside it and moved in one step, as a certificate tool would: a reader never sees half a file
            Path partial = file.resolveSibling(file.getFileName() + ".partial");
            Files.writeString(partial, text, StandardCharsets.US_ASCII);
            Files.move(partial, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
