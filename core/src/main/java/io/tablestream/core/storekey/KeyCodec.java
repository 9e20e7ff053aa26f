package io.tablestream.core.storekey;

import io.tablestream.core.filter.KeyRange;
import io.tablestream.core.filter.StringRange;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.EntityKey;
import java.util.Arrays;

/**
 * The store key of an entity, laid out so that RocksDB's unsigned byte order is the order the
 * Table service returns entities in:
 *
 * <pre>
 *   tableId (8 bytes, big-endian)  cesu8(PartitionKey)  0x00  cesu8(RowKey)  0x00
 * </pre>
 *
 * <p><b>Why the order holds.</b> {@link Cesu8} maps each UTF-16 code unit to a byte sequence;
 * those sequences are prefix-free (the lead byte fixes the length) and increase with the code
 * unit (1-byte leads 0x01..0x7F &lt; 2-byte leads 0xC2..0xDF &lt; 3-byte leads 0xE0..0xEF, and
 * within one length the bits are written most significant first). So two strings compare, byte
 * for byte, as they compare code unit for code unit; surrogates being encoded on their own is what
 * keeps U+D800..U+DFFF below U+E000..U+FFFF as {@link String#compareTo} has it (UTF-8 would not).
 * No valid key holds U+0000, so no encoded key byte is 0x00 and the terminator sorts below every
 * character: "a" (61 00) &lt; "ab" (61 62 00). The terminator also makes each encoded key
 * prefix-free, so comparing {@code pk1 00 rk1 00} with {@code pk2 00 rk2 00} is decided inside
 * the PartitionKeys unless they are equal, and only then by the RowKeys. The table id, a
 * non-negative long, sorts as an unsigned big-endian number, and comes first.
 *
 * <p><b>Ranges.</b> Every key beginning with {@code cesu8(s) 00} has the key {@code s}; every
 * key at or after {@code cesu8(s) 01} has a key greater than {@code s}, and no key lies between
 * them that has neither. So "from s inclusive" starts at {@code s 00}, "from s exclusive" and "to s
 * inclusive" at {@code s 01}, "to s exclusive" at {@code s 00}; a bound holding U+0000 (it can
 * come from a {@code $filter}, never from a key) is cut there, as no valid key can fall between it
 * and its cut-off prefix. Hence a table, a partition, a range of partitions and a range of
 * RowKeys in one partition are each one contiguous {@link ByteRange}.
 *
 * <p>ASCII costs one byte a character, U+0080..U+07FF two, the rest three. Any string without
 * U+0000 can be encoded and keeps its order (the argument above needs nothing else); callers
 * validate keys with {@link io.tablestream.core.rules.Keys} before writing them.
 */
public final class KeyCodec {
    /** Bytes of the table id at the start of every key. */
    public static final int TABLE_ID_BYTES = Long.BYTES;

    private static final byte TERMINATOR = 0x00;
    private static final byte PAST = 0x01;

    private KeyCodec() {
    }

    /**
     * The store key of an entity.
     *
     * @throws IllegalArgumentException when {@code tableId} is negative or a key holds U+0000
     */
    public static byte[] encode(long tableId, String partitionKey, String rowKey) {
        checkTableId(tableId);
        requireNoNul("PartitionKey", partitionKey);
        requireNoNul("RowKey", rowKey);
        byte[] out = new byte[TABLE_ID_BYTES + Cesu8.encodedLength(partitionKey) + 1
                + Cesu8.encodedLength(rowKey) + 1];
        putTableId(out, tableId);
        int pos = Cesu8.encode(partitionKey, out, TABLE_ID_BYTES);
        out[pos++] = TERMINATOR;
        pos = Cesu8.encode(rowKey, out, pos);
        out[pos] = TERMINATOR;
        return out;
    }

    public static byte[] encode(EntityKey key) {
        return encode(key.tableId(), key.partitionKey(), key.rowKey());
    }

