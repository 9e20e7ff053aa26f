package io.tablestream.core.odata;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.model.EdmValue;
import io.tablestream.core.model.Entity;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * An entity as a request body carries it, parsed and typed but not yet checked against the data-model
 * rules ({@link io.tablestream.core.rules.EntityRules} does that).
 *
 * @param partitionKey the body's PartitionKey, {@code null} when absent or null (update operations take
 *                     their keys from the URL)
 * @param rowKey the body's RowKey, {@code null} when absent or null
 * @param properties the custom properties in body order; null values are not here (the service does not
 *                   store nulls), nor are PartitionKey, RowKey, Timestamp or {@code odata.*} members
 */
public record EntityBody(String partitionKey, String rowKey, Map<String, EdmValue> properties) {

    public EntityBody {
        Objects.requireNonNull(properties, "properties");
        properties = Collections.unmodifiableMap(new LinkedHashMap<>(properties));
    }

    /** The entity these properties make under the given keys (typically the URL's). */
    public Entity toEntity(String partitionKey, String rowKey) {
        if (partitionKey == null || rowKey == null) {
            throw missingKeys();
        }
        return Entity.of(partitionKey, rowKey, properties);
    }

    /** The entity under the body's own keys; {@code PropertiesNeedValue} when either is missing (as on Insert Entity). */
    public Entity toEntity() {
        return toEntity(partitionKey, rowKey);
    }

    private static TableServiceException missingKeys() {
        return TableServiceException.of(ErrorCode.PROPERTIES_NEED_VALUE,
                "The entity needs both a PartitionKey and a RowKey.");
    }
}
