package io.tablestream.core.model;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * A stored access policy of a table (one {@code SignedIdentifier} of Set Table ACL): the id a
 * table SAS names in {@code si}, and the start, expiry and permissions it lends that SAS. Any of
 * the three may be left out, for the SAS to give instead.
 *
 * @param id          1 to {@value #MAX_ID_LENGTH} characters
 * @param start       when the policy takes effect, or {@code null}
 * @param expiry      when it ends, or {@code null}
 * @param permissions what it grants; empty when the SAS must say
 */
public record AccessPolicy(String id, EdmDateTime start, EdmDateTime expiry, Set<TablePermission> permissions) {
    /** Characters in a policy id. */
    public static final int MAX_ID_LENGTH = 64;
    /** Stored access policies one table may have. */
    public static final int MAX_PER_TABLE = 5;

    /** @throws IllegalArgumentException for an empty or over-long id */
    public AccessPolicy {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(permissions, "permissions");
        if (id.isEmpty() || id.length() > MAX_ID_LENGTH) {
            throw new IllegalArgumentException(
                    "A signed identifier must have 1 to " + MAX_ID_LENGTH + " characters, not " + id.length());
        }
        permissions = permissions.isEmpty()
                ? Collections.unmodifiableSet(EnumSet.noneOf(TablePermission.class))
                : Collections.unmodifiableSet(EnumSet.copyOf(permissions));
    }

    public static AccessPolicy of(String id, EdmDateTime start, EdmDateTime expiry, Set<TablePermission> permissions) {
        return new AccessPolicy(id, start, expiry, permissions);
    }

    /** The permissions as the service writes them, in canonical order (e.g. {@code "raud"}). */
    public String permissionSymbols() {
        return TablePermission.symbols(permissions);
    }
}
