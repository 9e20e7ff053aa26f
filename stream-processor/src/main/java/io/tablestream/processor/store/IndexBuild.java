package io.tablestream.processor.store;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;

/**
 * Where one partition's copy of a secondary index stands: BUILDING (the rows before {@code cursor}
 * are indexed; every change since the index was announced is too), READY (every row is), or
 * DROPPING (its entries are being removed). Kept per task in the {@code index-builds} store.
 *
 * @param cursor while BUILDING, the entity key the build resumes at; empty otherwise
 * @param rowsIndexed rows the build has walked so far (its progress)
 * @param entries the index's entries in this partition: one per stored row (expired rows not yet
 *     deleted included) that has the property with an indexable value
 */
public record IndexBuild(long tableId, long indexId, State state, byte[] cursor, long rowsIndexed, long entries) {
    public enum State { BUILDING, READY, DROPPING }

    public IndexBuild {
        Objects.requireNonNull(state, "state");
        cursor = cursor == null ? new byte[0] : cursor.clone();
    }

    /** This build with {@code delta} more entries. */
    public IndexBuild counting(long delta) {
        return new IndexBuild(tableId, indexId, state, cursor, rowsIndexed, entries + delta);
    }

    @Override
    public byte[] cursor() {
        return cursor.clone();
    }

    /** The store key: table and index id, fixed width, so that one table's builds are adjacent. */
    public static String key(long tableId, long indexId) {
        return String.format("%019d/%019d", tableId, indexId);
    }

    public static IndexBuild decode(String key, byte[] value) {
        ByteBuffer b = ByteBuffer.wrap(value);
        State state = State.values()[b.get()];
        long rows = b.getLong();
        long entries = b.getLong();
        byte[] cursor = Arrays.copyOfRange(value, 1 + 2 * Long.BYTES, value.length);
        return new IndexBuild(Long.parseLong(key.substring(0, 19)), Long.parseLong(key.substring(20)), state, cursor,
                rows, entries);
    }

    public byte[] encode() {
        return ByteBuffer.allocate(1 + 2 * Long.BYTES + cursor.length).put((byte) state.ordinal()).putLong(rowsIndexed)
                .putLong(entries).put(cursor).array();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IndexBuild other && tableId == other.tableId && indexId == other.indexId
                && state == other.state && rowsIndexed == other.rowsIndexed && entries == other.entries
                && Arrays.equals(cursor, other.cursor);
    }

    @Override
    public int hashCode() {
        return Objects.hash(tableId, indexId, state, rowsIndexed, entries, Arrays.hashCode(cursor));
    }

    @Override
    public String toString() {
        return "IndexBuild[" + tableId + "/" + indexId + " " + state + " rows=" + rowsIndexed + " entries=" + entries + "]";
    }
}
