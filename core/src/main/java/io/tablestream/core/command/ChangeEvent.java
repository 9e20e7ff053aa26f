package io.tablestream.core.command;

import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.TableName;
import java.util.Objects;

/**
 * An entity change as the change feed publishes it: the change with where it happened, what
 * caused it, who, and when.
 *
 * @param commandId the command that caused it; {@code null} for an expiry
 * @param principal who issued that command; {@code null} if unknown
 */
public record ChangeEvent(String account, TableName tableName, EntityChange change, String commandId,
                          String principal, EdmDateTime changedAt) {
    public ChangeEvent {
        Objects.requireNonNull(account, "account");
        Objects.requireNonNull(tableName, "tableName");
        Objects.requireNonNull(change, "change");
        Objects.requireNonNull(changedAt, "changedAt");
    }
}
