package io.tablestream.processor.internal.state;

import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Supplies {@link CommittedKeyValueStore}s, configured like Kafka Streams' own RocksDB stores (by
 * {@code rocksdb.config.setter}). They need the stream threads' producers to be
 * {@link CommitNotifyingClientSupplier}'s under exactly-once processing.
 */
public record CommittedStoreSupplier(String name) implements KeyValueBytesStoreSupplier {
    @Override
    public KeyValueStore<Bytes, byte[]> get() {
        return new CommittedKeyValueStore(name);
    }

    @Override
    public String metricsScope() {
        return "rocksdb-committed";
    }
}
