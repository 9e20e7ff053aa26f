package io.tablestream.core.rules;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.EdmInt32;
import io.tablestream.core.model.EdmValue;
import java.util.Map;

/**
 * Time-to-live of entities (a Tablestream extension): a table's default and a per-entity
 * {@code TTLInSeconds} property. The property is an ordinary, visible Int32 property; a positive
 * value expires the entity that many seconds after its last write, {@code -1} keeps it forever
 * even when the table has a default. Any other value is rejected.
 */
public final class TimeToLive {
    /** The per-entity property. */
    public static final String PROPERTY = "TTLInSeconds";
    /** The per-entity value meaning "never expires". */
    public static final int NEVER = -1;

    private TimeToLive() {
    }

    /** Throws {@code InvalidValueType} if the entity's TTLInSeconds is present and not a valid TTL. */
    public static void validate(Map<String, EdmValue> properties) {
        EdmValue v = properties.get(PROPERTY);
        if (v != null && !(v instanceof EdmInt32 i && (i.value() > 0 || i.value() == NEVER))) {
            throw TableServiceException.of(ErrorCode.INVALID_VALUE_TYPE,
                    "TTLInSeconds must be an Edm.Int32 greater than 0, or -1 for never.");
        }
    }

    /** Throws {@code InvalidInput} unless a table default TTL is absent or positive. */
    public static void validateTableDefault(Integer seconds) {
        if (seconds != null && seconds <= 0) {
            throw TableServiceException.of(ErrorCode.INVALID_INPUT,
                    "A table's default TTLInSeconds must be greater than 0.");
        }
    }

    /**
     * When an entity written at {@code writtenAt} expires, or {@code null} for never: its own
     * TTLInSeconds, else the table default.
     */
    public static EdmDateTime expiresAt(Map<String, EdmValue> properties, Integer tableDefaultSeconds,
                                        EdmDateTime writtenAt) {
        Integer seconds = tableDefaultSeconds;
        if (properties.get(PROPERTY) instanceof EdmInt32 i) {
            seconds = i.value() == NEVER ? null : i.value();
        }
        if (seconds == null) {
            return null;
        }
        long ticks = writtenAt.epochTicks() + seconds * EdmDateTime.TICKS_PER_SECOND;
        return EdmDateTime.ofEpochTicks(Math.min(ticks, EdmDateTime.MAX_EPOCH_TICKS));
    }
}
