package io.tablestream.query.plan;

import io.tablestream.core.command.CommandKey;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.EdmInt32;
import io.tablestream.core.model.EdmValue;
import io.tablestream.core.model.Entity;
import io.tablestream.core.model.EntityKey;
import io.tablestream.core.model.KeyOrder;
import io.tablestream.core.model.StoredEntity;
import io.tablestream.core.storekey.ByteRange;
import io.tablestream.core.storekey.IndexKeys;
import io.tablestream.core.storekey.IndexPosition;
import io.tablestream.core.storekey.KeyCodec;
import io.tablestream.processor.store.CloseableIterator;
import io.tablestream.processor.store.EntityStore;
import io.tablestream.processor.store.IndexedEntity;
import io.tablestream.processor.store.StoreReplica;
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
final class InMemoryPartitions implements EntityStore {
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
    public Optional<StoredEntity> get(StoreReplica replica, int partition, EntityKey key) {
        requireLocal(partition);
        return Optional.ofNullable(partitions.get(partition).get(KeyCodec.encode(key)));
    }

    /** As the real stores: a partition not hosted here is not queryable (503). */
    private void requireLocal(int partition) {
        if (!local.contains(partition)) {
            throw TableServiceException.of(ErrorCode.SERVER_BUSY, "partition " + partition + " is not here");
        }
    }

    @Override
    public CloseableIterator<StoredEntity> scan(StoreReplica replica, int partition, ByteRange range, KeyOrder order) {
        requireLocal(partition);
        java.util.NavigableMap<byte[], StoredEntity> rows = range.isEmpty() ? new TreeMap<>(Arrays::compareUnsigned)
                : partitions.get(partition).subMap(range.fromInclusive(), true, range.toExclusive(), false);
        Iterator<StoredEntity> it = (order.descending() ? rows.descendingMap() : rows).values().iterator();
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

    /** The one secondary index these stores keep, when {@link #index} declared it: its id and property. */
    long indexId = -1;
    String indexedProperty;
    /** Partitions whose copy of the index is still being built. */
    final Set<Integer> building = new HashSet<>();

    /** Declares index {@code indexId} on {@code property}, built (READY) in every partition. */
    InMemoryPartitions index(long indexId, String property) {
        this.indexId = indexId;
        this.indexedProperty = property;
        return this;
    }

    /** As the real stores: the index's entries of the partition's rows, in the index's order. */
    @Override
    public Optional<CloseableIterator<IndexedEntity>> orderedIndexScan(StoreReplica replica, int partition,
                                                                    long tableId, long indexId, String property,
                                                                    ByteRange entries, ByteRange entities,
                                                                    KeyOrder order) {
        requireLocal(partition);
        if (indexId != this.indexId || !property.equals(indexedProperty) || building.contains(partition)) {
            return Optional.empty();
        }
        TreeMap<byte[], StoredEntity> index = new TreeMap<>(Arrays::compareUnsigned);
        for (StoredEntity s : partitions.get(partition).values()) {
            EdmValue v = s.entity().property(property);
            if (v != null && IndexKeys.indexes(v.type())) {
                index.put(IndexKeys.entry(indexId, v, EntityKey.of(tableId, s.entity().partitionKey(),
                        s.entity().rowKey())), s);
            }
        }
        java.util.NavigableMap<byte[], StoredEntity> range = entries.isEmpty() ? new TreeMap<>(Arrays::compareUnsigned)
                : index.subMap(entries.fromInclusive(), true, entries.toExclusive(), false);
        Iterator<Map.Entry<byte[], StoredEntity>> it =
                (order.descending() ? range.descendingMap() : range).entrySet().iterator();
        open++;
        return Optional.of(new CloseableIterator<>() {
            public boolean hasNext() {
                return it.hasNext();
            }

            public IndexedEntity next() {
                Map.Entry<byte[], StoredEntity> e = it.next();
                boolean inRange = entities.contains(KeyCodec.encode(IndexKeys.entityOf(e.getKey())));
                return new IndexedEntity(IndexPosition.ofEntry(e.getKey()), inRange ? e.getValue() : null);
            }

            public void close() {
                open--;
            }
        });
    }

    @Override
    public CloseableIterator<io.tablestream.core.command.ChangeEvent> history(StoreReplica replica, int partition,
                                                                            EntityKey key, EdmDateTime atOrBefore) {
        throw new UnsupportedOperationException("no entity history in these stores");
    }

    int partitionOf(CommandKey key) {
        return Math.floorMod(key.value().hashCode(), InMemoryPartitions.PARTITIONS);
    }

    /** The partitions a query reads, as the router picks them: the PartitionKey's one, or every one. */
    List<Integer> partitionsFor(EntityQuery query) {
        String pk = query.keys().singlePartitionKey();
        if (pk != null) {
            return List.of(partitionOf(CommandKey.forEntity("acct", InMemoryPartitions.TABLE, pk)));
        }
        List<Integer> all = new ArrayList<>();
        for (int p = 0; p < InMemoryPartitions.PARTITIONS; p++) {
            all.add(p);
        }
        return all;
    }

    /** A page of {@code query} read by {@code reader} from the partitions the router would pick. */
    Page read(PageReader reader, EntityQuery query, java.util.function.Predicate<Entity> visible, int rowBudget) {
        return reader.read(InMemoryPartitions.TABLE, query, visible, partitionsFor(query), p -> StoreReplica.ACTIVE, rowBudget);
    }

    static InMemoryPartitions of(List<Entity> entities) {
        InMemoryPartitions stores = new InMemoryPartitions();
        entities.forEach(stores::put);
        return stores;
    }
}
