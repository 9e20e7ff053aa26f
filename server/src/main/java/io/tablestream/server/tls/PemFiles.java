package io.tablestream.server.tls;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * Certificates and private keys in PEM files, as OpenSSL, certbot, cert-manager and most CAs write
 * them. Certificates: every {@code BEGIN CERTIFICATE} block of the file, in order (a server's own
 * certificate first, then the intermediates that issued it). Private keys, unencrypted, in any of
 * the three usual forms: PKCS#8 ({@code BEGIN PRIVATE KEY}: RSA, EC, Ed25519/Ed448),
 * PKCS#1 ({@code BEGIN RSA PRIVATE KEY}) and SEC1 ({@code BEGIN EC PRIVATE KEY}, a named curve).
 * Encrypted keys are refused with a message saying how to decrypt them. Anything else in the file
 * (text before a block, {@code EC PARAMETERS}) is skipped. Every failure is a
 * {@link TlsFileException} naming the setting and the file.
 */
public final class PemFiles {
    /** Larger than any sensible certificate chain or key: a larger file is the wrong file. */
    private static final long MAX_BYTES = 1 << 20;

    private PemFiles() {
    }

    /** One block: its label ({@code CERTIFICATE}, {@code PRIVATE KEY}, ...), headers and decoded content. */
    record Block(String label, List<String> headers, byte[] der) {
    }

    /** Every certificate in {@code file}, in file order; at least one. */
    public static List<X509Certificate> certificates(Path file, String setting) {
        List<X509Certificate> out = new ArrayList<>();
        CertificateFactory factory;
        try {
            factory = CertificateFactory.getInstance("X.509");
        } catch (CertificateException e) {
            throw new IllegalStateException("this JVM has no X.509 support", e);
        }
        int n = 0;
        for (Block b : blocks(file, setting)) {
            if (!b.label().equals("CERTIFICATE")) {
                continue;
            }
            n++;
            try {
                out.add((X509Certificate) factory.generateCertificate(new ByteArrayInputStream(b.der())));
            } catch (CertificateException | ClassCastException e) {
                throw new TlsFileException(setting + " " + file + ": certificate " + n
                        + " of the file is not a valid X.509 certificate (" + e.getMessage() + ")", e);
            }
        }
        if (out.isEmpty()) {
            throw new TlsFileException(setting + " " + file + ": no certificate in the file (expected PEM"
                    + " blocks '-----BEGIN CERTIFICATE-----')");
        }
        return out;
    }

