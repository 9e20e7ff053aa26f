package io.tablestream.core.rules;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.model.EdmBinary;
import io.tablestream.core.model.EdmString;
import io.tablestream.core.model.EdmValue;
import io.tablestream.core.model.Entity;
import java.util.Map;

/**
 * The data-model rules an entity must satisfy before it is written: valid keys, valid property
 * names, at most 252 custom properties, values within 64 KiB, and the whole within 1 MiB. The
 * ingest side checks them to answer fast; the processor checks them again because the command
 * topic is a public interface.
 */
public final class EntityRules {
    private EntityRules() {
    }

    /** Throws the service's error for the first rule {@code entity} breaks. */
    public static void validate(Entity entity) {
        Keys.validatePartitionKey(entity.partitionKey());
        Keys.validateRowKey(entity.rowKey());
        validateProperties(entity.properties());
        long size = EntitySize.of(entity);
        if (size > Limits.MAX_ENTITY_BYTES) {
            throw TableServiceException.of(ErrorCode.ENTITY_TOO_LARGE,
                    "The entity is " + size + " bytes; at most " + Limits.MAX_ENTITY_BYTES + " are permitted.");
        }
    }

    /** Names, count and value sizes of custom properties. */
    public static void validateProperties(Map<String, EdmValue> properties) {
        if (properties.size() > Limits.MAX_CUSTOM_PROPERTIES) {
            throw TableServiceException.of(ErrorCode.TOO_MANY_PROPERTIES,
                    "The entity has " + (properties.size() + 3) + " properties; at most "
                            + Limits.MAX_PROPERTIES + " are permitted, the 3 system properties included.");
        }
        for (Map.Entry<String, EdmValue> p : properties.entrySet()) {
            PropertyNames.validateCustom(p.getKey());
            validateValue(p.getKey(), p.getValue());
        }
    }

    /** A string or binary value may hold at most 64 KiB; a string must be well-formed UTF-16. */
    public static void validateValue(String name, EdmValue value) {
        long bytes = 0;
        if (value instanceof EdmString s) {
            bytes = 2L * s.value().length();
            if (bytes <= Limits.MAX_VALUE_BYTES && Keys.hasUnpairedSurrogate(s.value())) {
                throw TableServiceException.of(ErrorCode.INVALID_INPUT,
                        "The value of property '" + name + "' holds an unpaired UTF-16 surrogate.");
            }
        } else if (value instanceof EdmBinary b) {
            bytes = b.length();
        }
        if (bytes > Limits.MAX_VALUE_BYTES) {
            throw TableServiceException.of(ErrorCode.PROPERTY_VALUE_TOO_LARGE,
                    "The value of property '" + name + "' is " + bytes + " bytes; at most "
                            + Limits.MAX_VALUE_BYTES + " are permitted.");
        }
    }
}
