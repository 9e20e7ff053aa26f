package io.tablestream.core.model;

/**
 * The order in which a read returns entities: ascending (PartitionKey, RowKey) — the service's
 * one order, what every unextended query gets — or, within one partition, descending RowKey (the
 * {@code $orderby=RowKey desc} extension: the newest rows of a log-tail partition first, without
 * inverted-tick keys).
 */
public enum KeyOrder {
    ASCENDING,
    DESCENDING;

    public boolean descending() {
        return this == DESCENDING;
    }
}
