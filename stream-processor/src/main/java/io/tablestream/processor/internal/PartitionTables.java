package io.tablestream.processor.internal;

import io.tablestream.core.command.ChangeEvent;
import io.tablestream.core.model.IndexDefinition;
import io.tablestream.core.model.StoredEntity;
import io.tablestream.core.model.TableRecord;
import io.tablestream.schemas.LogCodecs;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The tables as one partition knows them: from the {@link io.tablestream.core.command.TableAnnouncement}s
 * in its own command log, kept in the task's change-logged {@code partition-tables} store. Whether an
 * entity command finds its table is decided here, never by the registry's global view (which
 * another thread updates at its own pace: a replay after a crash could find a table deleted since,
 * or not yet created, and decide otherwise than the answer already given).
 *
 * <p>Tables created before announcements existed were never announced; for those the global view
 * is asked once whether the id was ever registered (a registered id stays registered forever, so
 * the answer never changes), and they count as live until their deletion is announced.
 */
final class PartitionTables {
    private final KeyValueStore<String, byte[]> store;
    private final RegistryView registry;
    /** Decoded records of the store, and the ids found only in the global view (never evicted: tables are few). */
    private final Map<Long, TableRecord> known = new HashMap<>();
    /** Whether the store may hold partition deletions of a table (false: it holds none; the common case costs no lookup). */
    private final Map<Long, Boolean> mayHaveDeletions = new HashMap<>();

    PartitionTables(KeyValueStore<String, byte[]> store, RegistryView registry) {
        this.store = store;
        this.registry = registry;
    }

    /** Records an announcement: the table exists from here on, or (deleted) no longer does. */
    void learn(TableRecord table) {
        store.put(RegistryKey.byId(table.tableId()), LogCodecs.TABLE_RECORD.encode(table));
        known.put(table.tableId(), table);
    }

    /** The live table {@code tableId} of {@code account}, as this partition knows it at this point of its log. */
    Optional<TableRecord> live(long tableId, String account) {
        return byId(tableId).filter(t -> t.isActive() && t.account().equals(account));
    }

    /** The table {@code tableId} as this partition knows it at this point of its log, live or deleted. */
    Optional<TableRecord> byId(long tableId) {
        TableRecord t = known.get(tableId);
        if (t == null) {
            byte[] bytes = store.get(RegistryKey.byId(tableId));
            if (bytes != null) {
                t = LogCodecs.TABLE_RECORD.decode(bytes);
            } else {
                // Never announced here: a table registered before announcements existed (or no table).
                // Its indexes are not taken from the global view: each is known here from its announcement.
                t = registry.byId(tableId).map(r -> new TableRecord(r.account(), r.name(), r.tableId(),
                        TableRecord.State.ACTIVE, r.createdAt(), null, r.defaultTtlSeconds(), List.of(),
                        r.historyRetentionSeconds(), List.of())).orElse(null);
                if (t == null) {
                    return Optional.empty(); // not cached: an unknown id is rare and may be created later
                }
            }
            known.put(tableId, t);
        }
        return Optional.of(t);
    }

    /** The secondary indexes of table {@code tableId} at this point of the partition's log (none once deleted). */
    List<IndexDefinition> indexes(long tableId) {
        return byId(tableId).filter(TableRecord::isActive).map(TableRecord::indexes).orElse(List.of());
    }

    /** Ids of the tables whose deletion this partition has seen: their rows are to be swept. */
    List<Long> deleted() {
        List<Long> ids = new ArrayList<>();
        try (KeyValueIterator<String, byte[]> it = store.range(RegistryKey.idStart(), RegistryKey.idEnd())) {
            while (it.hasNext()) {
                KeyValue<String, byte[]> kv = it.next();
                TableRecord t = LogCodecs.TABLE_RECORD.decode(kv.value);
                if (!t.isActive()) {
                    ids.add(t.tableId());
                }
            }
        }
        return ids;
    }

    /**
     * Records the deletion of a whole PartitionKey ({@code event}, a {@code PARTITION_DELETED}
     * change at the deletion's Timestamp). A table without history needs only the newest deletion
     * of a partition, so older ones are dropped; a table with history keeps them all, as its
     * point-in-time reads and entity histories need them.
     */
    void deletePartition(ChangeEvent event, boolean keepEarlier) {
        long tableId = event.change().tableId();
        String partitionKey = event.change().partitionKey();
        if (!keepEarlier) {
            for (PartitionDeletions.Deletion d : deletionsOf(tableId, partitionKey)) {
                store.delete(d.key());
            }
        }
        store.put(PartitionDeletions.key(tableId, partitionKey, event.changedAt().epochTicks()),
                LogCodecs.CHANGE_EVENT.encode(event));
        mayHaveDeletions.put(tableId, true);
    }

    /**
     * The Timestamp of the newest deletion of the PartitionKey (every row written at or before it
     * is gone), or {@link Long#MIN_VALUE} when it was never deleted.
     */
    long partitionDeletedAt(long tableId, String partitionKey) {
        boolean may = mayHaveDeletions.computeIfAbsent(tableId, id -> {
            String prefix = PartitionDeletions.tablePrefix(id);
            try (KeyValueIterator<String, byte[]> it = store.range(prefix, PartitionDeletions.end(prefix))) {
                return it.hasNext();
            }
        });
        if (!may) {
            return Long.MIN_VALUE;
        }
        List<PartitionDeletions.Deletion> deletions = deletionsOf(tableId, partitionKey);
        return deletions.isEmpty() ? Long.MIN_VALUE : deletions.get(deletions.size() - 1).ticks();
    }

    /** Whether {@code stored} (a row of this task) is gone because its partition was deleted after it was written. */
    boolean deletedWithPartition(long tableId, StoredEntity stored) {
        return stored != null && stored.entity().timestamp().epochTicks()
                <= partitionDeletedAt(tableId, stored.entity().partitionKey());
    }

    /**
     * Whether a deletion of the PartitionKey lies at or after {@code fromTicks} and at or before
     * {@code toTicks}: a row written at {@code fromTicks} was gone by {@code toTicks}.
     */
    boolean deletedBetween(long tableId, String partitionKey, long fromTicks, long toTicks) {
        if (partitionDeletedAt(tableId, partitionKey) < fromTicks) {
            return false; // the common case: no deletion since the row was written (or none at all)
        }
        for (PartitionDeletions.Deletion d : deletionsOf(tableId, partitionKey)) {
            if (d.ticks() >= fromTicks && d.ticks() <= toTicks) {
                return true;
            }
        }
        return false;
    }

    /** The partition deletions of table {@code tableId} this task holds, as a lookup by PartitionKey. */
    PartitionDeletions.View deletionsOf(long tableId) {
        return PartitionDeletions.of(store, tableId);
    }

    /** Every partition deletion this task holds, of every table, oldest first per partition. */
    List<PartitionDeletions.Deletion> partitionDeletions() {
        return PartitionDeletions.all(store);
    }

    /** Forgets a partition deletion (its rows are swept and its table keeps no history, or the table is gone). */
    void forget(PartitionDeletions.Deletion deletion) {
        store.delete(deletion.key());
    }

    private List<PartitionDeletions.Deletion> deletionsOf(long tableId, String partitionKey) {
        List<PartitionDeletions.Deletion> out = new ArrayList<>();
        String prefix = PartitionDeletions.partitionPrefix(tableId, partitionKey);
        try (KeyValueIterator<String, byte[]> it = store.range(prefix, PartitionDeletions.end(prefix))) {
            while (it.hasNext()) {
                out.add(PartitionDeletions.Deletion.parse(it.next().key));
            }
        }
        return out;
    }
}
