package io.tablestream.core.model;

import java.util.Objects;

/**
 * A table as the registry knows it. Ids are never reused: a deleted table keeps its record with
 * state DELETED, and a table re-created under the same name gets a new id, so no old row can
 * reappear.
 *
 * @param deletedAt when it was deleted, {@code null} while active
 * @param defaultTtlSeconds the default time-to-live of its entities, {@code null} for none
 */
public record TableRecord(String account, TableName name, long tableId, State state, EdmDateTime createdAt,
                          EdmDateTime deletedAt, Integer defaultTtlSeconds) {

    public enum State { ACTIVE, DELETED }

    public TableRecord {
        Objects.requireNonNull(account, "account");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(createdAt, "createdAt");
    }

    public static TableRecord active(String account, TableName name, long tableId, EdmDateTime createdAt,
                                     Integer defaultTtlSeconds) {
        return new TableRecord(account, name, tableId, State.ACTIVE, createdAt, null, defaultTtlSeconds);
    }

    public TableRecord deleted(EdmDateTime at) {
        return new TableRecord(account, name, tableId, State.DELETED, createdAt, at, defaultTtlSeconds);
    }

    public boolean isActive() {
        return state == State.ACTIVE;
    }
}
