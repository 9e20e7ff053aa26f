package io.tablestream.processor.internal;

import io.tablestream.processor.StoreMemory;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Cache;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.WriteBufferManager;
import org.apache.kafka.streams.state.RocksDBConfigSetter;

/**
 * Bounds the memory of every RocksDB store of the instance together: one block cache and one
 * write-buffer budget shared by all stores (Kafka Streams' default gives each of the dozens of
 * store instances — stores × partitions — its own 50 MiB cache and 3 × 16 MiB memtables). Index
 * and filter blocks live in the cache too, so they count against the bound.
 *
 * <p>Kafka Streams creates the setter by its class name, so the budget reaches it as two entries of
 * the Streams configuration ({@link #settings}); every store of a budget shares that budget's cache.
 */
public final class BoundedRocksDbMemory implements RocksDBConfigSetter {
    /** The Streams configuration entry carrying {@link StoreMemory#totalBytes()}. */
    static final String TOTAL_BYTES_CONFIG = "tablestream.rocksdb.memory.bytes";
    /** The Streams configuration entry carrying {@link StoreMemory#writeBufferBytes()}. */
    static final String WRITE_BUFFER_BYTES_CONFIG = "tablestream.rocksdb.write.buffer.bytes";
    private static final long MEMTABLE_BYTES = 8L * 1024 * 1024;

    /** One cache and write-buffer manager per budget, shared by every store given that budget, never closed. */
    private static final Map<StoreMemory, Shared> SHARED = new ConcurrentHashMap<>();

    /** The cache and write-buffer manager of one budget. */
    record Shared(Cache cache, WriteBufferManager writeBuffers) {
    }

    /** The Streams configuration entries that give the stores {@code memory}. */
    public static Map<String, Object> settings(StoreMemory memory) {
        return Map.of(TOTAL_BYTES_CONFIG, memory.totalBytes(), WRITE_BUFFER_BYTES_CONFIG, memory.writeBufferBytes());
    }

    /** Bytes the shared block caches hold now, the memtables charged to them included. */
    public static long usedBytes() {
        long used = 0;
        for (Shared s : SHARED.values()) {
            used += s.cache().getUsage();
        }
        return used;
    }

    /** The budget the Streams configuration {@code configs} names ({@link StoreMemory#DEFAULT} when it names none). */
    static StoreMemory budget(Map<String, Object> configs) {
        Object total = configs.get(TOTAL_BYTES_CONFIG);
        Object writeBuffers = configs.get(WRITE_BUFFER_BYTES_CONFIG);
        return new StoreMemory(total == null ? StoreMemory.DEFAULT.totalBytes() : Long.parseLong(total.toString()),
                writeBuffers == null ? StoreMemory.DEFAULT.writeBufferBytes() : Long.parseLong(writeBuffers.toString()));
    }

    /** The cache and write buffers of {@code memory}, made on first use. */
    static Shared shared(StoreMemory memory) {
        return SHARED.computeIfAbsent(memory, m -> {
            RocksDB.loadLibrary(); // a cache may be made before any RocksDB object has loaded the native library
            Cache cache = new LRUCache(m.totalBytes(), -1, false, 0.1);
            return new Shared(cache, new WriteBufferManager(m.writeBufferBytes(), cache));
        });
    }

    @Override
    public void setConfig(String storeName, Options options, Map<String, Object> configs) {
        Shared shared = shared(budget(configs));
        BlockBasedTableConfig table = (BlockBasedTableConfig) options.tableFormatConfig();
        table.setBlockCache(shared.cache());
        table.setCacheIndexAndFilterBlocks(true);
        table.setCacheIndexAndFilterBlocksWithHighPriority(true);
        table.setPinTopLevelIndexAndFilter(true);
        options.setWriteBufferManager(shared.writeBuffers());
        options.setWriteBufferSize(MEMTABLE_BYTES);
        options.setMaxWriteBufferNumber(2);
        options.setTableFormatConfig(table);
    }

    @Override
    public void close(String storeName, Options options) {
        // The cache and the write-buffer manager are shared by every store: never closed here.
    }
}
