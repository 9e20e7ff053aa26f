package io.tablestream.processor.internal.state;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.locks.StampedLock;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.processor.BatchingStateRestoreCallback;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.Query;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.RocksDBConfigSetter;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.DBOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * A persistent key-value store whose files hold only committed writes, with the changelog offset
 * they reach (see the package documentation). Writes of the open transaction live in memory until
 * {@link #transactionCommitted}; readers (the processor and interactive queries) see them on top of
 * the files. The offset sits in a column family of its own, written in the same atomic batch as the
 * data, through RocksDB's write-ahead log: a process killed at any point leaves the files at a
 * committed transaction boundary, never inside one.
 *
 * <p>One class, over 400 lines: it implements Kafka Streams' {@code KeyValueStore} contract (put,
 * get, range, prefix scans, iterators in both directions) over two layers, the open transaction's
 * writes and the files, and every method must see both merged the same way.
 */
public final class CommittedKeyValueStore implements KeyValueStore<Bytes, byte[]> {
    private static final byte[] OFFSETS_FAMILY = "tablestream-changelog-offsets".getBytes(StandardCharsets.UTF_8);

    private final String name;
    /** Told of every key this store opens with or takes in under its watched prefix; null when none is watched. */
    private final KeyPresence presence;
    /** The open transaction's writes; a null value is a delete. */
    private final ConcurrentSkipListMap<Bytes, Pending> pending = new ConcurrentSkipListMap<>();
    private final Set<MergedIterator> openIterators = ConcurrentHashMap.newKeySet();
    /** Held by a close and by the writes, commits and iterators' openings: none of them runs beside another. */
    private final Object lifecycle = new Object();
    /**
     * Held shared by each {@link #get} of the files and exclusively by {@link #close}: a close waits
     * for the gets under way and frees the database only then, and a get that comes after sees the
     * store closed. Gets do not wait for each other, nor for a commit writing its batch (RocksDB
     * takes reads beside writes).
     */
    private final StampedLock gets = new StampedLock();

    private volatile boolean open;
    private StateStoreContext context;
    private TopicPartition changelog;
    private Position position = Position.emptyPosition();
    private RocksDB db;
    private ColumnFamilyHandle data;
    private ColumnFamilyHandle offsets;
    private final List<AutoCloseable> natives = new ArrayList<>();
    private WriteOptions writeOptions;

    /** A value of the open transaction; {@code value} null deletes the key. */
    private record Pending(byte[] value) {
    }

    CommittedKeyValueStore(String name) {
        this(name, null);
    }

    CommittedKeyValueStore(String name, KeyPresence presence) {
        this.name = name;
        this.presence = presence;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void init(StateStoreContext context, StateStore root) {
        this.context = context;
        this.changelog = new TopicPartition(context.applicationId() + "-" + name + "-changelog",
                context.taskId().partition());
        File dir = new File(new File(context.stateDir(), "committed-rocksdb"), name);
        try {
            Files.createDirectories(dir.toPath());
        } catch (IOException e) {
            throw new ProcessorStateException("Cannot create the directory of store " + name + ": " + dir, e);
        }
        openDatabase(dir, context.appConfigs());
        if (presence != null) {
            try (RocksIterator first = db.newIterator(data)) {
                first.seek(presence.prefix());
                if (first.isValid()) {
                    presence.saw(context.taskId().partition(), first.key());
                }
            }
        }
        open = true;
        context.register(root, (BatchingStateRestoreCallback) this::restoreAll, () -> {
        });
    }

    private void openDatabase(File dir, Map<String, Object> configs) {
        Options options = new Options();
        BlockBasedTableConfig table = new BlockBasedTableConfig();
        table.setFilterPolicy(new BloomFilter());
        options.setTableFormatConfig(table);
        options.setCompressionType(CompressionType.LZ4_COMPRESSION);
        options.setCreateIfMissing(true);
        options.setCreateMissingColumnFamilies(true);
        options.setIncreaseParallelism(2);
        // A bloom filter over each memtable's keys: a get of a key the memtable lacks (every insert
        // of a new entity) skips the skip-list search, which was ~5% of a stream thread's CPU.
        options.setMemtablePrefixBloomSizeRatio(0.05);
        options.setMemtableWholeKeyFiltering(true);
        RocksDBConfigSetter setter = configSetter(configs.get(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG));
        if (setter != null) {
            setter.setConfig(name, options, configs);
        }
        DBOptions dbOptions = new DBOptions(options);
        ColumnFamilyOptions dataOptions = new ColumnFamilyOptions(options);
        ColumnFamilyOptions offsetOptions = new ColumnFamilyOptions().setWriteBufferSize(64 * 1024);
        natives.addAll(List.of(offsetOptions, dataOptions, dbOptions, options));
        List<ColumnFamilyHandle> handles = new ArrayList<>();
        try {
            db = RocksDB.open(dbOptions, dir.getAbsolutePath(), List.of(
                    new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, dataOptions),
                    new ColumnFamilyDescriptor(OFFSETS_FAMILY, offsetOptions)), handles);
        } catch (RocksDBException e) {
            closeNatives();
            throw new ProcessorStateException("Cannot open store " + name + " in " + dir, e);
        }
        data = handles.get(0);
        offsets = handles.get(1);
        // Through the write-ahead log (not synced): a killed process keeps every batch written.
        writeOptions = new WriteOptions();
        natives.add(0, writeOptions);
    }

