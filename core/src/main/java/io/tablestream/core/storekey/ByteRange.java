package io.tablestream.core.storekey;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;

/**
 * A contiguous range of store keys in unsigned lexicographic byte order (RocksDB's default
 * comparator): from {@code fromInclusive} up to, not including, {@code toExclusive}. Empty when
 * {@code fromInclusive >= toExclusive}. Holds copies: arrays given or returned are never shared.
 */
public record ByteRange(byte[] fromInclusive, byte[] toExclusive) {
    public ByteRange {
        fromInclusive = Objects.requireNonNull(fromInclusive, "fromInclusive").clone();
        toExclusive = Objects.requireNonNull(toExclusive, "toExclusive").clone();
    }

    /** A copy of the first key of the range (a RocksDB seek target). */
    @Override
    public byte[] fromInclusive() {
        return fromInclusive.clone();
    }

    /** A copy of the bound past the range (a RocksDB {@code iterate_upper_bound}). */
    @Override
    public byte[] toExclusive() {
        return toExclusive.clone();
    }

    public boolean isEmpty() {
        return Arrays.compareUnsigned(fromInclusive, toExclusive) >= 0;
    }

    public boolean contains(byte[] key) {
        return Arrays.compareUnsigned(fromInclusive, key) <= 0 && Arrays.compareUnsigned(key, toExclusive) < 0;
    }

    /**
     * The part of this range at or after {@code key}: how a scan resumes from a continuation
     * point (see {@link KeyCodec#resumeAt}).
     */
    public ByteRange startingAt(byte[] key) {
        return Arrays.compareUnsigned(key, fromInclusive) > 0 ? new ByteRange(key, toExclusive) : this;
    }

    /**
     * The part of this range before {@code key}: how a descending scan resumes from a continuation
     * point (see {@link KeyCodec#resumeDescendingAt}).
     */
    public ByteRange endingBefore(byte[] key) {
        return Arrays.compareUnsigned(key, toExclusive) < 0 ? new ByteRange(fromInclusive, key) : this;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ByteRange other
                && Arrays.equals(fromInclusive, other.fromInclusive)
                && Arrays.equals(toExclusive, other.toExclusive);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(fromInclusive) + Arrays.hashCode(toExclusive);
    }

    @Override
    public String toString() {
        HexFormat hex = HexFormat.of();
        return "ByteRange[" + hex.formatHex(fromInclusive) + ", " + hex.formatHex(toExclusive) + ")";
    }
}
