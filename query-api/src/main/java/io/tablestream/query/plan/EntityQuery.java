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

/**
 * A Query Entities request, compiled once: the predicate, the key range it implies (narrowed to
 * what the caller may read), the projection, the page size, the order and where to resume. A
 * descending query fixes its PartitionKey ({@link OrderBy}); its continuation is the next key
 * down, and the client sends {@code $orderby} again with it, as it does {@code $filter}. It
 * also names the secondary index that answers part of the predicate, if the table has one, and
 * the past time it is read at, if it is a point-in-time read.
 */
public record EntityQuery(Filter filter, KeyRange keys, Select select, int top,
                          Optional<EntityContinuation> resumeAt, KeyOrder order, boolean keysOnly,
                          Optional<IndexChoice> index, Optional<EdmDateTime> asOf) {

    public EntityQuery(Filter filter, KeyRange keys, Select select, int top, Optional<EntityContinuation> resumeAt,
                       KeyOrder order, boolean keysOnly, Optional<IndexChoice> index) {
        this(filter, keys, select, top, resumeAt, order, keysOnly, index, Optional.empty());
    }

    /** A query in the service's order (ascending keys). */
    public EntityQuery(Filter filter, KeyRange keys, Select select, int top, Optional<EntityContinuation> resumeAt) {
        this(filter, keys, select, top, resumeAt, KeyOrder.ASCENDING, false, Optional.empty());
    }

    /** This query reading through whichever of {@code indexes} answers part of its filter. */
    public EntityQuery usingIndexes(List<IndexDefinition> indexes) {
        return new EntityQuery(filter, keys, select, top, resumeAt, order, keysOnly, IndexChoice.choose(filter, indexes),
                asOf);
    }

    /**
     * This query read as of a past time (a point-in-time read, {@link io.tablestream.core.rules.History}):
     * from the entity history, which has no secondary index.
     */
    public EntityQuery asOf(EdmDateTime time) {
        return new EntityQuery(filter, keys, select, top, resumeAt, order, keysOnly, Optional.empty(),
                Optional.of(time));
    }

    /**
     * A count ({@code GET <table>()/$count?$filter=…}): the matches' keys only, as many as the row
     * budget reaches (no {@code $top}, no byte budget), in key order.
     *
     * @param readable the keys the caller may read (a SAS may narrow them)
     */
    public static EntityQuery count(String filter, String nextPartitionKey, String nextRowKey, KeyRange readable) {
        Filter f = Filter.parse(filter);
        return new EntityQuery(f, f.keyRange().intersect(readable), Select.all(), Integer.MAX_VALUE,
                EntityContinuation.fromQuery(nextPartitionKey, nextRowKey), KeyOrder.ASCENDING, true, Optional.empty());
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
        KeyOrder order = OrderBy.parse(orderBy)
                .orderFor(asked.singlePartitionKey() != null || asked.kind() == KeyRange.Kind.EMPTY);
        return new EntityQuery(f, asked.intersect(readable), Select.parse(select), top(top),
                EntityContinuation.fromQuery(nextPartitionKey, nextRowKey), order, false, Optional.empty());
    }

    /** The order of the query's entities. */
    public Comparator<Entity> entityOrder() {
        return order.descending() ? Page.KEY_ORDER.reversed() : Page.KEY_ORDER;
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
