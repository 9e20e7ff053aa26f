package io.tablestream.processor.internal;

import io.tablestream.core.command.ChangeEvent;
import io.tablestream.core.command.JobStatus;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.filter.IndexCondition;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.EntityKey;
import io.tablestream.core.model.KeyOrder;
import io.tablestream.core.model.StoredEntity;
import io.tablestream.core.storekey.ByteRange;
import io.tablestream.core.storekey.IndexKeys;
import io.tablestream.core.storekey.IndexPosition;
import io.tablestream.core.storekey.KeyCodec;
import io.tablestream.processor.internal.state.KeyPresence;
import io.tablestream.processor.store.AppliedOffsets;
import io.tablestream.processor.store.CloseableIterator;
import io.tablestream.processor.store.EntityStore;
import io.tablestream.processor.store.IndexBuild;
import io.tablestream.processor.store.IndexedEntity;
import io.tablestream.processor.store.JobKeys;
import io.tablestream.processor.store.LookaheadIterator;
import io.tablestream.processor.store.StoreNames;
import io.tablestream.processor.store.StoreReplica;
import io.tablestream.schemas.LogCodecs;
import io.tablestream.schemas.StoredEntityCodec;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * {@link EntityStore} over Kafka Streams' interactive queries. An active store is read as its task
 * left it: a write is visible as soon as the task applied it, before its transaction commits, just
 * as its answer goes out. A store whose task restarted answers {@code ServerBusy} until the task
 * has replayed what may have been answered before ({@link AppliedOffsets#readable}).
 *
 * <p>One class, over 400 lines: it implements the one {@link EntityStore} interface the readers use
 * (point reads, ranges, index ranges, history, counts) and each method shares the same replica
 * lookup and the same handling of a store that is restoring, moving or closed.
 */
public final class StreamsEntityStore implements EntityStore {
    private final KafkaStreams streams;
    private final Clock clock;
    private final AppliedOffsets applied;
    private final io.tablestream.processor.store.TransactionProgress progress;
    private final KeyPresence partitionDeletions;
    private final ActiveTaskStores active;

    /**
     * @param progress the transaction parts this instance's tasks decided, shown in statuses read here
     * @param partitionDeletions which partitions may hold partition deletions: elsewhere a read looks for none
     * @param active the stores of the active tasks running here, read without asking Kafka Streams for them
     */
    public StreamsEntityStore(KafkaStreams streams, Clock clock, AppliedOffsets applied,
                              io.tablestream.processor.store.TransactionProgress progress,
                              KeyPresence partitionDeletions, ActiveTaskStores active) {
        this.streams = streams;
        this.clock = clock;
        this.applied = applied;
        this.progress = progress;
        this.partitionDeletions = partitionDeletions;
        this.active = active;
    }

    /** Store {@code name} of {@code partition}: an active one as {@link ActiveTaskStores} holds it, a standby's from Kafka Streams. */
    private <K, V> ReadOnlyKeyValueStore<K, V> keyValue(String name, int partition, StoreReplica replica) {
        return replica == StoreReplica.ACTIVE ? active.keyValue(streams, name, partition)
                : QueryableStores.keyValue(streams, name, partition, replica);
    }

    private ReadOnlyKeyValueStore<Bytes, byte[]> store(StoreReplica replica, int partition) {
        ReadOnlyKeyValueStore<Bytes, byte[]> store = keyValue(StoreNames.ENTITIES, partition,
                replica);
        requireReadable(partition);
        return store;
    }

    /** Refuses a read of a store whose task restarted until it replayed what may have been answered before. */
    private void requireReadable(int partition) {
        if (!applied.readable(partition)) {
            throw TableServiceException.of(ErrorCode.SERVER_BUSY,
                    "The data is being recovered after a restart; retry shortly.");
        }
    }

    /**
     * The partition deletions of table {@code tableId} in the local copy of {@code partition}'s stores;
     * none without a look where the partition's store holds no deletion at all (the common case).
     */
    private PartitionDeletions.View deletions(StoreReplica replica, int partition, long tableId) {
        if (!partitionDeletions.mayHold(partition)) {
            return PartitionDeletions.View.NONE;
        }
        ReadOnlyKeyValueStore<String, byte[]> tables = keyValue(StoreNames.PARTITION_TABLES,
                partition, replica);
        try {
            return PartitionDeletions.of(tables, tableId);
        } catch (InvalidStateStoreException e) {
            throw QueryableStores.translate(e);
        }
    }

    /** The deletions of the table a non-empty key range lies in. */
    private PartitionDeletions.View deletions(StoreReplica replica, int partition, ByteRange range) {
        return range.isEmpty() ? PartitionDeletions.View.NONE
                : deletions(replica, partition, KeyCodec.tableId(range.fromInclusive()));
    }

    @Override
    public Optional<StoredEntity> get(StoreReplica replica, int partition, EntityKey key) {
        ReadOnlyKeyValueStore<Bytes, byte[]> store = store(replica, partition);
        byte[] value;
        try {
            value = store.get(Bytes.wrap(KeyCodec.encode(key)));
        } catch (InvalidStateStoreException e) {
            throw QueryableStores.translate(e);
        }
        if (value == null) {
            return Optional.empty();
        }
        StoredEntity s = StoredEntityCodec.decode(key.partitionKey(), key.rowKey(), value);
        return s.isExpiredAt(EdmDateTime.of(clock.instant())) || deletions(replica, partition, key.tableId()).hides(s)
                ? Optional.empty() : Optional.of(s);
    }

    @Override
    public CloseableIterator<StoredEntity> scan(StoreReplica replica, int partition, ByteRange range, KeyOrder order) {
        if (range.isEmpty()) {
            return new Cursor(null, range, false, EdmDateTime.of(clock.instant()), PartitionDeletions.View.NONE);
        }
        ReadOnlyKeyValueStore<Bytes, byte[]> store = store(replica, partition);
        PartitionDeletions.View deleted = deletions(replica, partition, range);
        try {
            // Both bounds of range() and reverseRange() are inclusive: the cursor drops the exclusive end.
            Bytes from = Bytes.wrap(range.fromInclusive());
            Bytes to = Bytes.wrap(range.toExclusive());
            return new Cursor(order.descending() ? store.reverseRange(from, to) : store.range(from, to), range,
                    order.descending(), EdmDateTime.of(clock.instant()), deleted);
        } catch (InvalidStateStoreException e) {
            throw QueryableStores.translate(e);
        }
    }

    @Override
    public CloseableIterator<ChangeEvent> history(StoreReplica replica, int partition, EntityKey key,
                                                  EdmDateTime atOrBefore) {
        ByteRange range = KeyCodec.versions(key, atOrBefore);
        ReadOnlyKeyValueStore<Bytes, byte[]> store = keyValue(StoreNames.HISTORY, partition,
                replica);
        requireReadable(partition);
        KeyValueIterator<Bytes, byte[]> it;
        PartitionDeletions.View deleted = deletions(replica, partition, key.tableId());
        try {
            it = store.range(Bytes.wrap(range.fromInclusive()), Bytes.wrap(range.toExclusive()));
        } catch (InvalidStateStoreException e) {
            throw QueryableStores.translate(e);
        }
        LookaheadIterator<ChangeEvent> versions = new LookaheadIterator<>() {
            @Override
            protected ChangeEvent fetch() {
                KeyValue<Bytes, byte[]> kv = it.hasNext() ? it.next() : null;
                // only the inclusive upper bound of range() can be outside
                return kv == null || !range.contains(kv.key.get()) ? null : LogCodecs.CHANGE_EVENT.decode(kv.value);
            }

            @Override
            public void close() {
                it.close();
            }
        };
        return deleted.isEmpty() ? versions
                : new WithPartitionDeletions(versions, deleted, key.partitionKey(), atOrBefore);
    }

    @Override
    public CloseableIterator<StoredEntity> scanAsOf(StoreReplica replica, int partition, ByteRange range,
                                                    KeyOrder order, EdmDateTime asOf) {
        if (range.isEmpty()) {
            return new AsOfRows(null, range, asOf, PartitionDeletions.View.NONE);
        }
        PartitionDeletions.View deleted = deletions(replica, partition, range);
        ReadOnlyKeyValueStore<Bytes, byte[]> store = keyValue(StoreNames.HISTORY, partition,
                replica);
        requireReadable(partition);
        try {
            // An entity's versions are its key followed by 8 bytes; query bounds never fall
            // between an entity key and its extensions, so the same byte range holds exactly the
            // versions of the range's entities (the entity part is checked all the same).
            Bytes from = Bytes.wrap(range.fromInclusive());
            Bytes to = Bytes.wrap(range.toExclusive());
            return new AsOfRows(order.descending() ? store.reverseRange(from, to) : store.range(from, to), range,
                    asOf, deleted);
        } catch (InvalidStateStoreException e) {
            throw QueryableStores.translate(e);
        }
    }

    @Override
    public Optional<CloseableIterator<StoredEntity>> indexScan(StoreReplica replica, int partition, long tableId,
                                                               long indexId, IndexCondition condition,
                                                               ByteRange entities, int maxEntries) {
        ReadOnlyKeyValueStore<String, byte[]> builds = keyValue(StoreNames.INDEX_BUILDS,
                partition, replica);
        ReadOnlyKeyValueStore<Bytes, byte[]> index = keyValue(StoreNames.INDEXES, partition,
                replica);
        ReadOnlyKeyValueStore<Bytes, byte[]> rows = store(replica, partition);
        EdmDateTime now = EdmDateTime.of(clock.instant());
        PartitionDeletions.View deleted = deletions(replica, partition, tableId);
        try {
            String key = IndexBuild.key(tableId, indexId);
            byte[] build = builds.get(key);
            if (build == null || IndexBuild.decode(key, build).state() != IndexBuild.State.READY) {
                return Optional.empty();
            }
            if (entities.isEmpty()) {
                return Optional.of(new IndexedRows(rows, List.<byte[]>of().iterator(), null, now, deleted));
            }
            if (condition.isPoint()) {
                ByteRange range = IndexKeys.range(tableId, indexId, condition.lower(), entities);
                KeyValueIterator<Bytes, byte[]> it = index.range(Bytes.wrap(range.fromInclusive()),
                        Bytes.wrap(range.toExclusive()));
                Iterator<byte[]> keys = new Iterator<>() {
                    private byte[] next;

                    @Override
                    public boolean hasNext() {
                        if (next == null && it.hasNext()) {
                            byte[] k = it.next().key.get();
                            if (range.contains(k)) {
                                next = KeyCodec.encode(IndexKeys.entityOf(k));
                            }
                        }
                        return next != null;
                    }

                    @Override
                    public byte[] next() {
                        if (!hasNext()) {
                            throw new NoSuchElementException();
                        }
                        byte[] k = next;
                        next = null;
                        return k;
                    }
                };
                return Optional.of(new IndexedRows(rows, keys, it, now, deleted));
            }
            // A range of values: entries come in value order; gather (bounded) and sort by key.
            ByteRange range = IndexKeys.range(tableId, indexId, condition);
            List<byte[]> found = new ArrayList<>();
            try (KeyValueIterator<Bytes, byte[]> it = index.range(Bytes.wrap(range.fromInclusive()),
                    Bytes.wrap(range.toExclusive()))) {
                int seen = 0;
                while (it.hasNext()) {
                    byte[] k = it.next().key.get();
                    if (!range.contains(k)) {
                        break;
                    }
                    if (++seen > maxEntries) {
                        return Optional.empty();
                    }
                    byte[] entityKey = KeyCodec.encode(IndexKeys.entityOf(k));
                    if (entities.contains(entityKey)) {
                        found.add(entityKey);
                    }
                }
            }
            found.sort(Arrays::compareUnsigned);
            // A row changed while the entries were read may show under its old and its new value:
            // read it once (its current version is what the filter is tested on).
            List<byte[]> distinct = new ArrayList<>(found.size());
            for (byte[] k : found) {
                if (distinct.isEmpty() || !Arrays.equals(distinct.get(distinct.size() - 1), k)) {
                    distinct.add(k);
                }
            }
            return Optional.of(new IndexedRows(rows, distinct.iterator(), null, now, deleted));
        } catch (InvalidStateStoreException e) {
            throw QueryableStores.translate(e);
        }
    }

    @Override
    public Optional<CloseableIterator<IndexedEntity>> orderedIndexScan(StoreReplica replica, int partition,
                                                                    long tableId, long indexId, String property,
                                                                    ByteRange entries, ByteRange entities,
                                                                    KeyOrder order) {
        ReadOnlyKeyValueStore<String, byte[]> builds = keyValue(StoreNames.INDEX_BUILDS,
                partition, replica);
        ReadOnlyKeyValueStore<Bytes, byte[]> index = keyValue(StoreNames.INDEXES, partition,
                replica);
        ReadOnlyKeyValueStore<Bytes, byte[]> rows = store(replica, partition);
        PartitionDeletions.View deleted = deletions(replica, partition, tableId);
        try {
            String key = IndexBuild.key(tableId, indexId);
            byte[] build = builds.get(key);
            if (build == null || IndexBuild.decode(key, build).state() != IndexBuild.State.READY) {
                return Optional.empty();
            }
            KeyValueIterator<Bytes, byte[]> it = null;
            if (!entries.isEmpty()) {
                // both bounds inclusive: the cursor drops the exclusive end
                Bytes from = Bytes.wrap(entries.fromInclusive());
                Bytes to = Bytes.wrap(entries.toExclusive());
                it = order.descending() ? index.reverseRange(from, to) : index.range(from, to);
            }
            return Optional.of(new IndexOrderCursor(it, entries, indexId, property, entities, rows,
                    EdmDateTime.of(clock.instant()), deleted));
        } catch (InvalidStateStoreException e) {
            throw QueryableStores.translate(e);
        }
    }

    @Override
    public List<IndexBuild> indexBuilds(StoreReplica replica, int partition, long tableId) {
        ReadOnlyKeyValueStore<String, byte[]> builds = keyValue(StoreNames.INDEX_BUILDS,
                partition, replica);
        List<IndexBuild> out = new ArrayList<>();
        try (KeyValueIterator<String, byte[]> it = builds.range(IndexBuild.key(tableId, 0),
                IndexBuild.key(tableId, Long.MAX_VALUE))) {
            while (it.hasNext()) {
                KeyValue<String, byte[]> kv = it.next();
                out.add(IndexBuild.decode(kv.key, kv.value));
            }
        } catch (InvalidStateStoreException e) {
            throw QueryableStores.translate(e);
        }
        return out;
    }

    @Override
    public Optional<io.tablestream.core.command.TransactionStatus> transaction(StoreReplica replica, int partition,
                                                                            String account, String transactionId) {
        ReadOnlyKeyValueStore<String, byte[]> store = keyValue(StoreNames.TRANSACTIONS,
                partition, replica);
        requireReadable(partition);
        try {
            byte[] value = store.get(io.tablestream.processor.store.TransactionKeys.of(account, transactionId));
            return value == null ? Optional.empty()
                    : Optional.of(progress.overlay(io.tablestream.schemas.LogCodecs.TRANSACTION_STATUS.decode(value)));
        } catch (InvalidStateStoreException e) {
            throw QueryableStores.translate(e);
        }
    }

    /**
     * The row stored at {@code storeKey} (the encoding of {@code key}) when it is live at
     * {@code now}: there, not expired, not deleted with its partition; else null.
     */
    private static StoredEntity liveRow(ReadOnlyKeyValueStore<Bytes, byte[]> rows, byte[] storeKey, EntityKey key,
                                        EdmDateTime now, PartitionDeletions.View deleted) {
        byte[] value;
        try {
            value = rows.get(Bytes.wrap(storeKey));
        } catch (InvalidStateStoreException e) {
            throw QueryableStores.translate(e);
        }
        if (value == null) {
            return null;
        }
        StoredEntity s = StoredEntityCodec.decode(key.partitionKey(), key.rowKey(), value);
        return s.isExpiredAt(now) || deleted.hides(s) ? null : s;
    }

    @Override
    public Optional<JobStatus> job(StoreReplica replica, int partition, String account,
                                                            String jobId) {
        ReadOnlyKeyValueStore<String, byte[]> store = jobStore(replica, partition);
        try {
            byte[] value = store.get(JobKeys.status(account, jobId));
            return value == null ? Optional.empty() : Optional.of(LogCodecs.JOB_STATUS.decode(value));
        } catch (InvalidStateStoreException e) {
            throw QueryableStores.translate(e);
        }
    }

    @Override
    public List<JobStatus> jobs(StoreReplica replica, int partition, String account) {
        ReadOnlyKeyValueStore<String, byte[]> store = jobStore(replica, partition);
        List<JobStatus> out = new ArrayList<>();
        String prefix = JobKeys.statusPrefix(account);
        try (KeyValueIterator<String, byte[]> it = store.range(prefix, JobKeys.end(prefix))) {
            while (it.hasNext()) {
                out.add(LogCodecs.JOB_STATUS.decode(it.next().value));
            }
        } catch (InvalidStateStoreException e) {
            throw QueryableStores.translate(e);
        }
        return out;
    }

    private ReadOnlyKeyValueStore<String, byte[]> jobStore(StoreReplica replica, int partition) {
        ReadOnlyKeyValueStore<String, byte[]> store = keyValue(StoreNames.JOBS, partition,
                replica);
        requireReadable(partition);
        return store;
    }

    /** The live rows at the given entity keys (in the order given), read one by one. */
    private static final class IndexedRows extends LookaheadIterator<StoredEntity> {
        private final ReadOnlyKeyValueStore<Bytes, byte[]> rows;
        private final Iterator<byte[]> keys;
        private final KeyValueIterator<Bytes, byte[]> source;
        private final EdmDateTime now;
        private final PartitionDeletions.View deleted;

        IndexedRows(ReadOnlyKeyValueStore<Bytes, byte[]> rows, Iterator<byte[]> keys,
                    KeyValueIterator<Bytes, byte[]> source, EdmDateTime now, PartitionDeletions.View deleted) {
            this.rows = rows;
            this.keys = keys;
            this.source = source;
            this.now = now;
            this.deleted = deleted;
        }

        @Override
        protected StoredEntity fetch() {
            while (keys.hasNext()) {
                byte[] key = keys.next();
                StoredEntity s = liveRow(rows, key, KeyCodec.decode(key), now, deleted);
                if (s != null) {
                    return s;
                }
            }
            return null;
        }

        @Override
        public void close() {
            if (source != null) {
                source.close();
            }
        }
    }

    /**
     * Index entries in the index's order, each with the live entity it stands for when it is the
     * entry of that entity's current value and the entity lies in the keys read. The entries are
     * read from the index's snapshot while each row is read as it is now: an entry whose row has
     * moved on (another value, gone) is passed over, so an entity is returned only where its
     * current value puts it.
     */
    private static final class IndexOrderCursor extends LookaheadIterator<IndexedEntity> {
        private final KeyValueIterator<Bytes, byte[]> it;
        private final ByteRange entries;
        private final long indexId;
        private final String property;
        private final ByteRange entities;
        private final ReadOnlyKeyValueStore<Bytes, byte[]> rows;
        private final EdmDateTime now;
        private final PartitionDeletions.View deleted;

        IndexOrderCursor(KeyValueIterator<Bytes, byte[]> it, ByteRange entries, long indexId, String property,
                         ByteRange entities, ReadOnlyKeyValueStore<Bytes, byte[]> rows, EdmDateTime now,
                         PartitionDeletions.View deleted) {
            this.it = it;
            this.entries = entries;
            this.indexId = indexId;
            this.property = property;
            this.entities = entities;
            this.rows = rows;
            this.now = now;
            this.deleted = deleted;
        }

        @Override
        protected IndexedEntity fetch() {
            while (it != null && it.hasNext()) {
                byte[] entry = it.next().key.get();
                if (!entries.contains(entry)) {
                    continue; // only an inclusive bound can be outside: the first key or the last
                }
                IndexPosition position = IndexPosition.ofEntry(entry);
                EntityKey key = IndexKeys.entityOf(entry);
                byte[] rowKey = KeyCodec.encode(key);
                if (!entities.contains(rowKey)) {
                    return new IndexedEntity(position, null);
                }
                StoredEntity s = liveRow(rows, rowKey, key, now, deleted);
                boolean current = s != null && IndexKeys.isEntryOf(entry, indexId, s.entity().property(property), key);
                return new IndexedEntity(position, current ? s : null);
            }
            return null;
        }

        @Override
        public void close() {
            if (it != null) {
                it.close();
            }
        }
    }

    /**
     * An entity's versions (newest first) with the deletions of its partition put in between: after
     * a version that left the entity in place, the first deletion of its partition written before the
     * next version (at or before {@code atOrBefore}) ended it, and is shown as a version of its own
     * ({@code PARTITION_DELETED}, no entity). Deletions before the entity's first version, or while it
     * was deleted anyway, are not its versions.
     */
    private static final class WithPartitionDeletions extends LookaheadIterator<ChangeEvent> {
        private final CloseableIterator<ChangeEvent> versions;
        private final PartitionDeletions.View deleted;
        private final String partitionKey;
        /** The latest time a deletion shown next may have: before the version shown last. */
        private long upper;
        private ChangeEvent held;
        private boolean deletionShown;

        WithPartitionDeletions(CloseableIterator<ChangeEvent> versions, PartitionDeletions.View deleted,
                               String partitionKey, EdmDateTime atOrBefore) {
            this.versions = versions;
            this.deleted = deleted;
            this.partitionKey = partitionKey;
            this.upper = atOrBefore == null ? Long.MAX_VALUE : atOrBefore.epochTicks();
        }

        @Override
        protected ChangeEvent fetch() {
            if (held == null) {
                if (!versions.hasNext()) {
                    return null;
                }
                held = versions.next();
                deletionShown = false;
            }
            long ticks = held.changedAt().epochTicks();
            if (!deletionShown && !held.change().type().removes()) {
                ChangeEvent deletion = deleted.firstBetween(partitionKey, ticks, upper);
                if (deletion != null) {
                    deletionShown = true;
                    return deletion;
                }
            }
            ChangeEvent version = held;
            held = null;
            upper = ticks - 1;
            return version;
        }

        @Override
        public void close() {
            versions.close();
        }
    }

    /** Decodes lazily, stops at the range's exclusive end, skips expired rows. */
    private static final class Cursor extends LookaheadIterator<StoredEntity> {
        private final KeyValueIterator<Bytes, byte[]> it;
        private final ByteRange range;
        private final boolean descending;
        private final EdmDateTime now;
        private final PartitionDeletions.View deleted;

        Cursor(KeyValueIterator<Bytes, byte[]> it, ByteRange range, boolean descending, EdmDateTime now,
               PartitionDeletions.View deleted) {
            this.it = it;
            this.range = range;
            this.descending = descending;
            this.now = now;
            this.deleted = deleted;
        }

        @Override
        protected StoredEntity fetch() {
            while (it != null && it.hasNext()) {
                KeyValue<Bytes, byte[]> kv = it.next();
                byte[] key = kv.key.get();
                if (!range.contains(key)) {
                    // only the inclusive upper bound can be outside: the last key ascending, the first descending
                    if (descending) {
                        continue;
                    }
                    return null;
                }
                EntityKey k = KeyCodec.decode(key);
                StoredEntity s = StoredEntityCodec.decode(k.partitionKey(), k.rowKey(), kv.value);
                if (!s.isExpiredAt(now) && !deleted.hides(s)) {
                    return s;
                }
            }
            return null;
        }

        @Override
        public void close() {
            if (it != null) {
                it.close();
            }
        }
    }
}