    /** The RocksDB configuration Kafka Streams' own stores would get ({@code rocksdb.config.setter}). */
    private RocksDBConfigSetter configSetter(Object configured) {
        if (configured == null) {
            return null;
        }
        try {
            Class<?> type = configured instanceof Class<?> c ? c : Class.forName(configured.toString());
            return (RocksDBConfigSetter) type.getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException | ClassCastException e) {
            throw new ProcessorStateException("Cannot configure RocksDB for store " + name + " with " + configured, e);
        }
    }

    // ---- the transaction's life ----

    /** The open transaction committed: its writes and the changelog offset they reach go to disk. */
    void transactionCommitted(Map<TopicPartition, Long> changelogOffsets) {
        synchronized (lifecycle) {
            if (!open) {
                return;
            }
            Long offset = changelogOffsets.get(changelog);
            persist(offset == null ? Map.of() : Map.of(changelog, offset), false);
        }
    }

    /** The open transaction was aborted: its writes are forgotten. */
    void transactionAborted() {
        pending.clear();
    }

    /**
     * Kafka Streams' own commit of this store: after restoring, when a standby catches up, and when
     * the task closes or suspends cleanly (each after its transaction committed). An empty map
     * forgets every offset (Kafka Streams then rebuilds the store); a null offset forgets that one.
     */
    @Override
    public void commit(Map<TopicPartition, Long> changelogOffsets) {
        synchronized (lifecycle) {
            if (!open) {
                return;
            }
            if (changelogOffsets.isEmpty()) {
                pending.clear();
                persist(Map.of(), true);
            } else {
                persist(changelogOffsets, false);
            }
        }
    }

    /** Writes the pending values and {@code changelogOffsets} in one batch; empties the pending values. */
    private void persist(Map<TopicPartition, Long> changelogOffsets, boolean forgetAllOffsets) {
        NavigableMap<Bytes, Pending> snapshot = copy(pending);
        try (WriteBatch batch = new WriteBatch()) {
            for (Map.Entry<Bytes, Pending> e : snapshot.entrySet()) {
                if (e.getValue().value() == null) {
                    batch.delete(data, e.getKey().get());
                } else {
                    batch.put(data, e.getKey().get(), e.getValue().value());
                }
            }
            if (forgetAllOffsets) {
                batch.delete(offsets, offsetKey(changelog));
            }
            for (Map.Entry<TopicPartition, Long> o : changelogOffsets.entrySet()) {
                if (o.getValue() == null) {
                    batch.delete(offsets, offsetKey(o.getKey()));
                } else {
                    batch.put(offsets, offsetKey(o.getKey()), ByteBuffer.allocate(8).putLong(o.getValue()).array());
                }
            }
            if (batch.count() > 0) {
                db.write(writeOptions, batch);
            }
        } catch (RocksDBException e) {
            throw new ProcessorStateException("Cannot write the committed transaction of store " + name, e);
        }
        // Readers see the same values in the files now; an entry written again since stays.
        snapshot.forEach(pending::remove);
    }

