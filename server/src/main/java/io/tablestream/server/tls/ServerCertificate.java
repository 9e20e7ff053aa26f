package io.tablestream.server.tls;

import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.List;

/**
 * The certificate chain the HTTPS port presents and its private key, read from the two PEM files
 * of the settings and checked to belong together (the key signs what the certificate's public key
 * verifies), so a half-finished rotation (a new certificate beside the old key) is never served.
 *
 * @param chain the server's certificate first, then its issuers as the file lists them
 */
public record ServerCertificate(List<X509Certificate> chain, PrivateKey key) {
    /** The alias and password of the entry in the in-memory key store; nothing secret, the store never leaves memory. */
    static final String ALIAS = "tablestream";
    static final String STORE_PASSWORD = "in-memory";

    public ServerCertificate {
        chain = List.copyOf(chain);
    }

    /** Reads and checks the pair; a {@link TlsFileException} names the file at fault. */
    public static ServerCertificate read(Path certFile, String certSetting, Path keyFile, String keySetting) {
        List<X509Certificate> chain = PemFiles.certificates(certFile, certSetting);
        PrivateKey key = PemFiles.privateKey(keyFile, keySetting);
        if (!belongTogether(key, chain.get(0).getPublicKey())) {
            throw new TlsFileException(keySetting + " " + keyFile + ": the private key does not belong to the"
                    + " certificate of " + certSetting + " " + certFile + " (" + chain.get(0).getSubjectX500Principal()
                    + "); the certificate file must begin with the certificate of this key");
        }
        return new ServerCertificate(chain, key);
    }

    /** The server's own certificate (the first of the chain). */
    public X509Certificate leaf() {
        return chain.get(0);
    }

    /** What an operator recognises the certificate by: its subject, serial number and validity. */
    public String describe() {
        X509Certificate c = leaf();
        return c.getSubjectX500Principal() + " (serial " + c.getSerialNumber().toString(16) + ", valid "
                + c.getNotBefore().toInstant() + " to " + c.getNotAfter().toInstant() + ")";
    }

    /** Why clients will refuse the certificate at {@code now}, or null when its dates are fine. */
    public String validityProblem(Instant now) {
        X509Certificate c = leaf();
        if (now.isBefore(c.getNotBefore().toInstant())) {
            return "is not valid before " + c.getNotBefore().toInstant();
        }
        if (now.isAfter(c.getNotAfter().toInstant())) {
            return "expired on " + c.getNotAfter().toInstant();
        }
        return null;
    }

    /** An in-memory key store holding the one entry. */
    KeyStore keyStore() {
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            store.setKeyEntry(ALIAS, key, STORE_PASSWORD.toCharArray(), chain.toArray(new X509Certificate[0]));
            return store;
        } catch (GeneralSecurityException | java.io.IOException e) {
            throw new IllegalStateException("cannot hold the certificate in a key store: " + e.getMessage(), e);
        }
    }

    /** Whether {@code key} signs what {@code publicKey} verifies (true when this JVM cannot tell for the algorithm). */
    static boolean belongTogether(PrivateKey key, PublicKey publicKey) {
        if (!key.getAlgorithm().equals(publicKey.getAlgorithm())) {
            return false;
        }
        String algorithm = switch (key.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            case "EdDSA", "Ed25519", "Ed448" -> key.getAlgorithm();
            default -> null;
        };
        if (algorithm == null) {
            return true;
        }
        try {
            byte[] probe = new byte[32];
            new SecureRandom().nextBytes(probe);
            Signature signer = Signature.getInstance(algorithm);
            signer.initSign(key);
            signer.update(probe);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance(algorithm);
            verifier.initVerify(publicKey);
            verifier.update(probe);
            return verifier.verify(signature);
        } catch (GeneralSecurityException e) {
            return false;
        }
    }
}
