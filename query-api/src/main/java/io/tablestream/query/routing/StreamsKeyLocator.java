package io.tablestream.query.routing;

import io.tablestream.core.command.CommandKey;
import io.tablestream.processor.store.EntityStore;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.apache.kafka.common.utils.Utils;

/**
 * {@link KeyLocator} for the processor's stores: a key's partition is the one the producer's
 * default partitioner (murmur2 of the key bytes) chose for its commands, so the store that applied
 * them is the one to read.
 */
public final class StreamsKeyLocator implements KeyLocator {
    private final EntityStore store;
    private final int partitions;

    public StreamsKeyLocator(EntityStore store, int partitions) {
        this.store = store;
        this.partitions = partitions;
    }

    @Override
    public int partitionOf(CommandKey key) {
        return Utils.toPositive(Utils.murmur2(key.value().getBytes(StandardCharsets.UTF_8))) % partitions;
    }

    @Override
    public int partitions() {
        return partitions;
    }

    @Override
    public Set<Integer> localPartitions() {
        return store.localPartitions();
    }
}
