package io.tablestream.query.plan;

import io.tablestream.core.codec.ByteRange;
import io.tablestream.core.codec.KeyCodec;
import io.tablestream.core.command.CommandKey;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.EdmInt32;
import io.tablestream.core.model.Entity;
import io.tablestream.core.model.EntityKey;
import io.tablestream.core.model.StoredEntity;
import io.tablestream.processor.store.CloseableIterator;
import io.tablestream.processor.store.EntityStore;
import io.tablestream.query.routing.KeyLocator;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/** Sorted in-memory stores, one per partition, keyed like the real ones; counts open cursors. */
final class InMemoryPartitions implements EntityStore, KeyLocator {
    static final long TABLE = 7L;
    static final int PARTITIONS = 4;

    final List<TreeMap<byte[], StoredEntity>> partitions = new ArrayList<>();
    final Set<Integer> local = new HashSet<>();
    int open;

    InMemoryPartitions() {
        for (int p = 0; p < InMemoryPartitions.PARTITIONS; p++) {
            partitions.add(new TreeMap<>(Arrays::compareUnsigned));
            local.add(p);
        }
    }

    void put(String pk, String rk, int n) {
        put(Entity.of(pk, rk, Map.of("N", EdmInt32.of(n))).withVersion(EdmDateTime.ofEpochTicks(1)));
    }

    void put(Entity e) {
        int p = partitionOf(CommandKey.forEntity("acct", InMemoryPartitions.TABLE, e.partitionKey()));
        partitions.get(p).put(KeyCodec.encode(InMemoryPartitions.TABLE, e.partitionKey(), e.rowKey()), new StoredEntity(e, null));
    }

    @Override
    public Set<Integer> localPartitions() {
        return local;
    }

    @Override
    public Optional<StoredEntity> get(int partition, EntityKey key) {
        return Optional.ofNullable(partitions.get(partition).get(KeyCodec.encode(key)));
    }

    @Override
    public CloseableIterator<StoredEntity> scan(int partition, ByteRange range) {
        Iterator<StoredEntity> it = range.isEmpty() ? List.<StoredEntity>of().iterator()
                : partitions.get(partition).subMap(range.fromInclusive(), true, range.toExclusive(), false)
                .values().iterator();
        open++;
        return new CloseableIterator<>() {
            public boolean hasNext() {
                return it.hasNext();
            }

            public StoredEntity next() {
                return it.next();
            }

            public void close() {
                open--;
            }
        };
    }

    @Override
    public int partitionOf(CommandKey key) {
        return Math.floorMod(key.value().hashCode(), InMemoryPartitions.PARTITIONS);
    }

    @Override
    public int partitions() {
        return InMemoryPartitions.PARTITIONS;
    }

    static InMemoryPartitions of(List<Entity> entities) {
        InMemoryPartitions stores = new InMemoryPartitions();
        entities.forEach(stores::put);
        return stores;
    }
}
