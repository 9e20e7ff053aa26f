package io.tablestream.processor.internal;

import io.tablestream.core.command.EntityChange;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.EntityKey;
import io.tablestream.core.model.IndexDefinition;
import io.tablestream.core.model.StoredEntity;
import io.tablestream.core.storekey.ByteRange;
import io.tablestream.core.storekey.KeyCodec;
import io.tablestream.schemas.StoredEntityCodec;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongFunction;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * A task's entity rows: the {@code entities} store (key: {@link KeyCodec}), the {@code expiry}
 * index (key: expiry time, then the entity key) and the tables' secondary indexes
 * ({@link PartitionIndexes}), kept consistent with each other. Rows of a deleted table are removed
 * without their index entries: the table's indexes are dropped (and swept) with it.
 */
final class EntityRows {
    private static final byte[] EMPTY = new byte[0];

    private final KeyValueStore<Bytes, byte[]> entities;
    private final KeyValueStore<Bytes, byte[]> expiry;
    private final PartitionIndexes indexes;
    private final LongFunction<List<IndexDefinition>> indexesOf;
    /** Told before a stored row changes (a job copying the present copies it first); null when nobody is. */
    private RowWatcher watcher;
    private Runnable onExpiring = () -> { };

    /** Told before a stored row changes or goes. */
    @FunctionalInterface
    interface RowWatcher {
        /** The row at {@code key} ({@code encodedKey} its store key) is about to change from {@code previous}. */
        void beforeChange(EntityKey key, byte[] encodedKey, StoredEntity previous);
    }

    /**
     * @param indexes the task's secondary indexes, kept in step with every change
     * @param indexesOf the indexes of a table as the partition knows it
     */
    EntityRows(KeyValueStore<Bytes, byte[]> entities, KeyValueStore<Bytes, byte[]> expiry, PartitionIndexes indexes,
               LongFunction<List<IndexDefinition>> indexesOf) {
        this.entities = entities;
        this.expiry = expiry;
        this.indexes = indexes;
        this.indexesOf = indexesOf;
    }

    /** Tells {@code watcher} before every change of a stored row from now on (one watcher). */
    void watch(RowWatcher watcher) {
        this.watcher = watcher;
    }

    /** Runs {@code r} whenever a change gives an entity a time to live (its task then has expiry to do). */
    void whenExpiring(Runnable r) {
        this.onExpiring = r;
    }

    /** Whether any entity here has a time to live (expired or not). */
    boolean anyExpiring() {
        try (KeyValueIterator<Bytes, byte[]> it = expiry.all()) {
            return it.hasNext();
        }
    }

    /** The stored version of {@code key}, expired or not, or null. */
    StoredEntity stored(EntityKey key) {
        byte[] value = entities.get(Bytes.wrap(KeyCodec.encode(key)));
        return value == null ? null : StoredEntityCodec.decode(key.partitionKey(), key.rowKey(), value);
    }

    /** The version of {@code key} a command sees at {@code now}: null when absent or expired. */
    StoredEntity live(EntityKey key, EdmDateTime now) {
        StoredEntity s = stored(key);
        return s == null || s.isExpiredAt(now) ? null : s;
    }

    /** Applies a change to the store, the expiry index and the table's secondary indexes. */
    void apply(EntityChange change) {
        EntityKey key = EntityKey.of(change.tableId(), change.partitionKey(), change.rowKey());
        apply(change, stored(key));
    }

    /**
     * Applies a change whose current stored version (expired or not, or null) the caller already
     * read, sparing a second read and decode of the row.
     */
    void apply(EntityChange change, StoredEntity previous) {
        EntityKey key = EntityKey.of(change.tableId(), change.partitionKey(), change.rowKey());
        byte[] keyBytes = KeyCodec.encode(key);
        if (previous != null && watcher != null) {
            watcher.beforeChange(key, keyBytes, previous);
        }
        if (previous != null && previous.expiresAt() != null) {
            expiry.delete(Bytes.wrap(expiryKey(previous.expiresAt(), keyBytes)));
        }
        StoredEntity next = change.newVersion();
        if (next == null) {
            entities.delete(Bytes.wrap(keyBytes));
        } else {
            entities.put(Bytes.wrap(keyBytes), StoredEntityCodec.encode(next));
            if (next.expiresAt() != null) {
                expiry.put(Bytes.wrap(expiryKey(next.expiresAt(), keyBytes)), EMPTY);
                onExpiring.run();
            }
        }
        List<IndexDefinition> tableIndexes = indexesOf.apply(change.tableId());
        if (!tableIndexes.isEmpty()) {
            indexes.changed(tableIndexes, key, previous, next);
        }
    }

