package io.tablestream.testsupport;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The tests' one request signer, written from the Table service's REST documentation and
 * independent of the server's verifier (so a test can catch a verifier that is wrong in the same
 * way): SharedKeyLite signs {@code Date\n} + the canonicalized resource, SharedKey signs
 * {@code VERB\nContent-MD5\nContent-Type\nDate\n} + the canonicalized resource, where the
 * canonicalized resource is {@code /account} + the raw (percent-encoded) path, plus
 * {@code ?comp=<value>} when the request has one. Under path-style addressing the path begins with
 * the account again ({@code /devstoreaccount1/devstoreaccount1/Tables}).
 */
public final class SharedKeySigning {
    /** The storage emulator's account. */
    public static final String EMULATOR_ACCOUNT = "devstoreaccount1";
    /** The storage emulator's well-known (public) key. */
    public static final String EMULATOR_KEY =
            "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

    private SharedKeySigning() {
    }

    /** The {@code Authorization} value of SharedKeyLite: {@code SharedKeyLite account:signature}. */
    public static String sharedKeyLite(String account, byte[] key, String date, String rawPath, String comp) {
        return "SharedKeyLite " + account + ":" + hmac(key, date + "\n" + canonicalizedResource(account, rawPath, comp));
    }

    /** The {@code Authorization} value of SharedKey (null Content-MD5, Content-Type or date sign as empty lines). */
    public static String sharedKey(String account, byte[] key, String method, String contentMd5, String contentType,
                                   String date, String rawPath, String comp) {
        String stringToSign = method + "\n" + (contentMd5 == null ? "" : contentMd5) + "\n"
                + (contentType == null ? "" : contentType) + "\n" + (date == null ? "" : date) + "\n"
                + canonicalizedResource(account, rawPath, comp);
        return "SharedKey " + account + ":" + hmac(key, stringToSign);
    }

    /** {@code /account} + the raw path, plus {@code ?comp=} when {@code comp} is not null. */
    public static String canonicalizedResource(String account, String rawPath, String comp) {
        return "/" + account + rawPath + (comp == null ? "" : "?comp=" + comp);
    }

    /** HMAC-SHA256 of {@code stringToSign} (UTF-8) with {@code key}, base64-encoded. */
    public static String hmac(byte[] key, String stringToSign) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return Base64.getEncoder().encodeToString(mac.doFinal(stringToSign.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** As {@link #hmac(byte[], String)} with a base64 key. */
    public static String hmac(String base64Key, String stringToSign) {
        return hmac(Base64.getDecoder().decode(base64Key), stringToSign);
    }

    /** The RFC 1123 date of {@code time} in GMT, as {@code x-ms-date} and {@code Date} want it. */
    public static String httpDate(ZonedDateTime time) {
        return DateTimeFormatter.RFC_1123_DATE_TIME.format(time.withZoneSameInstant(ZoneOffset.UTC));
    }
}
