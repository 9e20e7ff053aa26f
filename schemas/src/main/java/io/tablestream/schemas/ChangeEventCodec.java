package io.tablestream.schemas;

import io.tablestream.core.command.ChangeEvent;
import io.tablestream.core.command.EntityChange;
import io.tablestream.core.model.EdmBinary;
import io.tablestream.core.model.EdmBoolean;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.EdmDouble;
import io.tablestream.core.model.EdmGuid;
import io.tablestream.core.model.EdmInt32;
import io.tablestream.core.model.EdmInt64;
import io.tablestream.core.model.EdmString;
import io.tablestream.core.model.EdmValue;
import io.tablestream.core.model.StoredEntity;
import io.tablestream.schemas.avro.EntityChanged;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;
import org.apache.avro.SchemaNormalization;

/**
 * The codec of change events: decoding is Avro's (so every schema version is read), encoding writes
 * the Avro single-object form of the current {@code EntityChanged} schema directly — the same
 * bytes Avro's writer produces (a test holds them equal), without its per-value union resolution,
 * since one event is written for every applied entity change.
 */
final class ChangeEventCodec implements LogCodec<ChangeEvent> {
    /** Avro's single-object marker and the current schema's fingerprint (little-endian). */
    private static final byte[] HEADER = header();

    private final LogCodec<ChangeEvent> avro;

    ChangeEventCodec(LogCodec<ChangeEvent> avro) {
        this.avro = avro;
    }

    @Override
    public ChangeEvent decode(byte[] bytes) {
        return avro.decode(bytes);
    }

    @Override
    public byte[] encode(ChangeEvent e) {
        EntityChange c = e.change();
        ByteWriter w = new ByteWriter(128 + (c.newVersion() == null ? 0 : 48 * c.newVersion().entity().properties().size()));
        w.raw(HEADER);
        w.varlong(c.type().ordinal()); // the enum's symbols are in the domain enum's order (a test checks)
        string(w, e.account());
        w.varlong(c.tableId());
        string(w, e.tableName().value());
        string(w, c.partitionKey());
        string(w, c.rowKey());
        StoredEntity version = c.newVersion();
        if (version == null) {
            w.varlong(0);
        } else {
            w.varlong(1);
            w.varlong(version.entity().timestamp().epochTicks());
            if (version.expiresAt() == null) {
                w.varlong(0);
            } else {
                w.varlong(1);
                w.varlong(version.expiresAt().epochTicks());
            }
            Map<String, EdmValue> properties = version.entity().properties();
            if (!properties.isEmpty()) {
                w.varlong(properties.size());
                for (Map.Entry<String, EdmValue> p : properties.entrySet()) {
                    string(w, p.getKey());
                    value(w, p.getValue());
                }
            }
            w.varlong(0); // end of the array
        }
        nullableString(w, e.commandId());
        nullableString(w, e.principal());
        w.varlong(e.changedAt().epochTicks());
        return w.toByteArray();
    }

    /** A property value: its union branch (the order of Property.avsc) and the value. */
    private static void value(ByteWriter w, EdmValue v) {
        switch (v.type()) {
            case BOOLEAN -> {
                w.varlong(0);
                w.put((byte) (((EdmBoolean) v).value() ? 1 : 0));
            }
            case INT32 -> {
                w.varlong(1);
                w.varlong(((EdmInt32) v).value());
            }
            case INT64 -> {
                w.varlong(2);
                w.varlong(((EdmInt64) v).value());
            }
            case DOUBLE -> {
                w.varlong(3);
                w.fixed64LittleEndian(Double.doubleToRawLongBits(((EdmDouble) v).value()));
            }
            case STRING -> {
                w.varlong(4);
                string(w, ((EdmString) v).value());
            }
            case BINARY -> {
                w.varlong(5);
                bytes(w, ((EdmBinary) v).toByteArray());
            }
            case DATE_TIME -> {
                w.varlong(6);
                w.varlong(((EdmDateTime) v).epochTicks());
            }
            case GUID -> {
                w.varlong(7);
                UUID u = ((EdmGuid) v).value();
                w.fixed64BigEndian(u.getMostSignificantBits());
                w.fixed64BigEndian(u.getLeastSignificantBits());
            }
        }
    }

    private static void nullableString(ByteWriter w, String s) {
        if (s == null) {
            w.varlong(0);
        } else {
            w.varlong(1);
            string(w, s);
        }
    }

    /** Avro's {@code bytes}: a zig-zag varint length, then the bytes. */
    private static void bytes(ByteWriter w, byte[] b) {
        w.varlong(b.length);
        w.raw(b);
    }

    /** Avro's {@code string}: its UTF-8 as {@code bytes}. */
    private static void string(ByteWriter w, String s) {
        bytes(w, s.getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] header() {
        long fingerprint = SchemaNormalization.parsingFingerprint64(EntityChanged.getClassSchema());
        byte[] h = new byte[10];
        h[0] = (byte) 0xC3;
        h[1] = 0x01;
        for (int i = 0; i < 8; i++) {
            h[2 + i] = (byte) (fingerprint >>> (8 * i));
        }
        return h;
    }
}
