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
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.IntFunction;

/**
 * Avro's binary layout read by hand, front to back, the reading side of {@link AvroBinary}. Strict:
 * any byte sequence Avro's reader would not read the same way (a varint too long, a length past the
 * end, a union branch or enum symbol out of range) throws {@link IllegalArgumentException}; a
 * caller then leaves the record to Avro's reader, so its errors stay Avro's.
 */
final class AvroReader {
    private final byte[] buf;
    private int pos;

    AvroReader(byte[] buf, int pos) {
        this.buf = buf;
        this.pos = pos;
    }

    /** Avro's {@code long}: a zig-zag varint of at most 10 bytes. */
    long readLong() {
        long raw = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            byte b = next();
            raw |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return (raw >>> 1) ^ -(raw & 1);
            }
        }
        throw new IllegalArgumentException("a long longer than 10 bytes");
    }

    /** Avro's {@code int}: a zig-zag varint of at most 5 bytes, within an int's range. */
    int readInt() {
        int start = pos;
        long v = readLong();
        if (pos - start > 5 || v != (int) v) {
            throw new IllegalArgumentException("an int out of range");
        }
        return (int) v;
    }

    boolean readBoolean() {
        return next() == 1;
    }

    /** A union branch or an enum symbol: an int in {@code [0, count)}. */
    int readIndex(int count) {
        int i = readInt();
        if (i < 0 || i >= count) {
            throw new IllegalArgumentException("branch " + i + " of " + count);
        }
        return i;
    }

    /** The null branch (0) or the value's (1) of a {@code ["null", T]} union: whether a value follows. */
    boolean readPresent() {
        return readIndex(2) == 1;
    }

    String readString() {
        int n = length();
        String s = new String(buf, pos, n, StandardCharsets.UTF_8);
        pos += n;
        return s;
    }

    String readNullableString() {
        return readPresent() ? readString() : null;
    }

    Long readNullableLong() {
        return readPresent() ? readLong() : null;
    }

    byte[] readBytes() {
        int n = length();
        byte[] b = Arrays.copyOfRange(buf, pos, pos + n);
        pos += n;
        return b;
    }

    /**
     * The item count of an array's next block (0 at its end). Negative counts (a block with its
     * size in bytes) are read as Avro reads them; a count that cannot fit in what is left is refused.
     */
    int readBlockCount() {
        long count = readLong();
        if (count < 0) {
            count = -count;
            readLong(); // the block's size in bytes
        }
        if (count > buf.length - pos) {
            throw new IllegalArgumentException("an array block of " + count + " items in " + (buf.length - pos)
                    + " bytes");
        }
        return (int) count;
    }

    /** An array, block by block, each item read by {@code item} (given the item's index). */
    <T> List<T> readArray(IntFunction<T> item) {
        int count = readBlockCount();
        List<T> out = new ArrayList<>(count);
        while (count > 0) {
            for (int i = 0; i < count; i++) {
                out.add(item.apply(out.size()));
            }
            count = readBlockCount();
        }
        return out;
    }

    /** An array of {@code Property} records, as PropertyMapping reads it from Avro's records. */
    Map<String, EdmValue> readProperties() {
        int count = readBlockCount();
        PropertyMap.Builder out = PropertyMap.builder(count);
        while (count > 0) {
            for (int i = 0; i < count; i++) {
                String name = readString();
                if (out.put(name, readValue()) != null) {
                    throw new IllegalArgumentException("property '" + name + "' appears twice");
                }
            }
            count = readBlockCount();
        }
        return out.build();
    }

    /** A property value, by its union branch (the order of Property.avsc). */
    EdmValue readValue() {
        return switch (readIndex(8)) {
            case 0 -> EdmBoolean.of(readBoolean());
            case 1 -> EdmInt32.of(readInt());
            case 2 -> EdmInt64.of(readLong());
            case 3 -> EdmDouble.of(Double.longBitsToDouble(fixed64LittleEndian()));
            case 4 -> EdmString.of(readString());
            case 5 -> EdmBinary.of(readBytes());
            case 6 -> EdmDateTime.ofEpochTicks(readLong());
            default -> EdmGuid.of(new UUID(fixed64BigEndian(), fixed64BigEndian()));
        };
    }

    private long fixed64LittleEndian() {
        need(8);
        long v = 0;
        for (int i = 7; i >= 0; i--) {
            v = (v << 8) | (buf[pos + i] & 0xFFL);
        }
        pos += 8;
        return v;
    }

    private long fixed64BigEndian() {
        need(8);
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (buf[pos + i] & 0xFFL);
        }
        pos += 8;
        return v;
    }

    private int length() {
        long n = readLong();
        if (n < 0 || n > buf.length - pos) {
            throw new IllegalArgumentException("a length of " + n + " with " + (buf.length - pos) + " bytes left");
        }
        return (int) n;
    }

    private byte next() {
        need(1);
        return buf[pos++];
    }

    private void need(int n) {
        if (buf.length - pos < n) {
            throw new IllegalArgumentException("the record ends early");
        }
    }
}