    /**
     * The entity key a store key encodes.
     *
     * @throws IllegalArgumentException when {@code key} is not exactly the encoding of one
     */
    public static EntityKey decode(byte[] key) {
        long tableId = tableId(key);
        if (tableId < 0) {
            throw new IllegalArgumentException("negative table id in key");
        }
        int pkEnd = indexOfTerminator(key, TABLE_ID_BYTES);
        int rkEnd = pkEnd < 0 ? -1 : indexOfTerminator(key, pkEnd + 1);
        if (rkEnd < 0 || rkEnd != key.length - 1) {
            throw new IllegalArgumentException("not an entity key: expected exactly two terminators after the table id");
        }
        return new EntityKey(tableId, Cesu8.decode(key, TABLE_ID_BYTES, pkEnd), Cesu8.decode(key, pkEnd + 1, rkEnd));
    }

    /** The table id at the start of a store key, without decoding the rest. */
    public static long tableId(byte[] key) {
        if (key.length < TABLE_ID_BYTES) {
            throw new IllegalArgumentException("key shorter than a table id: " + key.length + " bytes");
        }
        long id = 0;
        for (int i = 0; i < TABLE_ID_BYTES; i++) {
            id = (id << 8) | (key[i] & 0xFF);
        }
        return id;
    }

    /** Every key of one table (to scan it, or to sweep it after the table is deleted). */
    public static ByteRange table(long tableId) {
        byte[] prefix = tablePrefix(tableId);
        return new ByteRange(prefix, successor(prefix));
    }

    /** Every key of one partition of one table. */
    public static ByteRange partition(long tableId, String partitionKey) {
        return range(tableId, KeyRange.partition(partitionKey, StringRange.ALL));
    }

    /** Exactly the keys of table {@code tableId} that {@code keys} admits, as one byte range. */
    public static ByteRange range(long tableId, KeyRange keys) {
        byte[] table = tablePrefix(tableId);
        return switch (keys.kind()) {
            case EMPTY -> new ByteRange(table, table);
            case TABLE_SCAN -> new ByteRange(table, successor(table));
            case PARTITION_RANGE -> between(table, keys.partitionKeys());
            case PARTITION, POINT -> {
                String partitionKey = keys.singlePartitionKey();
                yield partitionKey.indexOf('\0') >= 0
                        ? new ByteRange(table, table) // no valid key is this PartitionKey
                        : between(withString(table, partitionKey, TERMINATOR), keys.rowKeys());
            }
        };
    }

    /**
     * The smallest store key of table {@code tableId} whose (PartitionKey, RowKey) is at or after
     * the given pair: where a scan resumes from a continuation point. For a valid key this is its
     * own encoding; the pair need not be a valid key.
     */
    public static byte[] resumeAt(long tableId, String partitionKey, String rowKey) {
        byte[] table = tablePrefix(tableId);
        int nul = partitionKey.indexOf('\0');
        if (nul >= 0) {
            return withString(table, partitionKey.substring(0, nul), PAST);
        }
        return lowerBound(withString(table, partitionKey, TERMINATOR), rowKey, true);
    }

    /**
     * The key of one version of an entity in the entity history: the entity's key, then the
     * version's time, inverted so that a forward scan of an entity's versions meets the newest
     * first. An entity key ends with a terminator no key contains, so the versions of one entity
     * are exactly the keys starting with its key ({@link #versions}).
     */
    public static byte[] versionKey(EntityKey key, EdmDateTime writtenAt) {
        byte[] entity = encode(key);
        byte[] out = Arrays.copyOf(entity, entity.length + Long.BYTES);
        long inverted = ~(writtenAt.epochTicks() ^ Long.MIN_VALUE);
        for (int i = Long.BYTES - 1; i >= 0; i--) {
            out[entity.length + i] = (byte) inverted;
            inverted >>>= 8;
        }
        return out;
    }

    /** The time of the version whose history key is {@code versionKey}. */
    public static EdmDateTime versionTime(byte[] versionKey) {
        long inverted = 0;
        for (int i = versionKey.length - Long.BYTES; i < versionKey.length; i++) {
            inverted = (inverted << 8) | (versionKey[i] & 0xFF);
        }
        return EdmDateTime.ofEpochTicks(~inverted ^ Long.MIN_VALUE);
    }

