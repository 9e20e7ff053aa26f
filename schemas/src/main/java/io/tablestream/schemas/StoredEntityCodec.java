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
import io.tablestream.core.model.Entity;
import io.tablestream.core.model.PropertyMap;
import io.tablestream.core.model.StoredEntity;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.UUID;

/**
 * The value format of the {@code entities} store: Timestamp, expiry and typed properties; the keys
 * are in the store key (see core's KeyCodec), so decoding takes them as arguments.
 *
 * <p>Internal, but it lives in changelog topics, so it is versioned by its first byte. Not Avro:
 * every write and every scanned row goes through it, and a direct binary layout costs a fraction
 * of Avro's union resolution. Layout (version 1): {@code 01}, Timestamp ticks (zig-zag varint),
 * expiry flag and ticks, property count, then per property: name (varint length + UTF-8), a type
 * tag, and the value — strings and binaries length-prefixed, Int32/Int64/DateTime as zig-zag
 * varints, Double as 8 bytes, Guid as 16 bytes, Boolean as one byte. Strings are well-formed
 * UTF-16 (the data-model rules refuse unpaired surrogates), so UTF-8 round-trips them exactly.
 */
public final class StoredEntityCodec {
    private static final byte VERSION = 1;
    private static final byte STRING = 1;
    private static final byte BOOLEAN = 2;
    private static final byte INT32 = 3;
    private static final byte INT64 = 4;
    private static final byte DOUBLE = 5;
    private static final byte BINARY = 6;
    private static final byte DATE_TIME = 7;
    private static final byte GUID = 8;

    private StoredEntityCodec() {
    }

    public static byte[] encode(StoredEntity stored) {
        Entity e = stored.entity();
        ByteWriter w = new ByteWriter(64 + 32 * e.properties().size());
        w.put(VERSION);
        w.varlong(e.timestamp().epochTicks());
        if (stored.expiresAt() == null) {
            w.put((byte) 0);
        } else {
            w.put((byte) 1);
            w.varlong(stored.expiresAt().epochTicks());
        }
        w.varint(e.properties().size());
        for (Map.Entry<String, EdmValue> p : e.properties().entrySet()) {
            string(w, p.getKey());
            EdmValue v = p.getValue();
            switch (v.type()) {
                case STRING -> {
                    w.put(STRING);
                    string(w, ((EdmString) v).value());
                }
                case BOOLEAN -> {
                    w.put(BOOLEAN);
                    w.put((byte) (((EdmBoolean) v).value() ? 1 : 0));
                }
                case INT32 -> {
                    w.put(INT32);
                    w.varlong(((EdmInt32) v).value());
                }
                case INT64 -> {
                    w.put(INT64);
                    w.varlong(((EdmInt64) v).value());
                }
                case DOUBLE -> {
                    w.put(DOUBLE);
                    w.fixed64BigEndian(Double.doubleToRawLongBits(((EdmDouble) v).value()));
                }
                case BINARY -> {
                    w.put(BINARY);
                    bytes(w, ((EdmBinary) v).toByteArray());
                }
                case DATE_TIME -> {
                    w.put(DATE_TIME);
                    w.varlong(((EdmDateTime) v).epochTicks());
                }
                case GUID -> {
                    w.put(GUID);
                    UUID u = ((EdmGuid) v).value();
                    w.fixed64BigEndian(u.getMostSignificantBits());
                    w.fixed64BigEndian(u.getLeastSignificantBits());
                }
            }
        }
        return w.toByteArray();
    }

    /** The stored entity at these keys; {@link LogFormatException} for bytes that are not one. */
    public static StoredEntity decode(String partitionKey, String rowKey, byte[] bytes) {
        try {
            Reader r = new Reader(bytes);
            byte version = r.get();
            if (version != VERSION) {
                throw new IllegalArgumentException("unknown stored-entity format " + version);
            }
            EdmDateTime timestamp = EdmDateTime.ofEpochTicks(r.varlong());
            EdmDateTime expiresAt = r.get() == 0 ? null : EdmDateTime.ofEpochTicks(r.varlong());
            int count = r.varint();
            if (count < 0 || count > bytes.length) {
                throw new IllegalArgumentException("bad property count " + count);
            }
            PropertyMap.Builder properties = PropertyMap.builder(count);
            for (int i = 0; i < count; i++) {
                String name = r.string();
                byte type = r.get();
                EdmValue value = switch (type) {
                    case STRING -> EdmString.of(r.string());
                    case BOOLEAN -> EdmBoolean.of(r.get() != 0);
                    case INT32 -> EdmInt32.of(Math.toIntExact(r.varlong()));
                    case INT64 -> EdmInt64.of(r.varlong());
                    case DOUBLE -> EdmDouble.of(Double.longBitsToDouble(r.fixed64()));
                    case BINARY -> EdmBinary.of(r.bytes());
                    case DATE_TIME -> EdmDateTime.ofEpochTicks(r.varlong());
                    case GUID -> EdmGuid.of(new UUID(r.fixed64(), r.fixed64()));
                    default -> throw new IllegalArgumentException("unknown type tag " + type);
                };
                if (properties.put(name, value) != null) {
                    throw new IllegalArgumentException("property '" + name + "' appears twice");
                }
            }
            if (!r.atEnd()) {
                throw new IllegalArgumentException("trailing bytes");
            }
            Entity entity = Entity.of(partitionKey, rowKey, properties.build()).withVersion(timestamp);
            return new StoredEntity(entity, expiresAt);
        } catch (RuntimeException e) {
            throw new LogFormatException("invalid stored entity: " + e.getMessage(), e);
        }
    }

    /** A length-prefixed value: an unsigned varint length, then the bytes. */
    private static void bytes(ByteWriter w, byte[] b) {
        w.varint(b.length);
        w.raw(b);
    }

    private static void string(ByteWriter w, String s) {
        bytes(w, s.getBytes(StandardCharsets.UTF_8));
    }

    private static final class Reader {
        private final byte[] buf;
        private int pos;

        Reader(byte[] buf) {
            this.buf = buf;
        }

        boolean atEnd() {
            return pos == buf.length;
        }

        byte get() {
            if (pos >= buf.length) {
                throw new IllegalArgumentException("truncated");
            }
            return buf[pos++];
        }

        int varint() {
            int v = 0;
            for (int shift = 0; shift < 35; shift += 7) {
                byte b = get();
                v |= (b & 0x7F) << shift;
                if (b >= 0) {
                    return v;
                }
            }
            throw new IllegalArgumentException("overlong varint");
        }

        long varlong() {
            long z = 0;
            for (int shift = 0; shift < 70; shift += 7) {
                byte b = get();
                z |= (long) (b & 0x7F) << shift;
                if (b >= 0) {
                    return (z >>> 1) ^ -(z & 1);
                }
            }
            throw new IllegalArgumentException("overlong varlong");
        }

        long fixed64() {
            long v = 0;
            for (int i = 0; i < 8; i++) {
                v = (v << 8) | (get() & 0xFF);
            }
            return v;
        }

        byte[] bytes() {
            int n = varint();
            if (n < 0 || n > buf.length - pos) {
                throw new IllegalArgumentException("truncated");
            }
            byte[] b = Arrays.copyOfRange(buf, pos, pos + n);
            pos += n;
            return b;
        }

        String string() {
            int n = varint();
            if (n < 0 || n > buf.length - pos) {
                throw new IllegalArgumentException("truncated");
            }
            String s = new String(buf, pos, n, StandardCharsets.UTF_8);
            pos += n;
            return s;
        }
    }
}
