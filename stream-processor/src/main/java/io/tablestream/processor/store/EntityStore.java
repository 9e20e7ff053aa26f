package io.tablestream.processor.store;

import io.tablestream.core.codec.ByteRange;
import io.tablestream.core.model.EntityKey;
import io.tablestream.core.model.StoredEntity;
import java.util.Optional;
import java.util.Set;

/**
 * Read access to the entity stores this instance hosts, one per command partition. Expired
 * entities are never returned. Throws {@link io.tablestream.core.error.TableServiceException}
 * with {@code ServerBusy} while a store is not queryable (starting, rebalancing, migrated), which
 * the caller answers with 503 and {@code Retry-After}.
 */
public interface EntityStore {
    /** The partitions whose stores are queryable on this instance now. */
    Set<Integer> localPartitions();

    /** The entity, if the store of {@code partition} holds it and it has not expired. */
    Optional<StoredEntity> get(int partition, EntityKey key);

    /** The entities of {@code range} in the store of {@code partition}, in key order. */
    CloseableIterator<StoredEntity> scan(int partition, ByteRange range);
}
