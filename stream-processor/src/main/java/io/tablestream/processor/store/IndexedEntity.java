package io.tablestream.processor.store;

import io.tablestream.core.model.StoredEntity;
import io.tablestream.core.storekey.IndexPosition;
import java.util.Objects;

/**
 * One entry of a secondary index read in the index's order: its place in the order, and the live
 * entity it stands for — or null when the entry was examined but stands for no entity to return
 * (outside the keys read, gone, expired, deleted with its partition, or a stale entry of a value
 * the entity no longer has).
 */
public record IndexedEntity(IndexPosition position, StoredEntity entity) {
    public IndexedEntity {
        Objects.requireNonNull(position, "position");
    }
}
