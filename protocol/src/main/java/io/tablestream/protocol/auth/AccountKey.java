package io.tablestream.protocol.auth;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** One decoded account key and the label it is audited under ({@code key1}, {@code key2}). Never printed. */
final class AccountKey {
    private static final String HMAC_SHA256 = "HmacSHA256";

    private final String label;
    private final SecretKeySpec key;
    /** A MAC initialised with this key, per thread: looking the algorithm up costs more than the MAC. */
    private final ThreadLocal<Mac> macs;

    AccountKey(String label, byte[] decoded) {
        this.label = label;
        this.key = new SecretKeySpec(decoded, HMAC_SHA256);
        this.macs = ThreadLocal.withInitial(this::newMac);
    }

    private Mac newMac() {
        try {
            Mac mac = Mac.getInstance(HMAC_SHA256);
            mac.init(key);
            return mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }

    String label() {
        return label;
    }

    /** Base64 of HMAC-SHA256 over the UTF-8 bytes of {@code stringToSign}: the storage signature. */
    String sign(String stringToSign) {
        Mac mac = macs.get(); // doFinal leaves it reset for the next signature
        return Base64.getEncoder().encodeToString(mac.doFinal(stringToSign.getBytes(StandardCharsets.UTF_8)));
    }

    /**
     * Whether {@code provided} (the signature a client sent) is this key's signature of
     * {@code stringToSign}, compared in constant time.
     */
    boolean signed(String stringToSign, String provided) {
        return MessageDigest.isEqual(sign(stringToSign).getBytes(StandardCharsets.US_ASCII),
                provided.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public String toString() {
        return label;
    }
}
