package io.tablestream.processor.store;

/**
 * Which local copy of a partition's stores a read may use: the active one only (the task applying
 * the partition's commands), or a standby replica too — a warm copy kept by following the store's
 * changelog, possibly a little behind, which serves reads while the active is unavailable.
 */
public enum StoreReplica {
    ACTIVE,
    ACTIVE_OR_STANDBY
}
