package io.tablestream.core.command;

import io.tablestream.core.model.TableName;
import java.util.Objects;

/**
 * Delete every entity of one PartitionKey of one table (an extension: the design guide's
 * high-volume delete pattern, in one command). Keyed like the PartitionKey's entity commands, so
 * the task that owns the PartitionKey decides it between them: from that point of its log the
 * partition's rows are invisible (its task keeps the deletion's Timestamp and every row written
 * at or before it counts as gone), they are swept in the background, and later writes to the
 * PartitionKey work as on an empty partition.
 *
 * @param tableId the registry id of the table
 * @param tableName the table's name as the client wrote it
 */
public record PartitionDeletion(CommandHeader header, long tableId, TableName tableName, String partitionKey)
        implements Command {
    public PartitionDeletion {
        Objects.requireNonNull(header, "header");
        Objects.requireNonNull(tableName, "tableName");
        Objects.requireNonNull(partitionKey, "partitionKey");
    }
}
