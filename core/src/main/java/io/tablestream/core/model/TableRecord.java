package io.tablestream.core.model;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A table as the registry knows it. Ids are never reused: a deleted table keeps its record with
 * state DELETED, and a table re-created under the same name gets a new id, so no old row can
 * reappear (nor an old stored access policy).
 *
 * @param deletedAt when it was deleted, {@code null} while active
 * @param defaultTtlSeconds the default time-to-live of its entities, {@code null} for none
 * @param accessPolicies its stored access policies (Set Table ACL), in the order they were set
 * @param historyRetentionSeconds how long every version of its entities is kept in the entity
 *     history, {@code null} for no history (see {@link io.tablestream.core.rules.History})
 * @param indexes its secondary indexes (an extension), in the order they were created
 */
public record TableRecord(String account, TableName name, long tableId, State state, EdmDateTime createdAt,
                          EdmDateTime deletedAt, Integer defaultTtlSeconds, List<AccessPolicy> accessPolicies,
                          Integer historyRetentionSeconds, List<IndexDefinition> indexes)
        implements RegistryRecord {

    public enum State { ACTIVE, DELETED }

    public TableRecord {
        Objects.requireNonNull(account, "account");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(createdAt, "createdAt");
        accessPolicies = List.copyOf(accessPolicies);
        indexes = List.copyOf(indexes);
    }

    /** A table without entity history or secondary indexes. */
    public TableRecord(String account, TableName name, long tableId, State state, EdmDateTime createdAt,
                       EdmDateTime deletedAt, Integer defaultTtlSeconds, List<AccessPolicy> accessPolicies) {
        this(account, name, tableId, state, createdAt, deletedAt, defaultTtlSeconds, accessPolicies, null, List.of());
    }

    /** A new table: active, without stored access policies, with entity history when {@code historyRetentionSeconds} is set. */
    public static TableRecord active(String account, TableName name, long tableId, EdmDateTime createdAt,
                                     Integer defaultTtlSeconds, Integer historyRetentionSeconds) {
        return new TableRecord(account, name, tableId, State.ACTIVE, createdAt, null, defaultTtlSeconds, List.of(),
                historyRetentionSeconds, List.of());
    }

    /** A new table: active, without stored access policies. */
    public static TableRecord active(String account, TableName name, long tableId, EdmDateTime createdAt,
                                     Integer defaultTtlSeconds) {
        return active(account, name, tableId, createdAt, defaultTtlSeconds, null);
    }

    public TableRecord deleted(EdmDateTime at) {
        return new TableRecord(account, name, tableId, State.DELETED, createdAt, at, defaultTtlSeconds, accessPolicies,
                historyRetentionSeconds, indexes);
    }

    /** This table with {@code policies} as its stored access policies (replacing the current ones). */
    public TableRecord withAccessPolicies(List<AccessPolicy> policies) {
        return new TableRecord(account, name, tableId, state, createdAt, deletedAt, defaultTtlSeconds, policies,
                historyRetentionSeconds, indexes);
    }

    /** This table with {@code newIndexes} as its secondary indexes. */
    public TableRecord withIndexes(List<IndexDefinition> newIndexes) {
        return new TableRecord(account, name, tableId, state, createdAt, deletedAt, defaultTtlSeconds, accessPolicies,
                historyRetentionSeconds, newIndexes);
    }

    /** The secondary index with this name (case-insensitive), if the table has one. */
    public Optional<IndexDefinition> index(String indexName) {
        for (IndexDefinition i : indexes) {
            if (i.named(indexName)) {
                return Optional.of(i);
            }
        }
        return Optional.empty();
    }

    /** The stored access policy with this id (ids are case-sensitive), if the table has one. */
    public Optional<AccessPolicy> accessPolicy(String id) {
        for (AccessPolicy p : accessPolicies) {
            if (p.id().equals(id)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /** Whether the table keeps the history of its entities. */
    public boolean keepsHistory() {
        return historyRetentionSeconds != null;
    }

    public boolean isActive() {
        return state == State.ACTIVE;
    }
}
