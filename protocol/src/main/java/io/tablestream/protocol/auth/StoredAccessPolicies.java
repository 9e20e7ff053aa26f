package io.tablestream.protocol.auth;

import io.tablestream.core.model.AccessPolicy;
import io.tablestream.core.model.TableName;
import io.tablestream.core.registry.TableRegistry;
import java.util.Objects;
import java.util.Optional;

/** Finds the stored access policy a service SAS names with {@code si} (set with Set Table ACL). */
@FunctionalInterface
public interface StoredAccessPolicies {
    /** No table has any stored access policy. */
    StoredAccessPolicies NONE = (account, table, id) -> Optional.empty();

    /** The policy {@code id} of {@code table} in {@code account}, empty when there is none. */
    Optional<AccessPolicy> find(String account, TableName table, String id);

    /**
     * The policies of the active tables in {@code registry}, looked up on every request: a policy
     * removed or changed by Set Table ACL stops (or starts) working as soon as the registry shows
     * it, and the policies of a deleted table go with it.
     */
    static StoredAccessPolicies of(TableRegistry registry) {
        Objects.requireNonNull(registry, "registry");
        return (account, table, id) -> registry.byName(account, table).flatMap(t -> t.accessPolicy(id));
    }
}
