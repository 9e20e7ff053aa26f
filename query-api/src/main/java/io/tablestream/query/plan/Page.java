package io.tablestream.query.plan;

import io.tablestream.core.continuation.EntityContinuation;
import io.tablestream.core.model.Entity;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/** One page of a query: its entities in key order, and where the next page starts (if anywhere). */
public record Page(List<Entity> entities, Optional<EntityContinuation> next) {
    /** The order Azure returns entities in (that of the store keys). */
    public static final Comparator<Entity> KEY_ORDER =
            Comparator.comparing(Entity::partitionKey).thenComparing(Entity::rowKey);

    public Page {
        entities = List.copyOf(entities);
    }
}
