package io.tablestream.core.command;

import io.tablestream.core.model.EdmValue;
import io.tablestream.core.model.PropertyMap;
import java.util.Map;
import java.util.Objects;

/**
 * One entity operation: its type, the RowKey it acts on, the {@code If-Match} condition, and the
 * properties written (empty for DELETE).
 *
 * @param ifMatch an ETag, {@code *}, or {@code null} for no condition
 */
public record EntityOperation(Type type, String rowKey, String ifMatch, Map<String, EdmValue> properties) {

    /** The write operations of the Table service. */
    public enum Type {
        /** Insert Entity: fails with 409 if the entity exists. */
        INSERT,
        /** Update Entity: replace an existing entity (404 if missing, 412 if If-Match fails). */
        REPLACE,
        /** Merge Entity: merge into an existing entity (404 if missing, 412 if If-Match fails). */
        MERGE,
        /** Insert Or Replace Entity: upsert, replacing. */
        INSERT_OR_REPLACE,
        /** Insert Or Merge Entity: upsert, merging. */
        INSERT_OR_MERGE,
        /** Delete Entity (404 if missing, 412 if If-Match fails). */
        DELETE
    }

    public EntityOperation {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(rowKey, "rowKey");
        Objects.requireNonNull(properties, "properties");
        properties = PropertyMap.copyOf(properties);
    }

    public static EntityOperation of(Type type, String rowKey, String ifMatch, Map<String, EdmValue> properties) {
        return new EntityOperation(type, rowKey, ifMatch, properties);
    }

    public static EntityOperation delete(String rowKey, String ifMatch) {
        return new EntityOperation(Type.DELETE, rowKey, ifMatch, Map.of());
    }

    /** Whether this operation writes properties (all but DELETE). */
    public boolean writesProperties() {
        return type != Type.DELETE;
    }
}
