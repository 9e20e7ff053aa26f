package io.tablestream.core.command;

import io.tablestream.core.model.AccessPolicy;
import io.tablestream.core.model.IndexDefinition;
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
 * @param index for CREATE_INDEX the index to create, for DROP_INDEX the one to drop (by name); null
 *     for the other operations
 * @param indexes for CREATE, the secondary indexes the table starts with, with their ids (a restore's
 *     target takes its source's); empty for the other operations
 * @param job for CREATE, the restore job whose target the table is (its coordinator hears whether it
 *     was created), or null
 */
public record TableCommand(CommandHeader header, Operation operation, TableName tableName, Integer defaultTtlSeconds,
                           List<AccessPolicy> accessPolicies, Integer historyRetentionSeconds, IndexDefinition index,
                           List<IndexDefinition> indexes, String job)
        implements Command {

    public enum Operation {
        /** Create Table: fails with TableAlreadyExists on an active name. */
        CREATE,
        /** Delete Table: fails with TableNotFound on a missing one. */
        DELETE,
        /** Set Table ACL: replaces the stored access policies of an active table (TableNotFound otherwise). */
        SET_ACL,
        /** Create a secondary index (an extension): IndexAlreadyExists when the table has one of that name. */
        CREATE_INDEX,
        /** Drop a secondary index (an extension): IndexNotFound when the table has none of that name. */
        DROP_INDEX
    }

    public TableCommand {
        Objects.requireNonNull(header, "header");
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(tableName, "tableName");
        accessPolicies = List.copyOf(accessPolicies);
        indexes = List.copyOf(indexes);
        if ((operation == Operation.CREATE_INDEX || operation == Operation.DROP_INDEX) != (index != null)) {
            throw new IllegalArgumentException("an index operation, and only one, names an index");
        }
        if (operation != Operation.CREATE && (!indexes.isEmpty() || job != null)) {
            throw new IllegalArgumentException("only a create starts with indexes or belongs to a job");
        }
    }

    public TableCommand(CommandHeader header, Operation operation, TableName tableName, Integer defaultTtlSeconds,
                        List<AccessPolicy> accessPolicies, Integer historyRetentionSeconds, IndexDefinition index) {
        this(header, operation, tableName, defaultTtlSeconds, accessPolicies, historyRetentionSeconds, index,
                List.of(), null);
    }

    public TableCommand(CommandHeader header, Operation operation, TableName tableName, Integer defaultTtlSeconds,
                        List<AccessPolicy> accessPolicies) {
        this(header, operation, tableName, defaultTtlSeconds, accessPolicies, null, null);
    }

    public static TableCommand create(CommandHeader header, TableName name, Integer defaultTtlSeconds) {
        return create(header, name, defaultTtlSeconds, null);
    }

    public static TableCommand create(CommandHeader header, TableName name, Integer defaultTtlSeconds,
                                      Integer historyRetentionSeconds) {
        return new TableCommand(header, Operation.CREATE, name, defaultTtlSeconds, List.of(), historyRetentionSeconds, null);
    }

    /**
     * Create the target of restore job {@code jobId}: with the source's default TTL, history
     * retention and secondary indexes (ids kept: they are unique within the new table, whose own
     * later indexes get ids of later positions of the log).
     */
    public static TableCommand createRestored(CommandHeader header, TableName name, Integer defaultTtlSeconds,
                                              Integer historyRetentionSeconds, List<IndexDefinition> indexes,
                                              String jobId) {
        return new TableCommand(header, Operation.CREATE, name, defaultTtlSeconds, List.of(), historyRetentionSeconds,
                null, indexes, jobId);
    }

    public static TableCommand delete(CommandHeader header, TableName name) {
        return new TableCommand(header, Operation.DELETE, name, null, List.of());
    }

    /** Set Table ACL: {@code policies} replace the table's stored access policies, in this order. */
    public static TableCommand setAcl(CommandHeader header, TableName name, List<AccessPolicy> policies) {
        return new TableCommand(header, Operation.SET_ACL, name, null, policies);
    }

    /** Create a secondary index of the table (an extension). */
    public static TableCommand createIndex(CommandHeader header, TableName name, IndexDefinition index) {
        return new TableCommand(header, Operation.CREATE_INDEX, name, null, List.of(), null, index);
    }

    /** Drop the secondary index of the table with this name (an extension). */
    public static TableCommand dropIndex(CommandHeader header, TableName name, String indexName) {
        return new TableCommand(header, Operation.DROP_INDEX, name, null, List.of(), null,
                new IndexDefinition(indexName, "", 0));
    }
}