    @Override
    public Long committedOffset(TopicPartition partition) {
        synchronized (lifecycle) {
            requireOpen();
            try {
                byte[] value = db.get(offsets, offsetKey(partition));
                return value == null ? null : ByteBuffer.wrap(value).getLong();
            } catch (RocksDBException e) {
                throw new ProcessorStateException("Cannot read the committed offset of store " + name, e);
            }
        }
    }

    @Override
    @SuppressWarnings("deprecation")
    public boolean managesOffsets() {
        return true;
    }

    private static byte[] offsetKey(TopicPartition partition) {
        return (partition.topic() + "/" + partition.partition()).getBytes(StandardCharsets.UTF_8);
    }

    /** Changelog records read back while restoring (or by a standby): committed, so straight to disk. */
    void restoreAll(Collection<KeyValue<byte[], byte[]>> records) {
        synchronized (lifecycle) {
            requireOpen();
            try (WriteBatch batch = new WriteBatch()) {
                for (KeyValue<byte[], byte[]> record : records) {
                    if (presence != null && record.value != null) {
                        presence.saw(context.taskId().partition(), record.key);
                    }
                    if (record.value == null) {
                        batch.delete(data, record.key);
                    } else {
                        batch.put(data, record.key, record.value);
                    }
                }
                db.write(writeOptions, batch);
            } catch (RocksDBException e) {
                throw new ProcessorStateException("Cannot restore store " + name, e);
            }
        }
    }

    // ---- writes (the stream thread) ----

    @Override
    public void put(Bytes key, byte[] value) {
        requireOpen();
        if (presence != null && value != null) {
            presence.saw(context.taskId().partition(), key.get()); // before a reader can see it
        }
        pending.put(key, new Pending(value));
        TransactionBoundStores.written(this);
        updatePosition();
    }

    private void updatePosition() {
        context.recordMetadata().ifPresent(m -> {
            if (m.topic() != null) {
                position.withComponent(m.topic(), m.partition(), m.offset());
            }
        });
    }

    @Override
    public byte[] putIfAbsent(Bytes key, byte[] value) {
        byte[] existing = get(key);
        if (existing == null) {
            put(key, value);
        }
        return existing;
    }

    @Override
    public void putAll(List<KeyValue<Bytes, byte[]>> entries) {
        for (KeyValue<Bytes, byte[]> e : entries) {
            put(e.key, e.value);
        }
    }

    @Override
    public byte[] delete(Bytes key) {
        byte[] existing = get(key);
        put(key, null);
        return existing;
    }

    // ---- reads (the stream thread and interactive queries) ----

    @Override
    public byte[] get(Bytes key) {
        Pending p = pending.get(key);
        if (p != null) {
            return p.value();
        }
        long stamp = getStarts();
        try {
            requireOpen();
            return db.get(data, key.get());
        } catch (RocksDBException e) {
            throw new ProcessorStateException("Cannot read store " + name, e);
        } finally {
            getEnds(stamp);
        }
    }

    /** A get of the files begins: a close waits until it {@link #getEnds}. */
    long getStarts() {
        return gets.readLock();
    }

