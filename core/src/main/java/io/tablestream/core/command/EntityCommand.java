package io.tablestream.core.command;

import io.tablestream.core.model.TableName;
import java.util.List;
import java.util.Objects;

/**
 * Entity operations on one PartitionKey of one table, applied all or none by the task that owns
 * the PartitionKey. A single write has one operation; a {@code $batch} change set has up to 100.
 *
 * @param tableId the registry id of the table (entity keys begin with it)
 * @param tableName the table's name as the client wrote it (for messages and the change feed)
 * @param batch whether the operations came as a change set (errors then name the failing index)
 * @param transaction the cross-partition transaction this is a part of, or null
 * @param job the job that wrote it (a restore's copy of entities), or null: its owner answers nobody
 *     and reports a failure to the job's coordinator
 */
public record EntityCommand(CommandHeader header, long tableId, TableName tableName, String partitionKey,
                            List<EntityOperation> operations, boolean batch, TransactionRef transaction, String job)
        implements Command {
    public EntityCommand {
        Objects.requireNonNull(header, "header");
        Objects.requireNonNull(tableName, "tableName");
        Objects.requireNonNull(partitionKey, "partitionKey");
        operations = List.copyOf(operations);
    }

    public EntityCommand(CommandHeader header, long tableId, TableName tableName, String partitionKey,
                         List<EntityOperation> operations, boolean batch) {
        this(header, tableId, tableName, partitionKey, operations, batch, null, null);
    }

    /** A change set that is part {@code part} of the cross-partition transaction {@code transactionId}. */
    public static EntityCommand part(CommandHeader header, long tableId, TableName tableName, String partitionKey,
                                     List<EntityOperation> operations, String transactionId, int part) {
        return new EntityCommand(header, tableId, tableName, partitionKey, operations, true,
                new TransactionRef(transactionId, part), null);
    }

    /** A change set written by job {@code jobId} (a restore's copies of entities). */
    public static EntityCommand ofJob(CommandHeader header, long tableId, TableName tableName, String partitionKey,
                                      List<EntityOperation> operations, String jobId) {
        return new EntityCommand(header, tableId, tableName, partitionKey, operations, true, null, jobId);
    }

    public static EntityCommand single(CommandHeader header, long tableId, TableName tableName, String partitionKey,
                                       EntityOperation operation) {
        return new EntityCommand(header, tableId, tableName, partitionKey, List.of(operation), false);
    }

    public static EntityCommand batch(CommandHeader header, long tableId, TableName tableName, String partitionKey,
                                      List<EntityOperation> operations) {
        return new EntityCommand(header, tableId, tableName, partitionKey, operations, true);
    }
}
