package io.tablestream.core.model;

import java.util.Objects;

/**
 * The identity of an entity in a store: the id the table registry gave its table, its
 * PartitionKey and its RowKey. Ordered as queries return entities: by table, then PartitionKey,
 * then RowKey, each compared ordinally ({@link String#compareTo}).
 */
public record EntityKey(long tableId, String partitionKey, String rowKey) implements Comparable<EntityKey> {
    public EntityKey {
        if (tableId < 0) {
            throw new IllegalArgumentException("tableId must not be negative: " + tableId);
        }
        Objects.requireNonNull(partitionKey, "partitionKey");
        Objects.requireNonNull(rowKey, "rowKey");
    }

    public static EntityKey of(long tableId, String partitionKey, String rowKey) {
        return new EntityKey(tableId, partitionKey, rowKey);
    }

    @Override
    public int compareTo(EntityKey other) {
        int c = Long.compare(tableId, other.tableId);
        if (c != 0) {
            return c;
        }
        c = partitionKey.compareTo(other.partitionKey);
        return c != 0 ? c : rowKey.compareTo(other.rowKey);
    }
}
