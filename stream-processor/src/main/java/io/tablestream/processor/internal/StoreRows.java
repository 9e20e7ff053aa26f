package io.tablestream.processor.internal;

import io.tablestream.core.command.CommandKey;
import io.tablestream.core.model.EntityKey;
import io.tablestream.core.model.TableName;
import io.tablestream.core.storekey.IndexKeys;
import io.tablestream.core.storekey.KeyCodec;
import io.tablestream.processor.store.StoreNames;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongFunction;

/**
 * Where each row of a task's stores belongs: the command key whose partition owns it, read from the
 * row's store key (the layouts the processor writes, kept here beside it). A row owned by a key lives
 * in the store of the task of that key's partition, whatever the partition count; the rest is per
 * task: the table announcements every partition has seen, where each index stands in the partition,
 * and the task's own offset and clock. Used to move rows between partitions when the count grows.
 */
public final class StoreRows {
    /** The stores whose rows are each owned by one command key (the per-task rows are told apart by {@link #owner}). */
    public static final List<String> KEYED = List.of(StoreNames.ENTITIES, StoreNames.EXPIRY, StoreNames.HISTORY,
            StoreNames.INDEXES, StoreNames.TRANSACTIONS, StoreNames.TABLE_NAMES, StoreNames.ACCOUNTS,
            StoreNames.PARTITION_TABLES, StoreNames.JOBS);
    /** The stores holding only per-task rows: a task's offset and clock, and its indexes' progress. */
    public static final List<String> PER_TASK = List.of(StoreNames.TASK_META, StoreNames.INDEX_BUILDS);

    private StoreRows() {
    }

    /**
     * The command key that owns the row keyed {@code key} (as its changelog holds it) in store
     * {@code store}, or null when the row is the task's own (a table announcement it has seen, in
     * {@code partition-tables}; its share of a running job, in {@code jobs}). {@code accountOfTable} names the account of a table id (entity rows
     * are keyed by table id, their command by account and table id).
     *
     * @throws IllegalArgumentException for a store without keyed rows, or a key it cannot hold
     */
    public static CommandKey owner(String store, byte[] key, LongFunction<String> accountOfTable) {
        return switch (store) {
            case StoreNames.ENTITIES -> entity(KeyCodec.decode(key), accountOfTable);
            case StoreNames.EXPIRY -> entity(KeyCodec.decode(Arrays.copyOfRange(key, Long.BYTES, key.length)),
                    accountOfTable);
            case StoreNames.HISTORY -> entity(KeyCodec.decode(Arrays.copyOf(key, key.length - Long.BYTES)),
                    accountOfTable);
            case StoreNames.INDEXES -> entity(IndexKeys.entityOf(key), accountOfTable);
            case StoreNames.TRANSACTIONS -> {
                String k = text(key);
                int slash = k.indexOf('/');
                yield CommandKey.forTransaction(k.substring(0, slash), k.substring(slash + 1));
            }
            case StoreNames.TABLE_NAMES -> {
                String k = RegistryKey.accountAndName(text(key));
                int slash = k.indexOf('/');
                yield CommandKey.forTable(k.substring(0, slash), TableName.of(k.substring(slash + 1)));
            }
            case StoreNames.ACCOUNTS -> CommandKey.forAccount(RegistryKey.accountOf(text(key)));
            case StoreNames.PARTITION_TABLES -> {
                String k = text(key);
                if (k.startsWith(RegistryKey.idStart())) {
                    yield null;
                }
                PartitionDeletions.Deletion d = PartitionDeletions.Deletion.parse(k);
                yield CommandKey.forEntity(accountOfTable.apply(d.tableId()), d.tableId(), d.partitionKey());
            }
            case StoreNames.JOBS -> {
                // a job's status lives with its account's key; a task's share of a job is its own
                String account = io.tablestream.processor.store.JobKeys.accountOfStatus(text(key));
                yield account == null ? null : CommandKey.forAccount(account);
            }
            default -> throw new IllegalArgumentException("store " + store + " has no rows owned by a command key");
        };
    }

    /** The table and index an index entry (a row of {@code indexes}) belongs to, as its build key. */
    public static String indexBuildKeyOf(byte[] indexEntry) {
        ByteBuffer b = ByteBuffer.wrap(indexEntry);
        return io.tablestream.processor.store.IndexBuild.key(b.getLong(), b.getLong());
    }

    /** The {@code task-meta} key of the partition's clock (the last Timestamp it gave), and its value's codec. */
    public static String clockKey() {
        return TaskState.LAST_TIMESTAMP;
    }

    public static long decodeClock(byte[] value) {
        return TaskState.decode(value);
    }

    public static byte[] encodeClock(long ticks) {
        return TaskState.encode(ticks);
    }

    /** The {@code task-meta} key of the offset of the last command the task applied (absent: none yet). */
    public static String appliedOffsetKey() {
        return TaskState.APPLIED_OFFSET;
    }

    private static CommandKey entity(EntityKey key, LongFunction<String> accountOfTable) {
        return CommandKey.forEntity(accountOfTable.apply(key.tableId()), key.tableId(), key.partitionKey());
    }

    private static String text(byte[] key) {
        return new String(key, StandardCharsets.UTF_8);
    }
}
