package io.tablestream.protocol.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Verifies shared access signatures against the keys of an account, remembering the ones that
 * matched: a client signs many requests with one SAS, and each would otherwise cost an HMAC over the
 * same string-to-sign.
 *
 * <p>What is remembered is the account, the exact string-to-sign, the signature that matched it and
 * the key that made it. A request whose string-to-sign is held is let through only when its signature
 * equals the held one (compared in constant time); anything else is verified against the keys as if
 * nothing were held. Only what the signature proves is skipped: the caller still checks, on every
 * request, the time window against the clock, the protocol, the client address and what the request
 * does against the permissions. A signature that does not match is never remembered.
 *
 * <p>It holds the {@link AccountKeys} it verifies with, which are fixed for their life: new keys make
 * a new {@link Authentication} and with it a new, empty instance, so nothing verified with a replaced
 * key outlives it. At most {@value #MAX_HELD} signatures are held; when full, it starts again empty.
 * SharedKey and SharedKeyLite sign each request anew (their string-to-sign has the request's date)
 * and are not verified here.
 */
final class SasSignatures {
    private static final Logger LOG = LoggerFactory.getLogger(SasSignatures.class);
    static final int MAX_HELD = 4096;

    private record Signed(String account, String stringToSign) {
    }

    private record Verified(byte[] signature, AccountKey key) {
    }

    private final AccountKeys keys;
    private final Map<Signed, Verified> verified = new ConcurrentHashMap<>();

    SasSignatures(AccountKeys keys) {
        this.keys = keys;
    }

    /** The key of {@code account} that signed {@code stringToSign} as {@code signature}. */
    AccountKey verify(String account, String stringToSign, String signature, String kind) {
        byte[] provided = signature.getBytes(StandardCharsets.UTF_8);
        Signed signed = new Signed(account, stringToSign);
        Verified held = verified.get(signed);
        if (held != null && MessageDigest.isEqual(held.signature(), provided)) {
            return held.key();
        }
        for (AccountKey key : keys.keysOf(account)) {
            if (key.signed(stringToSign, signature)) {
                if (verified.size() >= MAX_HELD) {
                    verified.clear();
                }
                verified.put(signed, new Verified(provided, key));
                return key;
            }
        }
        if (LOG.isDebugEnabled()) {
            LOG.debug("{} SAS signature mismatch over [{}]", kind, stringToSign.replace("\n", "\\n"));
        }
        throw AuthenticationErrors.signatureMismatch("The " + kind + " SAS signature does not match its fields, or was"
                + " not made with a key of the account the request addresses.");
    }

    /** How many verified signatures are held (for tests). */
    int held() {
        return verified.size();
    }
}
