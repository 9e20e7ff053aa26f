package io.tablestream.core.command;

import io.tablestream.core.model.TableName;
import java.util.List;
import java.util.Objects;

/**
 * Entity writes on any PartitionKeys of one table whose commands share one partition of the log,
 * each applied on its own, in order (an extension: a bulk upsert is planned as one such command per
 * partition it touches, a bounded number of writes each). Not a transaction: a write that fails
 * (an insert of an entity that exists, an entity over a limit) fails alone, and the outcome names
 * it ({@link Outcome#operationFailures()}); the others apply. The command is keyed like its first
 * write's PartitionKey; every write's PartitionKey must belong on the same partition, which the
 * processor checks again.
 *
 * @param tableId the registry id of the table
 * @param tableName the table's name as the client wrote it
 */
public record BulkCommand(CommandHeader header, long tableId, TableName tableName, List<Write> writes)
        implements Command {
    /** Writes one command holds at most. */
    public static final int MAX_WRITES = 10_000;

    /** One entity write: its PartitionKey and the operation (type, RowKey, properties). */
    public record Write(String partitionKey, EntityOperation operation) {
        public Write {
            Objects.requireNonNull(partitionKey, "partitionKey");
            Objects.requireNonNull(operation, "operation");
        }
    }

    public BulkCommand {
        Objects.requireNonNull(header, "header");
        Objects.requireNonNull(tableName, "tableName");
        writes = List.copyOf(writes);
        if (writes.isEmpty()) {
            throw new IllegalArgumentException("a bulk command holds at least one write");
        }
    }

    /** Write {@code i} as a write of its own, as the rules and the decider take it. */
    public EntityCommand single(int i) {
        Write w = writes.get(i);
        return EntityCommand.single(header, tableId, tableName, w.partitionKey(), w.operation());
    }
}
