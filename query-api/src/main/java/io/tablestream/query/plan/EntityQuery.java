package io.tablestream.query.plan;

import io.tablestream.core.continuation.EntityContinuation;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.filter.Filter;
import io.tablestream.core.filter.KeyRange;
import io.tablestream.core.filter.OrderBy;
import io.tablestream.core.filter.Select;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.Entity;
import io.tablestream.core.model.IndexDefinition;
import io.tablestream.core.model.KeyOrder;
import io.tablestream.core.rules.Limits;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * A Query Entities request, compiled once: the predicate, the key range it implies (narrowed to
 * what the caller may read), the projection, the page size, the order and where to resume. A
 * descending query fixes its PartitionKey ({@link OrderBy}); its continuation is the next key
 * down, and the client sends {@code $orderby} again with it, as it does {@code $filter}. A query
 * ordered by another property ({@link PropertyOrder}) reads that property's index in its order,
 * and resumes at a place in it. It also names the secondary index that answers part of the
 * predicate, if the table has one, and the past time it is read at, if it is a point-in-time read.
 */
public record EntityQuery(Filter filter, KeyRange keys, Select select, int top,
                          Optional<EntityContinuation> resumeAt, KeyOrder order, boolean keysOnly,
                          Optional<IndexChoice> index, Optional<EdmDateTime> asOf, Optional<PropertyOrder> byProperty) {

    public EntityQuery(Filter filter, KeyRange keys, Select select, int top, Optional<EntityContinuation> resumeAt,
                       KeyOrder order, boolean keysOnly, Optional<IndexChoice> index) {
        this(filter, keys, select, top, resumeAt, order, keysOnly, index, Optional.empty(), Optional.empty());
    }

    /** A query in the service's order (ascending keys). */
    public EntityQuery(Filter filter, KeyRange keys, Select select, int top, Optional<EntityContinuation> resumeAt) {
        this(filter, keys, select, top, resumeAt, KeyOrder.ASCENDING, false, Optional.empty());
    }

    /**
     * This query planned on a table with {@code indexes}: read through whichever answers part of its
     * filter; one ordered by a property, through that property's index.
     *
     * @throws TableServiceException InvalidQueryParameterValue when it is ordered by a property
     *     that has no index, naming the index to declare
     */
    public EntityQuery usingIndexes(List<IndexDefinition> indexes) {
        Optional<PropertyOrder> ordered = byProperty;
        if (byProperty.isPresent()) {
            String property = byProperty.get().property();
            IndexDefinition index = indexes.stream().filter(i -> i.property().equals(property)).findFirst()
                    .orElseThrow(() -> TableServiceException.of(ErrorCode.INVALID_QUERY_PARAMETER_VALUE,
                            "The value of " + OrderBy.PARAMETER + " is not supported: ordering by '" + property
                                    + "' needs a secondary index on it. Declare one: POST <table>?comp=indexes with"
                                    + " {\"Name\":\"By" + property + "\",\"Property\":\"" + property + "\"}."));
            ordered = Optional.of(byProperty.get().through(index));
        }
        return new EntityQuery(filter, keys, select, top, resumeAt, order, keysOnly, IndexChoice.choose(filter, indexes),
                asOf, ordered);
    }

    /**
     * This query as it is served from a table with {@code indexes}: read as of {@code asOf} when
     * present, else through the indexes ({@link #usingIndexes}), except a newest-first query (an
     * index yields rows in ascending key order only).
     */
    public EntityQuery onTable(List<IndexDefinition> indexes, Optional<EdmDateTime> asOf) {
        if (asOf.isPresent()) {
            return asOf(asOf.get());
        }
        return order.descending() ? this : usingIndexes(indexes);
    }

    /**
     * This query read as of a past time (a point-in-time read, {@link io.tablestream.core.rules.History}):
     * from the entity history, which has no secondary index.
     *
     * @throws TableServiceException InvalidQueryParameterValue for a query ordered by a property
     *     (its index holds the present only)
     */
    public EntityQuery asOf(EdmDateTime time) {
        if (byProperty.isPresent()) {
            throw TableServiceException.of(ErrorCode.INVALID_QUERY_PARAMETER_VALUE, "A point-in-time read cannot be"
                    + " ordered by '" + byProperty.get().property() + "': its index holds the present only.");
        }
        return new EntityQuery(filter, keys, select, top, resumeAt, order, keysOnly, Optional.empty(),
                Optional.of(time), Optional.empty());
    }

    /** The name of the secondary index the query reads, if any: the one it is ordered by, else the one answering its filter. */
    public Optional<String> indexName() {
        if (byProperty.isPresent() && byProperty.get().index() != null) {
            return Optional.of(byProperty.get().index().name());
        }
        return index.map(choice -> choice.index().name());
    }

    /**
     * A count ({@code GET <table>()/$count?$filter=…}): the matches' keys only, as many as the row
     * budget reaches (no {@code $top}, no byte budget), in key order.
     *
     * @param readable the keys the caller may read (a SAS may narrow them)
     */
    public static EntityQuery count(String filter, String nextPartitionKey, String nextRowKey, KeyRange readable) {
        Filter f = Filter.parse(filter);
        Optional<EntityContinuation> resumeAt = EntityContinuation.fromQuery(nextPartitionKey, nextRowKey);
        if (resumeAt.isPresent() && resumeAt.get().position() != null) {
            throw TableServiceException.of(ErrorCode.INVALID_INPUT,
                    "The NextPartitionKey continuation token is of a query ordered by a property, not of a count.");
        }
        return new EntityQuery(f, f.keyRange().intersect(readable), Select.all(), Integer.MAX_VALUE, resumeAt,
                KeyOrder.ASCENDING, true, Optional.empty());
    }

    /**
     * @param readable the keys the caller may read (a SAS may narrow them)
     */
    public static EntityQuery of(String filter, String select, String top, String nextPartitionKey,
                                 String nextRowKey, KeyRange readable) {
        return of(filter, select, top, null, nextPartitionKey, nextRowKey, readable);
    }

    /**
     * @param orderBy the {@code $orderby} text, or null
     * @param readable the keys the caller may read (a SAS may narrow them)
     */
    public static EntityQuery of(String filter, String select, String top, String orderBy, String nextPartitionKey,
                                 String nextRowKey, KeyRange readable) {
        Filter f = Filter.parse(filter);
        KeyRange asked = f.keyRange();
        OrderBy ordering = OrderBy.parse(orderBy);
        KeyOrder order = ordering.orderFor(asked.singlePartitionKey() != null || asked.kind() == KeyRange.Kind.EMPTY);
        Optional<PropertyOrder> byProperty = ordering.byProperty()
                .map(item -> new PropertyOrder(item.property(), item.descending(), null));
        Optional<EntityContinuation> resumeAt = EntityContinuation.fromQuery(nextPartitionKey, nextRowKey);
        if (resumeAt.isPresent() && (resumeAt.get().position() != null) != byProperty.isPresent()) {
            throw TableServiceException.of(ErrorCode.INVALID_INPUT, byProperty.isPresent()
                    ? "The continuation tokens are of a query in key order; a query ordered by '"
                    + byProperty.get().property() + "' continues from the tokens of its own previous page."
                    : "The NextPartitionKey continuation token is of a query ordered by a property: send the same "
                    + OrderBy.PARAMETER + " with it.");
        }
        return new EntityQuery(f, asked.intersect(readable), Select.parse(select), top(top), resumeAt, order, false,
                Optional.empty(), Optional.empty(), byProperty);
    }

    /** The order of the query's entities. */
    public Comparator<Entity> entityOrder() {
        return pageOrder().entities();
    }

    /** The order of the query's pages: of its entities and its continuations. */
    public PageOrder pageOrder() {
        if (byProperty.isPresent()) {
            PropertyOrder p = byProperty.get();
            Comparator<Entity> entities = Comparator.comparing(p::positionOf);
            Comparator<EntityContinuation> continuations = Comparator.comparing(EntityContinuation::position);
            return order(p.descending() ? entities.reversed() : entities,
                    p.descending() ? continuations.reversed() : continuations,
                    next -> EntityContinuation.at(p.positionOf(next)));
        }
        if (!order.descending()) {
            return PageOrder.KEYS;
        }
        return order(PageOrder.KEYS.entities().reversed(), PageOrder.KEYS.continuations().reversed(),
                PageOrder.KEYS::continuationAt);
    }

    private static PageOrder order(Comparator<Entity> entities, Comparator<EntityContinuation> continuations,
                                   Function<Entity, EntityContinuation> at) {
        return new PageOrder() {
            @Override
            public Comparator<Entity> entities() {
                return entities;
            }

            @Override
            public Comparator<EntityContinuation> continuations() {
                return continuations;
            }

            @Override
            public EntityContinuation continuationAt(Entity next) {
                return at.apply(next);
            }
        };
    }

    /**
     * {@code $top}: 0 to 1,000; absent means a full page of 1,000. The service answers {@code $top=0}
     * with no entities (Azure/Azurite#1428); so do we, and with no continuation, so a client that
     * follows continuations stops.
     */
    public static int top(String value) {
        if (value == null) {
            return Limits.MAX_PAGE_SIZE;
        }
        try {
            int n = Integer.parseInt(value.strip());
            if (n >= 0 && n <= Limits.MAX_PAGE_SIZE) {
                return n;
            }
        } catch (NumberFormatException e) {
            // fall through
        }
        throw TableServiceException.of(ErrorCode.INVALID_INPUT,
                "$top must be an integer from 0 to " + Limits.MAX_PAGE_SIZE + ".");
    }
}