    /** Up to {@code limit} entities whose expiry is at or before {@code now}, earliest first. */
    List<EntityKey> expiredAt(EdmDateTime now, int limit) {
        List<EntityKey> due = new ArrayList<>();
        byte[] upper = ticksPrefix(now.epochTicks() + 1);
        try (KeyValueIterator<Bytes, byte[]> it = expiry.range(Bytes.wrap(ticksPrefix(Long.MIN_VALUE)), Bytes.wrap(upper))) {
            while (it.hasNext() && due.size() < limit) {
                byte[] k = it.next().key.get();
                if (Arrays.compareUnsigned(k, upper) >= 0) {
                    break; // range() is inclusive of its upper bound
                }
                due.add(KeyCodec.decode(Arrays.copyOfRange(k, Long.BYTES, k.length)));
            }
        }
        return due;
    }

    /** Deletes up to {@code limit} rows of {@code range}; returns how many it deleted. */
    int deleteRange(ByteRange range, int limit) {
        List<Bytes> doomed = new ArrayList<>();
        try (KeyValueIterator<Bytes, byte[]> it = entities.range(Bytes.wrap(range.fromInclusive()),
                Bytes.wrap(range.toExclusive()))) {
            while (it.hasNext() && doomed.size() < limit) {
                KeyValue<Bytes, byte[]> kv = it.next();
                if (range.contains(kv.key.get())) {
                    doomed.add(kv.key);
                }
            }
        }
        for (Bytes k : doomed) {
            EntityKey key = KeyCodec.decode(k.get());
            StoredEntity s = StoredEntityCodec.decode(key.partitionKey(), key.rowKey(), entities.get(k));
            if (s.expiresAt() != null) {
                expiry.delete(Bytes.wrap(expiryKey(s.expiresAt(), k.get())));
            }
            entities.delete(k);
        }
        return doomed.size();
    }

    /** A round of {@link #deleteWrittenUpTo}: rows examined, rows deleted, and the key to resume at (null: the range is done). */
    record Swept(int examined, int deleted, byte[] next) {
    }

    /**
     * Deletes the rows of {@code range} written at or before {@code ticks} (a deleted partition's
     * rows), with their expiry and secondary-index entries, examining at most {@code limit} rows;
     * rows written later stay.
     */
    Swept deleteWrittenUpTo(ByteRange range, long ticks, int limit) {
        List<StoredEntity> doomed = new ArrayList<>();
        int examined = 0;
        byte[] next = null;
        try (KeyValueIterator<Bytes, byte[]> it = entities.range(Bytes.wrap(range.fromInclusive()),
                Bytes.wrap(range.toExclusive()))) {
            while (it.hasNext()) {
                KeyValue<Bytes, byte[]> kv = it.next();
                byte[] k = kv.key.get();
                if (!range.contains(k)) {
                    break;
                }
                if (examined >= limit) {
                    next = k;
                    break;
                }
                examined++;
                EntityKey key = KeyCodec.decode(k);
                StoredEntity s = StoredEntityCodec.decode(key.partitionKey(), key.rowKey(), kv.value);
                if (s.entity().timestamp().epochTicks() <= ticks) {
                    doomed.add(s);
                }
            }
        }
        for (StoredEntity s : doomed) {
            long tableId = KeyCodec.tableId(range.fromInclusive());
            apply(new EntityChange(EntityChange.Type.DELETED, tableId, s.entity().partitionKey(), s.entity().rowKey(),
                    null), s);
        }
        return new Swept(examined, doomed.size(), next);
    }

    private static byte[] expiryKey(EdmDateTime at, byte[] entityKey) {
        return ByteBuffer.allocate(Long.BYTES + entityKey.length)
                .putLong(at.epochTicks() ^ Long.MIN_VALUE).put(entityKey).array();
    }

    /** Ticks, sign bit flipped so that unsigned byte order is numeric order. */
    private static byte[] ticksPrefix(long ticks) {
        return ByteBuffer.allocate(Long.BYTES).putLong(ticks ^ Long.MIN_VALUE).array();
    }
}
