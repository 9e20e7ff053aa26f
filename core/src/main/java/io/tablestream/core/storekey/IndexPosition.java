package io.tablestream.core.storekey;

import io.tablestream.core.model.EdmValue;
import io.tablestream.core.model.EntityKey;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;

/**
 * A place in a secondary index's order: an entity's value of the indexed property and its keys,
 * laid out as its index entry is after the table and index ids ({@link IndexKeys}) and without the
 * table id of its entity key — the value's type tag and bytes, then
 * {@code cesu8(PartitionKey) 00 cesu8(RowKey) 00} — so positions compare (unsigned, byte by byte) as
 * the entries do: by type, then value, then PartitionKey and RowKey. It names no table or index:
 * the same position is a place in any copy of an index over the property, which is what lets a
 * continuation of a query ordered by the property resume on any instance. Holds a copy: arrays
 * given or returned are never shared.
 */
public record IndexPosition(byte[] bytes) implements Comparable<IndexPosition> {
    public IndexPosition {
        bytes = Objects.requireNonNull(bytes, "bytes").clone();
    }

    /** The position of an entity whose indexed property holds {@code value} (a type that is indexed). */
    public static IndexPosition of(EdmValue value, String partitionKey, String rowKey) {
        return ofEntry(IndexKeys.entry(0, value, EntityKey.of(0, partitionKey, rowKey)));
    }

    /** The position of an index entry ({@link IndexKeys#entry}). */
    public static IndexPosition ofEntry(byte[] entry) {
        int valueEnd = IndexKeys.valueEnd(entry);
        int value = valueEnd - IndexKeys.IDS_BYTES;
        byte[] out = new byte[entry.length - IndexKeys.IDS_BYTES - KeyCodec.TABLE_ID_BYTES];
        System.arraycopy(entry, IndexKeys.IDS_BYTES, out, 0, value);
        System.arraycopy(entry, valueEnd + KeyCodec.TABLE_ID_BYTES, out, value, out.length - value);
        return new IndexPosition(out);
    }

    /**
     * A position read back from elsewhere (a continuation token), checked to be exactly the
     * position of some entity.
     *
     * @throws IllegalArgumentException when it is not
     */
    public static IndexPosition parse(byte[] bytes) {
        IndexPosition p = new IndexPosition(bytes);
        try {
            p.key(0);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("not an index position", e);
        }
        return p;
    }

    @Override
    public byte[] bytes() {
        return bytes.clone();
    }

    /** The entity's keys, under table {@code tableId}. */
    public EntityKey key(long tableId) {
        return IndexKeys.entityOf(entry(tableId, 0));
    }

    /**
     * The entry of this position in index {@code indexId} of table {@code tableId}: where an
     * ascending read of the index resumes (inclusive).
     */
    public byte[] entry(long tableId, long indexId) {
        byte[] ids = IndexKeys.ids(tableId, indexId);
        byte[] probe = Arrays.copyOf(ids, IndexKeys.IDS_BYTES + bytes.length);
        System.arraycopy(bytes, 0, probe, IndexKeys.IDS_BYTES, bytes.length);
        int valueEnd = IndexKeys.valueEnd(probe);
        byte[] out = Arrays.copyOf(probe, probe.length + KeyCodec.TABLE_ID_BYTES);
        System.arraycopy(KeyCodec.table(tableId).fromInclusive(), 0, out, valueEnd, KeyCodec.TABLE_ID_BYTES);
        System.arraycopy(probe, valueEnd, out, valueEnd + KeyCodec.TABLE_ID_BYTES, probe.length - valueEnd);
        return out;
    }

    /**
     * The first key past this position's entry in index {@code indexId} of table {@code tableId}:
     * where a descending read of the index resumes (the entry included). Entries are prefix-free,
     * so nothing lies between an entry and itself followed by a zero byte.
     */
    public byte[] entryPast(long tableId, long indexId) {
        byte[] entry = entry(tableId, indexId);
        return Arrays.copyOf(entry, entry.length + 1);
    }

    @Override
    public int compareTo(IndexPosition other) {
        return Arrays.compareUnsigned(bytes, other.bytes);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IndexPosition other && Arrays.equals(bytes, other.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
        return "IndexPosition[" + HexFormat.of().formatHex(bytes) + "]";
    }
}
