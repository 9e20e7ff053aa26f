package io.tablestream.schemas;

import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.Entity;
import io.tablestream.core.model.StoredEntity;
import io.tablestream.schemas.avro.StoredEntityValue;

/**
 * The value format of the {@code entities} store: Timestamp, expiry and properties. The keys are
 * in the store key (see core's KeyCodec), so decoding takes them as arguments.
 */
public final class StoredEntityCodec {
    private static final AvroLogCodec<StoredEntityValue, StoredEntityValue> CODEC = AvroLogCodec.of(
            StoredEntityValue.getClassSchema(), v -> v, v -> v);

    private StoredEntityCodec() {
    }

    public static byte[] encode(StoredEntity stored) {
        Entity e = stored.entity();
        return CODEC.encode(new StoredEntityValue(e.timestamp().epochTicks(),
                PropertyMapping.ticksOrNull(stored.expiresAt()), PropertyMapping.toAvro(e.properties())));
    }

    public static StoredEntity decode(String partitionKey, String rowKey, byte[] bytes) {
        StoredEntityValue v = CODEC.decode(bytes);
        try {
            Entity entity = Entity.of(partitionKey, rowKey, PropertyMapping.fromAvro(v.getProperties()))
                    .withVersion(EdmDateTime.ofEpochTicks(v.getTimestampTicks()));
            return new StoredEntity(entity, PropertyMapping.dateTimeOrNull(v.getExpiresAtTicks()));
        } catch (RuntimeException e) {
            throw new LogFormatException("invalid stored entity: " + e.getMessage(), e);
        }
    }
}
