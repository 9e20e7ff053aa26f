package io.tablestream.core.command;

import io.tablestream.core.model.AccessPolicy;
import io.tablestream.core.model.TableName;
import java.util.List;
import java.util.Objects;

/**
 * Create or delete a table, or set its stored access policies (Set Table ACL). Keyed in the log by
 * account and the lower-case name, so one task decides every command about a name.
 *
 * @param defaultTtlSeconds for CREATE, the table's default time-to-live of entities (null: none)
 * @param accessPolicies for SET_ACL, the policies that replace the table's current ones (empty:
 *     remove them all); empty for the other operations
 * @param historyRetentionSeconds for CREATE, how long the table keeps every version of its entities
 *     (null: no history)
 */
public record TableCommand(CommandHeader header, Operation operation, TableName tableName, Integer defaultTtlSeconds,
                           List<AccessPolicy> accessPolicies, Integer historyRetentionSeconds)
        implements Command {

    public enum Operation {
        /** Create Table: fails with TableAlreadyExists on an active name. */
        CREATE,
        /** Delete Table: fails with TableNotFound on a missing one. */
        DELETE,
        /** Set Table ACL: replaces the stored access policies of an active table (TableNotFound otherwise). */
        SET_ACL
    }

    public TableCommand {
        Objects.requireNonNull(header, "header");
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(tableName, "tableName");
        accessPolicies = List.copyOf(accessPolicies);
    }

    public TableCommand(CommandHeader header, Operation operation, TableName tableName, Integer defaultTtlSeconds,
                        List<AccessPolicy> accessPolicies) {
        this(header, operation, tableName, defaultTtlSeconds, accessPolicies, null);
    }

    public static TableCommand create(CommandHeader header, TableName name, Integer defaultTtlSeconds) {
        return create(header, name, defaultTtlSeconds, null);
    }

    public static TableCommand create(CommandHeader header, TableName name, Integer defaultTtlSeconds,
                                      Integer historyRetentionSeconds) {
        return new TableCommand(header, Operation.CREATE, name, defaultTtlSeconds, List.of(), historyRetentionSeconds);
    }

    public static TableCommand delete(CommandHeader header, TableName name) {
        return new TableCommand(header, Operation.DELETE, name, null, List.of());
    }

    /** Set Table ACL: {@code policies} replace the table's stored access policies, in this order. */
    public static TableCommand setAcl(CommandHeader header, TableName name, List<AccessPolicy> policies) {
        return new TableCommand(header, Operation.SET_ACL, name, null, policies);
    }
}
