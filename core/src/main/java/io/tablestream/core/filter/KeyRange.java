package io.tablestream.core.filter;

import java.util.Objects;

/**
 * The keys a query can match, as the planner derives them from {@code $filter}: a range of
 * PartitionKeys and, when that range is a single PartitionKey, a range of RowKeys inside it. It is
 * always a superset of the matches (the full predicate still runs on every candidate), so a
 * condition the planner cannot use simply widens the range.
 */
public record KeyRange(StringRange partitionKeys, StringRange rowKeys) {
    public static final KeyRange ALL = new KeyRange(StringRange.ALL, StringRange.ALL);
    /** No key at all (a contradiction such as {@code PartitionKey eq 'a' and PartitionKey eq 'b'}). */
    public static final KeyRange NONE = new KeyRange(new StringRange("", false, "", false), StringRange.ALL);

    /** How a range is served. */
    public enum Kind {
        /** Nothing can match. */
        EMPTY,
        /** One PartitionKey and one RowKey. */
        POINT,
        /** One PartitionKey, a range of RowKeys (possibly all of them). */
        PARTITION,
        /** A range of PartitionKeys. */
        PARTITION_RANGE,
        /** Every key of the table. */
        TABLE_SCAN
    }

    public KeyRange {
        Objects.requireNonNull(partitionKeys, "partitionKeys");
        Objects.requireNonNull(rowKeys, "rowKeys");
        if (!partitionKeys.isPoint()) {
            rowKeys = StringRange.ALL; // a RowKey range only narrows inside one partition
        }
    }

    public static KeyRange point(String partitionKey, String rowKey) {
        return new KeyRange(StringRange.exactly(partitionKey), StringRange.exactly(rowKey));
    }

    public static KeyRange partition(String partitionKey, StringRange rowKeys) {
        return new KeyRange(StringRange.exactly(partitionKey), rowKeys);
    }

    public Kind kind() {
        if (partitionKeys.isEmpty() || rowKeys.isEmpty()) {
            return Kind.EMPTY;
        }
        if (partitionKeys.isPoint()) {
            return rowKeys.isPoint() ? Kind.POINT : Kind.PARTITION;
        }
        return partitionKeys.isAll() ? Kind.TABLE_SCAN : Kind.PARTITION_RANGE;
    }

    /** The single PartitionKey of a POINT or PARTITION range, else {@code null}. */
    public String singlePartitionKey() {
        return partitionKeys.isPoint() && !rowKeys.isEmpty() ? partitionKeys.lower() : null;
    }

    public boolean contains(String partitionKey, String rowKey) {
        return partitionKeys.contains(partitionKey) && rowKeys.contains(rowKey);
    }

    /** Keys in both ranges. */
    public KeyRange intersect(KeyRange other) {
        return new KeyRange(partitionKeys.intersect(other.partitionKeys), rowKeys.intersect(other.rowKeys));
    }

    /** The smallest range holding both. */
    public KeyRange span(KeyRange other) {
        if (kind() == Kind.EMPTY) {
            return other;
        }
        if (other.kind() == Kind.EMPTY) {
            return this;
        }
        StringRange pk = partitionKeys.span(other.partitionKeys);
        StringRange rk = pk.isPoint() ? rowKeys.span(other.rowKeys) : StringRange.ALL;
        return new KeyRange(pk, rk);
    }

    @Override
    public String toString() {
        return kind() + " PK" + partitionKeys + " RK" + rowKeys;
    }
}