    /**
     * The history keys of the entity's versions written at or before {@code atOrBefore} (every
     * version when null), newest first in key order.
     */
    public static ByteRange versions(EntityKey key, EdmDateTime atOrBefore) {
        byte[] entity = encode(key);
        byte[] from = atOrBefore == null ? entity : versionKey(key, atOrBefore);
        return new ByteRange(from, successor(entity));
    }

    /**
     * The store key just past the entity (PartitionKey, RowKey) of table {@code tableId}: the
     * exclusive end of a descending scan that resumes at (and includes) that entity (see
     * {@link ByteRange#endingBefore}).
     */
    public static byte[] resumeDescendingAt(long tableId, String partitionKey, String rowKey) {
        byte[] table = tablePrefix(tableId);
        int nul = partitionKey.indexOf('\0');
        if (nul >= 0) {
            return withString(table, partitionKey.substring(0, nul), PAST);
        }
        return upperBound(withString(table, partitionKey, TERMINATOR), rowKey, true);
    }

    private static ByteRange between(byte[] prefix, StringRange range) {
        byte[] from = range.lower() == null ? prefix : lowerBound(prefix, range.lower(), range.lowerInclusive());
        byte[] to = range.upper() == null ? successor(prefix) : upperBound(prefix, range.upper(), range.upperInclusive());
        return Arrays.compareUnsigned(from, to) < 0 ? new ByteRange(from, to) : new ByteRange(from, from);
    }

    /** The first key, under {@code prefix}, of a string at or after ({@code inclusive}) or after {@code s}. */
    private static byte[] lowerBound(byte[] prefix, String s, boolean inclusive) {
        int nul = s.indexOf('\0');
        if (nul >= 0) {
            // valid keys >= s, and > s, are exactly those > s[0..nul)
            return withString(prefix, s.substring(0, nul), PAST);
        }
        return withString(prefix, s, inclusive ? TERMINATOR : PAST);
    }

    /** The first key, under {@code prefix}, of a string past {@code s} (inclusive) or at or past it. */
    private static byte[] upperBound(byte[] prefix, String s, boolean inclusive) {
        int nul = s.indexOf('\0');
        if (nul >= 0) {
            // valid keys <= s, and < s, are exactly those <= s[0..nul)
            return withString(prefix, s.substring(0, nul), PAST);
        }
        return withString(prefix, s, inclusive ? PAST : TERMINATOR);
    }

    private static byte[] withString(byte[] prefix, String s, byte last) {
        byte[] out = Arrays.copyOf(prefix, prefix.length + Cesu8.encodedLength(s) + 1);
        int pos = Cesu8.encode(s, out, prefix.length);
        out[pos] = last;
        return out;
    }

    /** The smallest byte string greater than every string that starts with {@code prefix}. */
    static byte[] successor(byte[] prefix) {
        for (int i = prefix.length - 1; i >= 0; i--) {
            if (prefix[i] != (byte) 0xFF) {
                byte[] out = Arrays.copyOf(prefix, i + 1);
                out[i]++;
                return out;
            }
        }
        throw new IllegalStateException("no successor of an all-0xFF prefix");
    }

    private static byte[] tablePrefix(long tableId) {
        checkTableId(tableId);
        byte[] out = new byte[TABLE_ID_BYTES];
        putTableId(out, tableId);
        return out;
    }

    private static void putTableId(byte[] out, long tableId) {
        for (int i = TABLE_ID_BYTES - 1; i >= 0; i--) {
            out[i] = (byte) tableId;
            tableId >>>= 8;
        }
    }

    private static int indexOfTerminator(byte[] key, int from) {
        for (int i = from; i < key.length; i++) {
            if (key[i] == TERMINATOR) {
                return i;
            }
        }
        return -1;
    }

    private static void checkTableId(long tableId) {
        if (tableId < 0) {
            throw new IllegalArgumentException("tableId must not be negative: " + tableId);
        }
    }

    private static void requireNoNul(String which, String key) {
        int nul = key.indexOf('\0');
        if (nul >= 0) {
            throw new IllegalArgumentException("The " + which + " holds U+0000 at index " + nul + "; no valid key does.");
        }
    }
}
