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
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;

/**
 * Avro's binary layout written by hand, for the records written once per write or change (commands,
 * change events): the same bytes Avro's writer produces for our schemas, without its per-value
 * union resolution. Strings, nullable fields (the union {@code ["null", T]}, branch 0 for null),
 * arrays written as one block, and the {@code Property} union of {@code Property.avsc}.
 */
final class AvroBinary {
    /** The marker {@code C3 01} and the 8-byte fingerprint: the single-object header. */
    static final int HEADER_LENGTH = 10;

    private AvroBinary() {
    }

    /** Avro's single-object header of {@code schema}: {@code C3 01} and its CRC-64-AVRO fingerprint, little-endian. */
    static byte[] header(Schema schema) {
        long fingerprint = SchemaNormalization.parsingFingerprint64(schema);
        byte[] h = new byte[HEADER_LENGTH];
        h[0] = (byte) 0xC3;
        h[1] = 0x01;
        for (int i = 0; i < 8; i++) {
            h[2 + i] = (byte) (fingerprint >>> (8 * i));
        }
        return h;
    }

    /** Avro's {@code bytes}: a zig-zag varint length, then the bytes. */
    static void bytes(ByteWriter w, byte[] b) {
        w.varlong(b.length);
        w.raw(b);
    }

    /** Avro's {@code string}: its UTF-8 as {@code bytes}. */
    static void string(ByteWriter w, String s) {
        bytes(w, s.getBytes(StandardCharsets.UTF_8));
    }

    static void nullableString(ByteWriter w, String s) {
        if (s == null) {
            w.varlong(0);
        } else {
            w.varlong(1);
            string(w, s);
        }
    }

    static void nullableLong(ByteWriter w, Long v) {
        if (v == null) {
            w.varlong(0);
        } else {
            w.varlong(1);
            w.varlong(v);
        }
    }

    static void bool(ByteWriter w, boolean b) {
        w.put((byte) (b ? 1 : 0));
    }

    /** An array of {@code Property} records: one block of them (none when empty), then the end. */
    static void properties(ByteWriter w, Map<String, EdmValue> properties) {
        if (!properties.isEmpty()) {
            w.varlong(properties.size());
            for (Map.Entry<String, EdmValue> p : properties.entrySet()) {
                string(w, p.getKey());
                value(w, p.getValue());
            }
        }
        w.varlong(0);
    }

    /** A property value: its union branch (the order of Property.avsc) and the value. */
    static void value(ByteWriter w, EdmValue v) {
        switch (v.type()) {
            case BOOLEAN -> {
                w.varlong(0);
                bool(w, ((EdmBoolean) v).value());
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
}