    void getEnds(long stamp) {
        gets.unlockRead(stamp);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> range(Bytes from, Bytes to) {
        return iterator(from, to, false);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> reverseRange(Bytes from, Bytes to) {
        return iterator(from, to, true);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> all() {
        return iterator(null, null, false);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> reverseAll() {
        return iterator(null, null, true);
    }

    @Override
    public <PS extends Serializer<P>, P> KeyValueIterator<Bytes, byte[]> prefixScan(P prefix, PS serializer) {
        byte[] start = serializer.serialize(null, prefix);
        return MergedIterator.whilePrefixed(iterator(Bytes.wrap(start), null, false), start);
    }

    /** From {@code from} to {@code to}, both included, null meaning unbounded. */
    private KeyValueIterator<Bytes, byte[]> iterator(Bytes from, Bytes to, boolean reverse) {
        if (from != null && to != null && from.compareTo(to) > 0) {
            return MergedIterator.empty();
        }
        // The pending values first, the files second: a commit in between moves values from the first
        // to the second, so they are seen in one or the other (or both), never in neither.
        NavigableMap<Bytes, Pending> overlay = copy(bounded(from, to));
        synchronized (lifecycle) {
            requireOpen();
            RocksIterator cursor = db.newIterator(data);
            MergedIterator it = new MergedIterator(this, cursor, reverse ? overlay.descendingMap() : overlay,
                    from, to, reverse);
            openIterators.add(it);
            return it;
        }
    }

    /**
     * A copy of a view of the pending writes, entry by entry: the stream thread may change them
     * meanwhile (TreeMap's copy constructor reads the size first and fails when entries go).
     */
    private static NavigableMap<Bytes, Pending> copy(NavigableMap<Bytes, Pending> view) {
        NavigableMap<Bytes, Pending> copy = new TreeMap<>();
        for (Map.Entry<Bytes, Pending> e : view.entrySet()) {
            copy.put(e.getKey(), e.getValue());
        }
        return copy;
    }

    private NavigableMap<Bytes, Pending> bounded(Bytes from, Bytes to) {
        if (from == null && to == null) {
            return pending;
        }
        if (from == null) {
            return pending.headMap(to, true);
        }
        if (to == null) {
            return pending.tailMap(from, true);
        }
        return pending.subMap(from, true, to, true);
    }

    void closed(MergedIterator it) {
        openIterators.remove(it);
    }

    /** The value of a pending entry, or null for a delete; for {@link MergedIterator}. */
    static byte[] valueOf(Object pendingEntry) {
        return ((Pending) pendingEntry).value();
    }

    @Override
    public long approximateNumEntries() {
        synchronized (lifecycle) {
            requireOpen();
            try {
                long files = db.getLongProperty(data, "rocksdb.estimate-num-keys");
                return Math.max(0, files) + pending.size();
            } catch (RocksDBException e) {
                return pending.size();
            }
        }
    }

    // ---- lifecycle ----

    @Override
    public boolean persistent() {
        return true;
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    /** Closes the store; writes of a transaction that has not committed are forgotten. */
    @Override
    public void close() {
        synchronized (lifecycle) {
            if (!open) {
                return;
            }
            long stamp = gets.writeLock(); // after every get under way
            try {
                open = false;
                TransactionBoundStores.forget(this);
                pending.clear();
                for (MergedIterator it : List.copyOf(openIterators)) {
                    it.close();
                }
                closeNatives();
            } finally {
                gets.unlockWrite(stamp);
            }
        }
    }

    private void closeNatives() {
        if (data != null) {
            data.close();
        }
        if (offsets != null) {
            offsets.close();
        }
        if (db != null) {
            db.close();
        }
        for (AutoCloseable c : natives) {
            try {
                c.close();
            } catch (Exception e) {
                // native handles: nothing to do about a failure to free one
            }
        }
        natives.clear();
    }

    private void requireOpen() {
        if (!open) {
            throw new org.apache.kafka.streams.errors.InvalidStateStoreException("Store " + name + " is closed");
        }
    }

    @Override
    public <R> QueryResult<R> query(Query<R> query, PositionBound positionBound, QueryConfig config) {
        return QueryResult.forUnknownQueryType(query, this);
    }

    @Override
    public Position getPosition() {
        return position;
    }

    /** For tests: the number of writes not yet committed. */
    int pendingWrites() {
        return pending.size();
    }

    /** For tests: what the files hold, without the pending writes. */
    Map<Bytes, byte[]> onDisk() {
        Map<Bytes, byte[]> all = new HashMap<>();
        synchronized (lifecycle) {
            try (RocksIterator it = db.newIterator(data)) {
                for (it.seekToFirst(); it.isValid(); it.next()) {
                    all.put(Bytes.wrap(it.key()), it.value());
                }
            }
        }
        return all;
    }
}
