package io.tablestream.protocol.auth;

import io.tablestream.core.model.AccessPolicy;
import io.tablestream.core.model.TableName;
import java.util.Optional;

/** Finds the stored access policy a service SAS names with {@code si} (set with Set Table ACL). */
@FunctionalInterface
public interface StoredAccessPolicies {
    /** No table has any stored access policy. */
    StoredAccessPolicies NONE = (account, table, id) -> Optional.empty();

    /** The policy {@code id} of {@code table} in {@code account}, empty when there is none. */
    Optional<AccessPolicy> find(String account, TableName table, String id);
}
