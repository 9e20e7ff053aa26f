package io.tablestream.protocol.auth;

import io.tablestream.core.filter.KeyRange;
import io.tablestream.core.filter.StringRange;

/**
 * The entities a service SAS reaches ({@code spk srk epk erk}): a range in the table's own order,
 * PartitionKey first, then RowKey, bounds inclusive, keys compared ordinally. As the service
 * defines it:
 * <ul>
 *   <li>{@code spk} alone: PartitionKey &ge; spk;</li>
 *   <li>{@code spk, srk}: PartitionKey &gt; spk, or PartitionKey = spk and RowKey &ge; srk;</li>
 *   <li>{@code epk} alone: PartitionKey &le; epk;</li>
 *   <li>{@code epk, erk}: PartitionKey &lt; epk, or PartitionKey = epk and RowKey &le; erk.</li>
 * </ul>
 * A RowKey bound never comes without its PartitionKey bound. {@code null} means no bound.
 */
public record TableAccessRange(String startPartitionKey, String startRowKey, String endPartitionKey,
                               String endRowKey) {
    /** Every entity. */
    public static final TableAccessRange ALL = new TableAccessRange(null, null, null, null);

    public TableAccessRange {
        if (startRowKey != null && startPartitionKey == null) {
            throw new IllegalArgumentException("a start RowKey needs a start PartitionKey");
        }
        if (endRowKey != null && endPartitionKey == null) {
            throw new IllegalArgumentException("an end RowKey needs an end PartitionKey");
        }
    }

    public boolean isAll() {
        return startPartitionKey == null && endPartitionKey == null;
    }

    /** Whether the entity with these keys lies in the range. */
    public boolean contains(String partitionKey, String rowKey) {
        if (startPartitionKey != null) {
            int c = partitionKey.compareTo(startPartitionKey);
            if (c < 0 || (c == 0 && startRowKey != null && rowKey.compareTo(startRowKey) < 0)) {
                return false;
            }
        }
        if (endPartitionKey != null) {
            int c = partitionKey.compareTo(endPartitionKey);
            return c < 0 || (c == 0 && (endRowKey == null || rowKey.compareTo(endRowKey) <= 0));
        }
        return true;
    }

    /** Whether every entity of the PartitionKey lies in the range (a RowKey bound at it cuts the partition). */
    public boolean containsPartition(String partitionKey) {
        if (startPartitionKey != null) {
            int c = partitionKey.compareTo(startPartitionKey);
            if (c < 0 || (c == 0 && startRowKey != null && !startRowKey.isEmpty())) {
                return false;
            }
        }
        if (endPartitionKey != null) {
            int c = partitionKey.compareTo(endPartitionKey);
            return c < 0 || (c == 0 && endRowKey == null);
        }
        return true;
    }

    /**
     * Whether every key of {@code keys} lies in the range (a deletion by filter may touch any of
     * them). A PartitionKey at a bound with a RowKey bound is covered only when {@code keys} holds one
     * PartitionKey, with a RowKey range inside the bound.
     */
    public boolean covers(KeyRange keys) {
        if (isAll() || keys.kind() == KeyRange.Kind.EMPTY) {
            return true;
        }
        StringRange pks = keys.partitionKeys();
        StringRange rks = keys.rowKeys();
        if (startPartitionKey != null) {
            if (pks.lower() == null) {
                return false;
            }
            int c = pks.lower().compareTo(startPartitionKey);
            if (c < 0) {
                return false;
            }
            if (c == 0 && pks.lowerInclusive() && startRowKey != null && !startRowKey.isEmpty()
                    && (!pks.isPoint() || rks.lower() == null || rks.lower().compareTo(startRowKey) < 0)) {
                return false;
            }
        }
        if (endPartitionKey != null) {
            if (pks.upper() == null) {
                return false;
            }
            int c = pks.upper().compareTo(endPartitionKey);
            if (c > 0) {
                return false;
            }
            return c != 0 || !pks.upperInclusive() || endRowKey == null
                    || pks.isPoint() && rks.upper() != null && rks.upper().compareTo(endRowKey) <= 0;
        }
        return true;
    }

    /** Whether some entity of the PartitionKey may lie in the range. */
    public boolean touchesPartition(String partitionKey) {
        return (startPartitionKey == null || partitionKey.compareTo(startPartitionKey) >= 0)
                && (endPartitionKey == null || partitionKey.compareTo(endPartitionKey) <= 0);
    }

    /**
     * The smallest {@link KeyRange} holding the range, to intersect a query's plan with. It is exact
     * when there is no bound or both PartitionKey bounds are equal; otherwise the first and last
     * partitions are taken whole, so results must still be checked with {@link #contains}.
     */
    public KeyRange keyRange() {
        StringRange partitions = new StringRange(startPartitionKey, startPartitionKey != null,
                endPartitionKey, endPartitionKey != null);
        if (startPartitionKey != null && startPartitionKey.equals(endPartitionKey)) {
            StringRange rows = new StringRange(startRowKey, startRowKey != null, endRowKey, endRowKey != null);
            return new KeyRange(partitions, rows);
        }
        return new KeyRange(partitions, StringRange.ALL);
    }

    /** Whether {@link #keyRange()} holds exactly the entities of this range. */
    public boolean isExactKeyRange() {
        return isAll() || (startPartitionKey != null && startPartitionKey.equals(endPartitionKey))
                || (startRowKey == null && endRowKey == null);
    }
}
