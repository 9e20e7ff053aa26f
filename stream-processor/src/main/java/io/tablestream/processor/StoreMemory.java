package io.tablestream.processor;

/**
 * The memory every RocksDB store of the instance shares: one block cache of {@code totalBytes}
 * (index and filter blocks included), of which memtables may take {@code writeBufferBytes}.
 */
public record StoreMemory(long totalBytes, long writeBufferBytes) {
    /** 192 MiB in all, 64 MiB of it for memtables. */
    public static final StoreMemory DEFAULT = new StoreMemory(192L * 1024 * 1024, 64L * 1024 * 1024);
    /** Below this the stores thrash: every read of an index block goes to disk. */
    public static final long MIN_TOTAL_BYTES = 16L * 1024 * 1024;

    public StoreMemory {
        if (totalBytes < MIN_TOTAL_BYTES) {
            throw new IllegalArgumentException("the RocksDB memory budget must be at least " + MIN_TOTAL_BYTES
                    + " bytes: " + totalBytes);
        }
        if (writeBufferBytes < 1 || writeBufferBytes >= totalBytes) {
            throw new IllegalArgumentException("the memtables' share must be positive and below the RocksDB memory"
                    + " budget (" + totalBytes + " bytes): " + writeBufferBytes);
        }
    }
}
