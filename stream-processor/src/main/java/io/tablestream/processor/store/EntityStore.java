package io.tablestream.processor.store;

import io.tablestream.core.command.ChangeEvent;
import io.tablestream.core.command.JobStatus;
import io.tablestream.core.filter.IndexCondition;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.EntityKey;
import io.tablestream.core.model.KeyOrder;
import io.tablestream.core.model.StoredEntity;
import io.tablestream.core.storekey.ByteRange;
import java.util.List;
import java.util.Optional;

/**
 * Read access to the entity stores this instance hosts, one per command partition (which ones:
 * {@link LocalReplicas}). Expired entities are never returned. Throws
 * {@link io.tablestream.core.error.TableServiceException}
 * with {@code ServerBusy} while a store is not queryable (starting, rebalancing, migrated), which
 * the caller answers with 503 and {@code Retry-After}.
 */
public interface EntityStore {
    /** The entity, if the active store of {@code partition} holds it and it has not expired. */
    default Optional<StoredEntity> get(int partition, EntityKey key) {
        return get(StoreReplica.ACTIVE, partition, key);
    }

    /** The entity, if the local copy ({@code replica}) of {@code partition}'s store holds it and it has not expired. */
    Optional<StoredEntity> get(StoreReplica replica, int partition, EntityKey key);

    /** The entities of {@code range} in the active store of {@code partition}, in key order. */
    default CloseableIterator<StoredEntity> scan(int partition, ByteRange range) {
        return scan(StoreReplica.ACTIVE, partition, range);
    }

    /** The entities of {@code range} in the local copy ({@code replica}) of {@code partition}'s store, in key order. */
    default CloseableIterator<StoredEntity> scan(StoreReplica replica, int partition, ByteRange range) {
        return scan(replica, partition, range, KeyOrder.ASCENDING);
    }

    /** The entities of {@code range} in the local copy ({@code replica}) of {@code partition}'s store, in {@code order}. */
    CloseableIterator<StoredEntity> scan(StoreReplica replica, int partition, ByteRange range, KeyOrder order);

    /**
     * The versions of the entity {@code key} in the entity history of the local copy
     * ({@code replica}) of {@code partition}'s stores, newest first, from the newest written at or
     * before {@code atOrBefore} (null: the newest of all), each as the change that made it. Only
     * tables that keep history have any; versions past the table's retention may still be
     * returned until they are swept (the caller drops them, see {@link io.tablestream.core.rules.History}).
     */
    CloseableIterator<ChangeEvent> history(StoreReplica replica, int partition, EntityKey key, EdmDateTime atOrBefore);

    /**
     * The entity as it was at {@code asOf} (a point-in-time read), from the entity history of the
     * local copy of {@code partition}'s stores: the newest version written at or before then, empty
     * when that was a delete or an expiry, had expired by then, or there is none. Only tables that
     * keep history can be read so, at times within their retention.
     */
    default Optional<StoredEntity> getAsOf(StoreReplica replica, int partition, EntityKey key, EdmDateTime asOf) {
        try (CloseableIterator<ChangeEvent> versions = history(replica, partition, key, asOf)) {
            return versions.hasNext() ? io.tablestream.core.rules.History.stateAt(versions.next(), asOf)
                    : Optional.empty();
        }
    }

    /**
     * The entities of {@code range} as they were at {@code asOf}, in {@code order}, from the entity
     * history of the local copy of {@code partition}'s stores (each as {@link #getAsOf} reads it).
     */
    default CloseableIterator<StoredEntity> scanAsOf(StoreReplica replica, int partition, ByteRange range,
                                                     KeyOrder order, EdmDateTime asOf) {
        throw new UnsupportedOperationException("point-in-time scans are not supported by this store");
    }

    /**
     * The live entities of {@code entities} (a key range of table {@code tableId}) whose value of the
     * indexed property satisfies {@code condition}, from the local copy of index {@code indexId} of
     * {@code partition}, in key order; each is read from the entity store, so it is the current
     * version (the caller still tests its whole filter). Empty when the index cannot answer here:
     * not READY in this copy, or a range condition with more than {@code maxEntries} entries (whose
     * results would have to be sorted in memory).
     */
    default Optional<CloseableIterator<StoredEntity>> indexScan(StoreReplica replica, int partition, long tableId,
                                                               long indexId, IndexCondition condition,
                                                               ByteRange entities, int maxEntries) {
        return Optional.empty();
    }

    /**
     * The entries of {@code entries} (a range of index {@code indexId} of table {@code tableId},
     * over {@code property}) in the local copy of {@code partition}, in the index's order
     * ({@code order}: ascending or descending), each with the entity it stands for when that is a
     * live entity of {@code entities} (a key range of the table) whose current value of the
     * property is the entry's. Empty when the index is not READY in this copy.
     */
    default Optional<CloseableIterator<IndexedEntity>> orderedIndexScan(StoreReplica replica, int partition,
                                                                     long tableId, long indexId, String property,
                                                                     ByteRange entries, ByteRange entities,
                                                                     KeyOrder order) {
        return Optional.empty();
    }

    /** How far each secondary index of table {@code tableId} is built in the local copy of {@code partition}. */
    default List<IndexBuild> indexBuilds(StoreReplica replica, int partition, long tableId) {
        return List.of();
    }

    /**
     * The status of cross-partition transaction {@code transactionId} of {@code account}, from the
     * local copy of the {@code transactions} store of {@code partition} (its coordinator's).
     */
    default Optional<io.tablestream.core.command.TransactionStatus> transaction(StoreReplica replica, int partition,
                                                                             String account, String transactionId) {
        return Optional.empty();
    }

    /**
     * The status of job {@code jobId} of {@code account}, from the local copy of the {@code jobs}
     * store of {@code partition} (its coordinator's: the partition of the account's key).
     */
    default Optional<JobStatus> job(StoreReplica replica, int partition, String account,
                                                             String jobId) {
        return Optional.empty();
    }

    /** Every job of {@code account} the local copy of {@code partition}'s {@code jobs} store keeps (its coordinator's). */
    default List<JobStatus> jobs(StoreReplica replica, int partition, String account) {
        return List.of();
    }
}
