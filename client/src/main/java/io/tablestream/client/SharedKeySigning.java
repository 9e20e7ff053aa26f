package io.tablestream.client;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The one request signer of the clients and the tests, written from the Table service's REST
 * documentation and independent of the server's verifier (so a test can catch a verifier that is
 * wrong in the same way): SharedKeyLite signs {@code Date\n} + the canonicalized resource, SharedKey
 * signs {@code VERB\nContent-MD5\nContent-Type\nDate\n} + the canonicalized resource, where the
 * canonicalized resource is {@code /account} + the raw (percent-encoded) path, plus
 * {@code ?comp=<value>} when the request has one. Under path-style addressing the path begins with
 * the account again ({@code /devstoreaccount1/devstoreaccount1/Tables}).
 *
 * <p>An instance signs for one account and key, reusing one HMAC per thread (a client signs every
 * request); the static methods sign once, for tests.
 */
public final class SharedKeySigning {
    /** The version of the SAS this signer writes (the one the official Java SDK speaks). */
    public static final String SAS_VERSION = "2019-02-02";

    private final String account;
    private final ThreadLocal<Mac> macs;

    public SharedKeySigning(String account, byte[] key) {
        this.account = account;
        byte[] copy = key.clone();
        this.macs = ThreadLocal.withInitial(() -> mac(copy));
    }

    /** The {@code Authorization} value of SharedKeyLite for a request at {@code date} to {@code rawPath}. */
    public String sharedKeyLite(String date, String rawPath, String comp) {
        return "SharedKeyLite " + account + ":" + sign(date + "\n" + canonicalizedResource(account, rawPath, comp));
    }

    /** The {@code Authorization} value of SharedKey (null Content-MD5, Content-Type or date sign as empty lines). */
    public String sharedKey(String method, String contentMd5, String contentType, String date, String rawPath,
                            String comp) {
        String stringToSign = method + "\n" + (contentMd5 == null ? "" : contentMd5) + "\n"
                + (contentType == null ? "" : contentType) + "\n" + (date == null ? "" : date) + "\n"
                + canonicalizedResource(account, rawPath, comp);
        return "SharedKey " + account + ":" + sign(stringToSign);
    }

    /**
     * An account SAS for the Table service (the query string, without {@code ?}): every resource
     * type, {@code permissions} (letters of {@code rwdlacu}), valid until {@code expiry}, version
     * {@value #SAS_VERSION}; its string-to-sign is the account, the permissions, the service, the
     * resource types, start, expiry, IP range, protocol and version, each on its own line.
     */
    public String accountSas(String permissions, Instant expiry) {
        String se = DateTimeFormatter.ISO_INSTANT.format(expiry.truncatedTo(ChronoUnit.SECONDS));
        String stringToSign = String.join("\n", account, permissions, "t", "sco", "", se, "", "", SAS_VERSION, "");
        return "sv=" + SAS_VERSION + "&ss=t&srt=sco&sp=" + permissions + "&se=" + encode(se)
                + "&sig=" + encode(sign(stringToSign));
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    /** HMAC-SHA256 of {@code stringToSign} (UTF-8) with this signer's key, base64-encoded. */
    public String sign(String stringToSign) {
        return Base64.getEncoder().encodeToString(macs.get().doFinal(stringToSign.getBytes(StandardCharsets.UTF_8)));
    }

    /** The {@code Authorization} value of SharedKeyLite: {@code SharedKeyLite account:signature}. */
    public static String sharedKeyLite(String account, byte[] key, String date, String rawPath, String comp) {
        return new SharedKeySigning(account, key).sharedKeyLite(date, rawPath, comp);
    }

    /** The {@code Authorization} value of SharedKey, signed once. */
    public static String sharedKey(String account, byte[] key, String method, String contentMd5, String contentType,
                                   String date, String rawPath, String comp) {
        return new SharedKeySigning(account, key).sharedKey(method, contentMd5, contentType, date, rawPath, comp);
    }

    /** {@code /account} + the raw path, plus {@code ?comp=} when {@code comp} is not null. */
    public static String canonicalizedResource(String account, String rawPath, String comp) {
        return "/" + account + rawPath + (comp == null ? "" : "?comp=" + comp);
    }

    /** HMAC-SHA256 of {@code stringToSign} (UTF-8) with {@code key}, base64-encoded. */
    public static String hmac(byte[] key, String stringToSign) {
        return Base64.getEncoder().encodeToString(mac(key).doFinal(stringToSign.getBytes(StandardCharsets.UTF_8)));
    }

    /** As {@link #hmac(byte[], String)} with a base64 key. */
    public static String hmac(String base64Key, String stringToSign) {
        return hmac(Base64.getDecoder().decode(base64Key), stringToSign);
    }

    /** The RFC 1123 date of {@code time} in GMT, as {@code x-ms-date} and {@code Date} want it. */
    public static String httpDate(ZonedDateTime time) {
        return DateTimeFormatter.RFC_1123_DATE_TIME.format(time.withZoneSameInstant(ZoneOffset.UTC));
    }

    private static Mac mac(byte[] key) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }
}
