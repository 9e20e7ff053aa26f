package io.tablestream.core.storekey;

import io.tablestream.core.filter.IndexCondition;
import io.tablestream.core.model.EdmBoolean;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.EdmDouble;
import io.tablestream.core.model.EdmGuid;
import io.tablestream.core.model.EdmInt32;
import io.tablestream.core.model.EdmInt64;
import io.tablestream.core.model.EdmString;
import io.tablestream.core.model.EdmType;
import io.tablestream.core.model.EdmValue;
import io.tablestream.core.model.EntityKey;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Keys of secondary-index entries: {@code tableId (8) | indexId (8) | type (1) | value | entity key}
 * where the entity key is {@link KeyCodec}'s. Within one type the value bytes sort as
 * {@code $filter} orders the values, and are prefix-free, so the entries of one value form one
 * contiguous range ordered by (PartitionKey, RowKey), and a value range is one byte range:
 * <ul>
 * <li>String: each UTF-16 code unit as in the key codec (CESU-8), U+0000 and U+0001 escaped as
 *     {@code 01 01} and {@code 01 02}, then a {@code 00} terminator;</li>
 * <li>Int32, Int64, DateTime (ticks): big-endian with the sign bit flipped;</li>
 * <li>Double: the IEEE bits, sign flipped for positives and all bits inverted for negatives, -0.0
 *     written as 0.0 (they compare equal); NaN sorts last (no constant is NaN, so it is found only by
 *     open ranges, and the filter itself then rejects it);</li>
 * <li>Boolean: one byte; Guid: the 16 bytes, most significant first (the order of its text).</li>
 * </ul>
 * Binary values are not indexed.
 */
public final class IndexKeys {
    /** Bytes of the table and index ids at the start of every entry. */
    static final int IDS_BYTES = 2 * Long.BYTES;

    private IndexKeys() {
    }

    /** Whether a value of this type gets an index entry. */
    public static boolean indexes(EdmType type) {
        return type != EdmType.BINARY;
    }

    /** The entry for {@code value} of {@code key}'s entity, in index {@code indexId}. */
    public static byte[] entry(long indexId, EdmValue value, EntityKey key) {
        byte[] prefix = valuePrefix(key.tableId(), indexId, value);
        byte[] entity = KeyCodec.encode(key);
        byte[] out = Arrays.copyOf(prefix, prefix.length + entity.length);
        System.arraycopy(entity, 0, out, prefix.length, entity.length);
        return out;
    }

    /** The entity an entry points at. */
    public static EntityKey entityOf(byte[] entry) {
        return KeyCodec.decode(Arrays.copyOfRange(entry, valueEnd(entry), entry.length));
    }

    /**
     * Where the value of an entry ends (and its entity key begins).
     *
     * @throws IllegalArgumentException when the bytes after the ids are not a type tag and a value
     */
    static int valueEnd(byte[] entry) {
        int pos = IDS_BYTES;
        if (entry.length <= pos || entry[pos] < 1 || entry[pos] > EdmType.values().length) {
            throw new IllegalArgumentException("no type tag after the ids");
        }
        EdmType type = typeOf(entry[pos++]);
        int end = switch (type) {
            case STRING -> {
                int i = pos;
                while (i < entry.length && entry[i] != 0) {
                    i++;
                }
                yield i + 1;
            }
            case INT32 -> pos + Integer.BYTES;
            case INT64, DATE_TIME, DOUBLE -> pos + Long.BYTES;
            case BOOLEAN -> pos + 1;
            case GUID -> pos + 2 * Long.BYTES;
            case BINARY -> throw new IllegalArgumentException("Binary values are not indexed");
        };
        if (end > entry.length) {
            throw new IllegalArgumentException("the value is cut short");
        }
        return end;
    }

    /**
     * Whether {@code entry} is the entry of the entity {@code key}'s current {@code value} (null: the
     * entity lacks the property) in index {@code indexId}, and not a stale one.
     */
    public static boolean isEntryOf(byte[] entry, long indexId, EdmValue value, EntityKey key) {
        return value != null && indexes(value.type()) && Arrays.equals(entry, entry(indexId, value, key));
    }

    /**
     * Every entry of index {@code indexId} of table {@code tableId} whose value satisfies
     * {@code condition}, or every entry of the index when there is none: what a read in the
     * index's order covers.
     */
    public static ByteRange ordered(long tableId, long indexId, IndexCondition condition) {
        return condition == null ? index(tableId, indexId) : range(tableId, indexId, condition);
    }

