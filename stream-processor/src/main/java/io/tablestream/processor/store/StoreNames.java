package io.tablestream.processor.store;

/** The state stores of the topology. */
public final class StoreNames {
    /** Entities by (table id, PartitionKey, RowKey), one RocksDB store per command partition. */
    public static final String ENTITIES = "entities";
    /** The table registry, a global store fed by the tables topic. */
    public static final String REGISTRY = "registry";
    /** Per task: the applied offset and the last Timestamp given. */
    public static final String TASK_META = "task-meta";
    /** Per task: the active tables whose names this task decides. */
    public static final String TABLE_NAMES = "table-names";
    /** Per task: the settings of the accounts whose commands this task decides. */
    public static final String ACCOUNTS = "accounts";
    /**
     * Per task: the tables announced in the task's own command partition, by id (ACTIVE, or
     * DELETED once the deletion was announced): what the task's entity commands are decided against.
     * Also the partitions deleted whole (Delete Partition), by table, PartitionKey and time: their
     * rows written at or before that time are gone for commands and reads.
     */
    public static final String PARTITION_TABLES = "partition-tables";
    /**
     * Per task: the entity history of the tables that keep one — every version of each entity, by
     * entity key and then newest first ({@link io.tablestream.core.storekey.KeyCodec#versionKey}), each
     * the change event that made it.
     */
    public static final String HISTORY = "history";
    /**
     * Per task: the entries of the tables' secondary indexes over the task's rows
     * ({@link io.tablestream.core.storekey.IndexKeys}), kept in step with {@link #ENTITIES}.
     */
    public static final String INDEXES = "indexes";
    /** Per task: how far each secondary index is built over the task's rows ({@link IndexBuild}). */
    public static final String INDEX_BUILDS = "index-builds";
    /**
     * Per task: the cross-partition transactions this task coordinates (their commands are keyed to
     * its partition), by {@code <account>/<transactionId>}: each part's state.
     */
    public static final String TRANSACTIONS = "transactions";
    /**
     * Per task: the jobs this task coordinates (every job of the accounts whose key is on its
     * partition), and its share of the jobs it works on ({@link JobKeys}).
     */
    public static final String JOBS = "jobs";
    /** Per task: entities with a time-to-live, by expiry time. */
    public static final String EXPIRY = "expiry";
    /** Every store above. */
    public static final java.util.List<String> ALL = java.util.List.of(ENTITIES, REGISTRY, TASK_META, TABLE_NAMES,
            ACCOUNTS, PARTITION_TABLES, EXPIRY, HISTORY, INDEXES, INDEX_BUILDS, TRANSACTIONS, JOBS);

    private StoreNames() {
    }
}
