package io.tablestream.core.rules;

import io.tablestream.core.model.EdmBinary;
import io.tablestream.core.model.EdmString;
import io.tablestream.core.model.EdmValue;
import io.tablestream.core.model.Entity;
import java.util.Map;

/**
 * An entity's size as the service measures it: 4 bytes, plus the two keys at 2 bytes a character,
 * plus for each property 8 bytes, its name at 2 bytes a character, and its value (a string at 2
 * bytes a character plus 4, a binary's length plus 4, 8 for Int64/Double/DateTime, 16 for Guid,
 * 4 for Int32, 1 for Boolean).
 */
public final class EntitySize {
    private EntitySize() {
    }

    public static long of(Entity entity) {
        return of(entity.partitionKey(), entity.rowKey(), entity.properties());
    }

    public static long of(String partitionKey, String rowKey, Map<String, EdmValue> properties) {
        long size = 4L + 2L * (partitionKey.length() + rowKey.length());
        for (Map.Entry<String, EdmValue> p : properties.entrySet()) {
            size += 8L + 2L * p.getKey().length() + valueSize(p.getValue());
        }
        return size;
    }

    /** The bytes a value counts for. */
    public static long valueSize(EdmValue value) {
        return switch (value.type()) {
            case STRING -> 2L * ((EdmString) value).value().length() + 4;
            case BINARY -> ((EdmBinary) value).length() + 4L;
            case INT64, DOUBLE, DATE_TIME -> 8;
            case GUID -> 16;
            case INT32 -> 4;
            case BOOLEAN -> 1;
        };
    }
}
