package io.tablestream.query.plan;

import io.tablestream.core.model.EdmValue;
import io.tablestream.core.model.Entity;
import io.tablestream.core.model.IndexDefinition;
import io.tablestream.core.storekey.IndexPosition;
import java.util.Objects;

/**
 * The order of a query by a property other than the keys ({@code $orderby=Name [desc]}): that of
 * the property's secondary index, so by the value's Edm type (Boolean, DateTime, Double, Guid,
 * Int32, Int64, String), then the value, then (PartitionKey, RowKey) — all of it reversed for
 * {@code desc}. Only entities that have the property (of a type an index holds) are in it.
 *
 * @param index the table's index on the property; null until the query is planned on the table's indexes
 */
public record PropertyOrder(String property, boolean descending, IndexDefinition index) {
    public PropertyOrder {
        Objects.requireNonNull(property, "property");
        if (index != null && !index.property().equals(property)) {
            throw new IllegalArgumentException("an index on " + index.property() + ", not " + property);
        }
    }

    /** The same order, read through {@code index}. */
    PropertyOrder through(IndexDefinition index) {
        return new PropertyOrder(property, descending, index);
    }

    /** Where {@code entity} is in the order (it has the property as a type the index holds). */
    public IndexPosition positionOf(Entity entity) {
        EdmValue value = entity.property(property);
        return IndexPosition.of(value, entity.partitionKey(), entity.rowKey());
    }
}
