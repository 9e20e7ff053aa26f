package io.tablestream.query.plan;

import io.tablestream.core.continuation.EntityContinuation;
import io.tablestream.core.model.Entity;
import java.util.Comparator;

/**
 * The order of a query's pages: of its entities, and of the continuations that name the next of
 * them (key order, reversed for a newest-first query, or a property's order,
 * {@link EntityQuery#pageOrder()}).
 */
public interface PageOrder {
    /** Ascending (PartitionKey, RowKey): the service's order. */
    PageOrder KEYS = new PageOrder() {
        private final Comparator<EntityContinuation> continuations =
                Comparator.comparing(EntityContinuation::partitionKey).thenComparing(EntityContinuation::rowKey);

        @Override
        public Comparator<Entity> entities() {
            return Page.KEY_ORDER;
        }

        @Override
        public Comparator<EntityContinuation> continuations() {
            return continuations;
        }

        @Override
        public EntityContinuation continuationAt(Entity next) {
            return EntityContinuation.at(next.partitionKey(), next.rowKey());
        }
    };

    Comparator<Entity> entities();

    /** The earlier of two continuations continues first. */
    Comparator<EntityContinuation> continuations();

    /** Where a page that ends before {@code next} continues: at that entity. */
    EntityContinuation continuationAt(Entity next);
}
