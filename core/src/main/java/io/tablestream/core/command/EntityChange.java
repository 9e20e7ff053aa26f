package io.tablestream.core.command;

import io.tablestream.core.model.StoredEntity;
import java.util.Objects;

/**
 * One applied change to one entity: the fact the change feed publishes and the store applies.
 *
 * @param tableId the table's registry id
 * @param partitionKey the entity's PartitionKey
 * @param rowKey the entity's RowKey
 * @param newVersion the entity after the change, {@code null} when it was removed
 */
public record EntityChange(Type type, long tableId, String partitionKey, String rowKey, StoredEntity newVersion) {

    public enum Type { INSERTED, REPLACED, MERGED, DELETED, EXPIRED }

    public EntityChange {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(partitionKey, "partitionKey");
        Objects.requireNonNull(rowKey, "rowKey");
        if ((newVersion == null) != (type == Type.DELETED || type == Type.EXPIRED)) {
            throw new IllegalArgumentException(type + " must " + (newVersion == null ? "" : "not ") + "carry a new version");
        }
    }
}
