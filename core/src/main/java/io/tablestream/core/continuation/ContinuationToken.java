package io.tablestream.core.continuation;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.rules.Limits;
import io.tablestream.core.storekey.Cesu8;
import java.util.Base64;

/**
 * The text of one continuation value ({@code NextPartitionKey}, {@code NextRowKey},
 * {@code NextTableName}), shaped like the service's own {@code 1!8!U21pdGg-}:
 *
 * <pre>
 *   1 ! length ! base64url(cesu8(value))
 * </pre>
 *
 * a version, the number of base64 characters that follow, and the value in the URL-safe base64
 * alphabet of RFC 4648 without padding. Version {@code 2} carries a place in a secondary index's
 * order instead of a key (the NextPartitionKey of a query ordered by an indexed property). Every character is one of {@code [0-9A-Za-z_!-]}, safe
 * unescaped in a header and a query string, and never the {@code ;} SDKs join tokens with.
 *
 * <p>Decoding accepts exactly what {@link #encode} produces and nothing else: anything else is
 * {@code InvalidInput} (400), which is what the service answers a malformed continuation with.
 */
final class ContinuationToken {
    private static final String PREFIX = "1!";
    private static final String POSITION_PREFIX = "2!";
    /** Bytes of a position token's payload at most (its value and keys). */
    static final int MAX_POSITION_BYTES = 12 * 1024;
    private static final int MAX_POSITION_TOKEN_CHARS = POSITION_PREFIX.length() + 5 + 1 + (MAX_POSITION_BYTES + 2) / 3 * 4;
    /** The longest value: a key of 512 code units, each at most 3 bytes. */
    private static final int MAX_VALUE_BYTES = Limits.MAX_KEY_BYTES / 2 * 3;
    private static final int MAX_BASE64_CHARS = (MAX_VALUE_BYTES + 2) / 3 * 4;
    private static final int MAX_TOKEN_CHARS = PREFIX.length() + Integer.toString(MAX_BASE64_CHARS).length() + 1 + MAX_BASE64_CHARS;

    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

    private ContinuationToken() {
    }

    /**
     * The token of a place in an index's order (a query ordered by a property): the same shape,
     * version {@code 2}, carrying the position's bytes. At most {@value #MAX_POSITION_BYTES} bytes:
     * a response's headers must hold it, and a request's query string.
     */
    static String encodePosition(byte[] position) {
        if (position.length > MAX_POSITION_BYTES) {
            throw new IllegalArgumentException("a position of " + position.length + " bytes");
        }
        return framed(POSITION_PREFIX, position);
    }

    /** Whether {@code token} is a position's ({@link #encodePosition}). */
    static boolean isPosition(String token) {
        return token.startsWith(POSITION_PREFIX);
    }

    /**
     * The position bytes a token of {@link #encodePosition} carries.
     *
     * @throws TableServiceException {@code InvalidInput} when it is not exactly such a token
     */
    static byte[] decodePosition(String token, String parameter) {
        return payload(token, POSITION_PREFIX, MAX_POSITION_TOKEN_CHARS, MAX_POSITION_BYTES, parameter);
    }

    /** The token carrying {@code value} (which must not hold U+0000). */
    static String encode(String value) {
        return framed(PREFIX, Cesu8.encode(value));
    }

    /**
     * The value a token carries.
     *
     * @param parameter the query parameter it came in, for the error message
     * @throws TableServiceException {@code InvalidInput} when {@code token} is not exactly what
     *     {@link #encode} makes of some string
     */
    static String decode(String token, String parameter) {
        byte[] bytes = payload(token, PREFIX, MAX_TOKEN_CHARS, MAX_VALUE_BYTES, parameter);
        try {
            return Cesu8.decode(bytes, 0, bytes.length);
        } catch (IllegalArgumentException e) {
            throw malformed(parameter);
        }
    }

    static TableServiceException malformed(String parameter) {
        return TableServiceException.of(ErrorCode.INVALID_INPUT,
                "The " + parameter + " continuation token is not valid; pass back the value the previous response gave.");
    }

    /** {@code prefix}, the length of the base64 that follows, {@code !} and the base64 of {@code bytes}. */
    private static String framed(String prefix, byte[] bytes) {
        String payload = ENCODER.encodeToString(bytes);
        return prefix + payload.length() + '!' + payload;
    }

    /**
     * The bytes a token of {@link #framed} carries: exactly that shape, its length as declared, at
     * most {@code maxChars} characters and {@code maxBytes} bytes.
     */
    private static byte[] payload(String token, String prefix, int maxChars, int maxBytes, String parameter) {
        if (token.length() > maxChars || !token.startsWith(prefix)) {
            throw malformed(parameter);
        }
        int bang = token.indexOf('!', prefix.length());
        if (bang < 0) {
            throw malformed(parameter);
        }
        int declared = parseLength(token, prefix.length(), bang, parameter);
        String payload = token.substring(bang + 1);
        if (payload.length() != declared || declared % 4 == 1 || !isBase64Url(payload)) {
            throw malformed(parameter);
        }
        byte[] bytes = DECODER.decode(payload);
        if (bytes.length > maxBytes || !ENCODER.encodeToString(bytes).equals(payload)) {
            throw malformed(parameter); // too long, or unused trailing bits set: not our encoding
        }
        return bytes;
    }

    /** Decimal digits {@code token[from..to)}, without leading zeros. */
    private static int parseLength(String token, int from, int to, String parameter) {
        int digits = to - from;
        if (digits < 1 || digits > 5 || (digits > 1 && token.charAt(from) == '0')) {
            throw malformed(parameter);
        }
        int n = 0;
        for (int i = from; i < to; i++) {
            char c = token.charAt(i);
            if (c < '0' || c > '9') {
                throw malformed(parameter);
            }
            n = n * 10 + (c - '0');
        }
        return n;
    }

    private static boolean isBase64Url(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
            if (!ok) {
                return false;
            }
        }
        return true;
    }
}