    /** The one private key in {@code file}. */
    public static PrivateKey privateKey(Path file, String setting) {
        Block key = null;
        for (Block b : blocks(file, setting)) {
            if (b.label().endsWith("PRIVATE KEY")) {
                if (key != null) {
                    throw new TlsFileException(setting + " " + file + ": more than one private key in the file");
                }
                key = b;
            }
        }
        if (key == null) {
            throw new TlsFileException(setting + " " + file + ": no private key in the file (expected a PEM"
                    + " block '-----BEGIN PRIVATE KEY-----', '-----BEGIN RSA PRIVATE KEY-----' or"
                    + " '-----BEGIN EC PRIVATE KEY-----')");
        }
        if (key.label().equals("ENCRYPTED PRIVATE KEY")
                || key.headers().stream().anyMatch(h -> h.startsWith("Proc-Type:") && h.contains("ENCRYPTED"))) {
            throw new TlsFileException(setting + " " + file + ": the private key is encrypted; Tablestream"
                    + " reads unencrypted keys (protect the file by its permissions), e.g. decrypt it with"
                    + " 'openssl pkey -in " + file + " -out key.pem'");
        }
        try {
            return switch (key.label()) {
                case "PRIVATE KEY" -> pkcs8(key.der());
                case "RSA PRIVATE KEY" -> KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(
                        Der.sequence(Der.integer(0), Der.sequence(Der.objectIdentifier(Der.RSA_ENCRYPTION),
                                Der.nullValue()), Der.octetString(key.der()))));
                case "EC PRIVATE KEY" -> KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(
                        Der.sequence(Der.integer(0), Der.sequence(Der.objectIdentifier(Der.EC_PUBLIC_KEY),
                                curveOf(key.der())), Der.octetString(key.der()))));
                default -> throw new TlsFileException(setting + " " + file + ": a '" + key.label()
                        + "' is not a key form Tablestream reads (PKCS#8 'PRIVATE KEY', PKCS#1 'RSA PRIVATE KEY', SEC1"
                        + " 'EC PRIVATE KEY')");
            };
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            if (e instanceof TlsFileException c) {
                throw c;
            }
            throw new TlsFileException(setting + " " + file + ": the '" + key.label() + "' block is not a"
                    + " valid key (" + e.getMessage() + ")", e);
        }
    }

    /** A PKCS#8 key of whichever algorithm it names. */
    private static PrivateKey pkcs8(byte[] der) throws GeneralSecurityException {
        PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(der);
        GeneralSecurityException last = null;
        for (String algorithm : List.of("RSA", "EC", "EdDSA", "RSASSA-PSS", "XDH")) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(spec);
            } catch (GeneralSecurityException e) {
                last = e;
            }
        }
        throw new GeneralSecurityException("not an RSA, EC or EdDSA key in PKCS#8", last);
    }

    /** The named curve a SEC1 EC key carries in its {@code [0]} parameters, as an encoded OBJECT IDENTIFIER. */
    private static byte[] curveOf(byte[] sec1) {
        Der.Element key = Der.parse(sec1);
        if (key.tag() != Der.SEQUENCE) {
            throw new IllegalArgumentException("not a SEC1 EC private key");
        }
        for (Der.Element e : key.children()) {
            if (e.tag() == Der.CONTEXT_0) {
                Der.Element curve = Der.parse(e.content());
                if (curve.tag() == Der.OBJECT_IDENTIFIER) {
                    return Der.objectIdentifier(curve.content());
                }
            }
        }
        throw new IllegalArgumentException("the EC key does not name its curve (write it with named-curve"
                + " parameters, e.g. 'openssl pkey -in key.pem -out key-pkcs8.pem')");
    }

    /** The PEM blocks of {@code file}. */
    static List<Block> blocks(Path file, String setting) {
        String text;
        try {
            if (Files.size(file) > MAX_BYTES) {
                throw new TlsFileException(setting + " " + file + ": the file is larger than 1 MiB, not a PEM"
                        + " certificate or key file");
            }
            text = Files.readString(file, StandardCharsets.ISO_8859_1);
        } catch (NoSuchFileException e) {
            throw new TlsFileException(setting + " " + file + ": no such file");
        } catch (IOException e) {
            throw new TlsFileException(setting + " " + file + ": cannot be read (" + e + ")", e);
        }
        List<Block> blocks = new ArrayList<>();
        String label = null;
        List<String> headers = new ArrayList<>();
        StringBuilder body = new StringBuilder();
        int lineNumber = 0;
        int begun = 0;
        for (String raw : text.split("\r?\n|\r")) {
            lineNumber++;
            String line = raw.strip();
            if (label == null) {
                if (line.startsWith("-----BEGIN ") && line.endsWith("-----")) {
                    label = line.substring(11, line.length() - 5).strip();
                    headers = new ArrayList<>();
                    body.setLength(0);
                    begun = lineNumber;
                }
                continue;
            }
            if (line.startsWith("-----END ")) {
                if (!line.equals("-----END " + label + "-----")) {
                    throw new TlsFileException(setting + " " + file + ": line " + lineNumber + " ends a '"
                            + line.substring(9).replace("-", "").strip() + "' block begun as '" + label + "' on line "
                            + begun);
                }
                try {
                    blocks.add(new Block(label, List.copyOf(headers), Base64.getMimeDecoder().decode(body.toString())));
                } catch (IllegalArgumentException e) {
                    throw new TlsFileException(setting + " " + file + ": the '" + label + "' block of lines "
                            + begun + "-" + lineNumber + " is not valid base64", e);
                }
                label = null;
            } else if (line.contains(":")) {
                headers.add(line);
            } else {
                body.append(line);
            }
        }
        if (label != null) {
            throw new TlsFileException(setting + " " + file + ": the '" + label + "' block begun on line " + begun
                    + " never ends");
        }
        if (blocks.isEmpty()) {
            throw new TlsFileException(setting + " " + file + ": not a PEM file (no '-----BEGIN ...-----' line)");
        }
        return blocks;
    }
}
