package io.tablestream.processor.internal;

import java.util.Map;
import org.apache.kafka.streams.state.RocksDBConfigSetter;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Cache;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.WriteBufferManager;

/**
 * Bounds the memory of every RocksDB store of the instance together: one block cache and one
 * write-buffer budget shared by all stores (Kafka Streams' default gives each of the dozens of
 * store instances — stores × partitions — its own 50 MiB cache and 3 × 16 MiB memtables). Index
 * and filter blocks live in the cache too, so they count against the bound.
 */
public final class BoundedRocksDbMemory implements RocksDBConfigSetter {
    /** Bytes of block cache and memtables for all stores together. */
    public static final long TOTAL_BYTES = 192L * 1024 * 1024;
    /** The part of {@link #TOTAL_BYTES} memtables may take. */
    public static final long WRITE_BUFFER_BYTES = 64L * 1024 * 1024;
    private static final long MEMTABLE_BYTES = 8L * 1024 * 1024;

    private static final Cache CACHE = new LRUCache(TOTAL_BYTES, -1, false, 0.1);
    private static final WriteBufferManager WRITE_BUFFERS = new WriteBufferManager(WRITE_BUFFER_BYTES, CACHE);

    /** Bytes the shared block cache holds now, the memtables charged to it included. */
    public static long usedBytes() {
        return CACHE.getUsage();
    }

    @Override
    public void setConfig(String storeName, Options options, Map<String, Object> configs) {
        BlockBasedTableConfig table = (BlockBasedTableConfig) options.tableFormatConfig();
        table.setBlockCache(CACHE);
        table.setCacheIndexAndFilterBlocks(true);
        table.setCacheIndexAndFilterBlocksWithHighPriority(true);
        table.setPinTopLevelIndexAndFilter(true);
        options.setWriteBufferManager(WRITE_BUFFERS);
        options.setWriteBufferSize(MEMTABLE_BYTES);
        options.setMaxWriteBufferNumber(2);
        options.setTableFormatConfig(table);
    }

    @Override
    public void close(String storeName, Options options) {
        // The cache and the write-buffer manager are shared by every store: never closed here.
    }
}
