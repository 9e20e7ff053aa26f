package io.tablestream.processor.internal.state;

import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Supplies {@link CommittedKeyValueStore}s, configured like Kafka Streams' own RocksDB stores (by
 * {@code rocksdb.config.setter}). They need the stream threads' producers to be
 * {@link CommitNotifyingClientSupplier}'s under exactly-once processing.
 *
 * @param presence told of the keys under its prefix each store holds (null: none watched); see
 *     {@link KeyPresence} for the record cache it rules out
 */
public record CommittedStoreSupplier(String name, KeyPresence presence) implements KeyValueBytesStoreSupplier {
    public CommittedStoreSupplier(String name) {
        this(name, null);
    }

    @Override
    public KeyValueStore<Bytes, byte[]> get() {
        return new CommittedKeyValueStore(name, presence);
    }

    @Override
    public String metricsScope() {
        return "rocksdb-committed";
    }
}
