package io.tablestream.core.command;

import io.tablestream.core.model.StoredEntity;
import java.util.Objects;

/**
 * One applied change to one entity: the fact the change feed publishes and the store applies. Two
 * kinds are not of one entity and carry an empty RowKey: {@link Type#PARTITION_DELETED} (every
 * entity of the PartitionKey written before it is gone) and {@link Type#TABLE_DELETED} (the table
 * is gone; its PartitionKey is empty too).
 *
 * @param tableId the table's registry id
 * @param partitionKey the entity's PartitionKey
 * @param rowKey the entity's RowKey
 * @param newVersion the entity after the change, {@code null} when it was removed
 */
public record EntityChange(Type type, long tableId, String partitionKey, String rowKey, StoredEntity newVersion) {

    public enum Type {
        INSERTED, REPLACED, MERGED, DELETED, EXPIRED, PARTITION_DELETED, TABLE_DELETED;

        /** Whether the change leaves no version behind (the entity, or every entity it covers, is gone). */
        public boolean removes() {
            return this != INSERTED && this != REPLACED && this != MERGED;
        }

        /** Whether the change is of a whole partition or table rather than of one entity. */
        public boolean wholesale() {
            return this == PARTITION_DELETED || this == TABLE_DELETED;
        }
    }

    public EntityChange {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(partitionKey, "partitionKey");
        Objects.requireNonNull(rowKey, "rowKey");
        if ((newVersion == null) != type.removes()) {
            throw new IllegalArgumentException(type + " must " + (newVersion == null ? "" : "not ") + "carry a new version");
        }
        if (type.wholesale() && !rowKey.isEmpty()) {
            throw new IllegalArgumentException(type + " names no RowKey");
        }
    }

    /** Every entity of {@code partitionKey} in table {@code tableId} written up to now is deleted. */
    public static EntityChange partitionDeleted(long tableId, String partitionKey) {
        return new EntityChange(Type.PARTITION_DELETED, tableId, partitionKey, "", null);
    }

    /** Table {@code tableId} is deleted. */
    public static EntityChange tableDeleted(long tableId) {
        return new EntityChange(Type.TABLE_DELETED, tableId, "", "", null);
    }
}
