package io.tablestream.core.model;

import java.util.Map;
import java.util.Objects;

/**
 * An entity: its keys, its custom properties, and, once stored, the Timestamp and ETag the
 * processor gave it. Properties keep their order; the system properties (PartitionKey, RowKey,
 * Timestamp) are never among {@link #properties()}.
 *
 * @param timestamp the server-assigned Timestamp, {@code null} for an entity not yet written
 * @param etag the ETag of this version, {@code null} for an entity not yet written
 */
public record Entity(String partitionKey, String rowKey, EdmDateTime timestamp, ETag etag,
                     Map<String, EdmValue> properties) {

    public Entity {
        Objects.requireNonNull(partitionKey, "partitionKey");
        Objects.requireNonNull(rowKey, "rowKey");
        Objects.requireNonNull(properties, "properties");
        properties = PropertyMap.copyOf(properties);
    }

    /** An entity as a client sends it: keys and properties, no version yet. */
    public static Entity of(String partitionKey, String rowKey, Map<String, EdmValue> properties) {
        return new Entity(partitionKey, rowKey, null, null, properties);
    }

    /** This entity as stored at {@code timestamp}, with the ETag that version gets. */
    public Entity withVersion(EdmDateTime timestamp) {
        return new Entity(partitionKey, rowKey, timestamp, ETag.forTimestamp(timestamp), properties);
    }

    /** This entity with other properties (keys and version kept). */
    public Entity withProperties(Map<String, EdmValue> newProperties) {
        return new Entity(partitionKey, rowKey, timestamp, etag, newProperties);
    }

    /** The property, or {@code null}. */
    public EdmValue property(String name) {
        return properties.get(name);
    }
}
