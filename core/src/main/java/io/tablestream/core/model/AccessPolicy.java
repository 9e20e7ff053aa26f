package io.tablestream.core.model;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import java.time.Instant;
import java.util.Objects;

/**
 * A stored access policy of a table (one {@code SignedIdentifier} of Get/Set Table ACL). A service
 * SAS that names it with {@code si} takes from it whatever the SAS itself leaves out: the start,
 * the expiry and the permissions. A field may be given by the SAS or by the policy, never by both.
 *
 * @param id the signed identifier, 1 to 64 characters
 * @param start when SAS bound to it become valid, {@code null} when the policy does not say
 * @param expiry when SAS bound to it expire, {@code null} when the policy does not say
 * @param permissions table permission letters, a subset of {@code raud} each at most once,
 *     {@code null} when the policy does not say
 */
public record AccessPolicy(String id, Instant start, Instant expiry, String permissions) {
    /** The longest signed identifier the service accepts. */
    public static final int MAX_ID_LENGTH = 64;
    /** The permission letters a table policy may hold, in the service's canonical order. */
    public static final String TABLE_PERMISSION_LETTERS = "raud";

    public AccessPolicy {
        Objects.requireNonNull(id, "id");
        if (id.isEmpty() || id.length() > MAX_ID_LENGTH) {
            throw TableServiceException.of(ErrorCode.INVALID_XML_NODE_VALUE,
                    "A signed identifier must be 1 to " + MAX_ID_LENGTH + " characters long.");
        }
        if (permissions != null && !isValidPermissions(permissions)) {
            throw TableServiceException.of(ErrorCode.INVALID_XML_NODE_VALUE,
                    "The permissions of a table access policy are letters of 'raud', each at most once.");
        }
    }

    public static AccessPolicy of(String id, Instant start, Instant expiry, String permissions) {
        return new AccessPolicy(id, start, expiry, permissions);
    }

    /** Whether {@code letters} is a set of table permission letters ({@code r a u d}, no repeats, any order). */
    public static boolean isValidPermissions(String letters) {
        int seen = 0;
        for (int i = 0; i < letters.length(); i++) {
            int bit = TABLE_PERMISSION_LETTERS.indexOf(letters.charAt(i));
            if (bit < 0 || (seen & (1 << bit)) != 0) {
                return false;
            }
            seen |= 1 << bit;
        }
        return true;
    }
}
