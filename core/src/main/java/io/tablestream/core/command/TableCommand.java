package io.tablestream.core.command;

import io.tablestream.core.model.TableName;
import java.util.Objects;

/**
 * Create or delete a table. Keyed in the log by account and the lower-case name, so one task
 * decides every command about a name.
 *
 * @param defaultTtlSeconds for CREATE, the table's default time-to-live of entities (null: none)
 */
public record TableCommand(CommandHeader header, Operation operation, TableName tableName, Integer defaultTtlSeconds)
        implements Command {

    public enum Operation { CREATE, DELETE }

    public TableCommand {
        Objects.requireNonNull(header, "header");
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(tableName, "tableName");
    }

    public static TableCommand create(CommandHeader header, TableName name, Integer defaultTtlSeconds) {
        return new TableCommand(header, Operation.CREATE, name, defaultTtlSeconds);
    }

    public static TableCommand delete(CommandHeader header, TableName name) {
        return new TableCommand(header, Operation.DELETE, name, null);
    }
}
