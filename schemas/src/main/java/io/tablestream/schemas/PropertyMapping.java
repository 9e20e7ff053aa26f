package io.tablestream.schemas;

import io.tablestream.core.model.EdmBinary;
import io.tablestream.core.model.EdmBoolean;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.EdmDouble;
import io.tablestream.core.model.EdmGuid;
import io.tablestream.core.model.EdmInt32;
import io.tablestream.core.model.EdmInt64;
import io.tablestream.core.model.EdmString;
import io.tablestream.core.model.EdmValue;
import io.tablestream.core.model.PropertyMap;
import io.tablestream.schemas.avro.DateTimeValue;
import io.tablestream.schemas.avro.Guid;
import io.tablestream.schemas.avro.Property;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Typed properties between core's {@link EdmValue} and the Avro {@link Property} union. */
final class PropertyMapping {
    private PropertyMapping() {
    }

    static List<Property> toAvro(Map<String, EdmValue> properties) {
        List<Property> out = new ArrayList<>(properties.size());
        for (Map.Entry<String, EdmValue> e : properties.entrySet()) {
            out.add(new Property(e.getKey(), toAvro(e.getValue())));
        }
        return out;
    }

    static Map<String, EdmValue> fromAvro(List<Property> properties) {
        PropertyMap.Builder out = PropertyMap.builder(properties.size());
        for (Property p : properties) {
            if (out.put(p.getName(), fromAvro(p.getValue())) != null) {
                throw new IllegalArgumentException("property '" + p.getName() + "' appears twice");
            }
        }
        return out.build();
    }

    static Object toAvro(EdmValue value) {
        return switch (value.type()) {
            case STRING -> ((EdmString) value).value();
            case BOOLEAN -> ((EdmBoolean) value).value();
            case INT32 -> ((EdmInt32) value).value();
            case INT64 -> ((EdmInt64) value).value();
            case DOUBLE -> ((EdmDouble) value).value();
            case BINARY -> ByteBuffer.wrap(((EdmBinary) value).toByteArray());
            case DATE_TIME -> new DateTimeValue(((EdmDateTime) value).epochTicks());
            case GUID -> {
                UUID u = ((EdmGuid) value).value();
                ByteBuffer b = ByteBuffer.allocate(16).putLong(u.getMostSignificantBits()).putLong(u.getLeastSignificantBits());
                yield new Guid(b.array());
            }
        };
    }

    static EdmValue fromAvro(Object value) {
        if (value instanceof CharSequence s) {
            return EdmString.of(s.toString());
        } else if (value instanceof Integer i) {
            return EdmInt32.of(i);
        } else if (value instanceof Long l) {
            return EdmInt64.of(l);
        } else if (value instanceof Double d) {
            return EdmDouble.of(d);
        } else if (value instanceof Boolean b) {
            return EdmBoolean.of(b);
        } else if (value instanceof ByteBuffer buf) {
            ByteBuffer dup = buf.duplicate();
            byte[] bytes = new byte[dup.remaining()];
            dup.get(bytes);
            return EdmBinary.of(bytes);
        } else if (value instanceof DateTimeValue dt) {
            return EdmDateTime.ofEpochTicks(dt.getEpochTicks());
        } else if (value instanceof Guid g) {
            ByteBuffer b = ByteBuffer.wrap(g.bytes());
            return EdmGuid.of(new UUID(b.getLong(), b.getLong()));
        }
        throw new IllegalArgumentException("not a property value: " + (value == null ? "null" : value.getClass().getName()));
    }

    static Long ticksOrNull(EdmDateTime t) {
        return t == null ? null : t.epochTicks();
    }

    static EdmDateTime dateTimeOrNull(Long ticks) {
        return ticks == null ? null : EdmDateTime.ofEpochTicks(ticks);
    }
}