    /** Every entry of one index (to sweep it once dropped). */
    public static ByteRange index(long tableId, long indexId) {
        byte[] prefix = ids(tableId, indexId);
        return new ByteRange(prefix, KeyCodec.successor(prefix));
    }

    /** Every entry of every index of one table (to sweep them once the table is deleted). */
    public static ByteRange table(long tableId) {
        return KeyCodec.table(tableId);
    }

    /** The entries whose value satisfies {@code condition}, in (value, PartitionKey, RowKey) order. */
    public static ByteRange range(long tableId, long indexId, IndexCondition condition) {
        byte[] typePrefix = Arrays.copyOf(ids(tableId, indexId), IDS_BYTES + 1);
        typePrefix[IDS_BYTES] = tag(condition.type());
        byte[] from = condition.lower() == null ? typePrefix
                : condition.lowerInclusive() ? valuePrefix(tableId, indexId, condition.lower())
                : KeyCodec.successor(valuePrefix(tableId, indexId, condition.lower()));
        byte[] to = condition.upper() == null ? KeyCodec.successor(typePrefix)
                : condition.upperInclusive() ? KeyCodec.successor(valuePrefix(tableId, indexId, condition.upper()))
                : valuePrefix(tableId, indexId, condition.upper());
        return Arrays.compareUnsigned(from, to) < 0 ? new ByteRange(from, to) : new ByteRange(from, from);
    }

    /**
     * The entries of one {@code value} whose entities lie in {@code entities} (a range of
     * {@link KeyCodec} keys of the same table): a point lookup that honours key bounds and a resume
     * point, in (PartitionKey, RowKey) order.
     */
    public static ByteRange range(long tableId, long indexId, EdmValue value, ByteRange entities) {
        byte[] prefix = valuePrefix(tableId, indexId, value);
        return new ByteRange(concat(prefix, entities.fromInclusive()), concat(prefix, entities.toExclusive()));
    }

    private static byte[] valuePrefix(long tableId, long indexId, EdmValue value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(IDS_BYTES + 16);
        out.writeBytes(ids(tableId, indexId));
        out.write(tag(value.type()));
        switch (value.type()) {
            case STRING -> {
                String s = ((EdmString) value).value();
                for (int i = 0; i < s.length(); i++) {
                    char c = s.charAt(i);
                    if (c <= 1) {
                        out.write(1);
                        out.write(c + 1);
                    } else {
                        out.writeBytes(Cesu8.encode(String.valueOf(c)));
                    }
                }
                out.write(0);
            }
            case INT32 -> out.writeBytes(ByteBuffer.allocate(Integer.BYTES)
                    .putInt(((EdmInt32) value).value() ^ Integer.MIN_VALUE).array());
            case INT64 -> out.writeBytes(longBytes(((EdmInt64) value).value() ^ Long.MIN_VALUE));
            case DATE_TIME -> out.writeBytes(longBytes(((EdmDateTime) value).epochTicks() ^ Long.MIN_VALUE));
            case DOUBLE -> {
                double d = ((EdmDouble) value).value();
                long bits = Double.doubleToLongBits(d == 0.0 ? 0.0 : d);
                out.writeBytes(longBytes(bits < 0 ? ~bits : bits ^ Long.MIN_VALUE));
            }
            case BOOLEAN -> out.write(((EdmBoolean) value).value() ? 1 : 0);
            case GUID -> {
                EdmGuid g = (EdmGuid) value;
                out.writeBytes(longBytes(g.value().getMostSignificantBits()));
                out.writeBytes(longBytes(g.value().getLeastSignificantBits()));
            }
            case BINARY -> throw new IllegalArgumentException("Binary values are not indexed");
        }
        return out.toByteArray();
    }

    static byte[] ids(long tableId, long indexId) {
        return ByteBuffer.allocate(IDS_BYTES).putLong(tableId).putLong(indexId).array();
    }

    private static byte[] longBytes(long v) {
        return ByteBuffer.allocate(Long.BYTES).putLong(v).array();
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static byte tag(EdmType type) {
        return (byte) (type.ordinal() + 1);
    }

    private static EdmType typeOf(byte tag) {
        return EdmType.values()[tag - 1];
    }
}
