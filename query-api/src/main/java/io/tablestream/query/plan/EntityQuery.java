package io.tablestream.query.plan;

import io.tablestream.core.codec.EntityContinuation;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.filter.Filter;
import io.tablestream.core.filter.KeyRange;
import io.tablestream.core.filter.Select;
import io.tablestream.core.rules.Limits;
import io.tablestream.core.model.IndexDefinition;
import java.util.List;
import java.util.Optional;

/**
 * A Query Entities request, compiled once: the predicate, the key range it implies (narrowed to
 * what the caller may read), the projection, the page size, where to resume, and the secondary
 * index that answers part of the predicate, if the table has one.
 */
public record EntityQuery(Filter filter, KeyRange keys, Select select, int top,
                          Optional<EntityContinuation> resumeAt, Optional<IndexChoice> index) {

    public EntityQuery(Filter filter, KeyRange keys, Select select, int top, Optional<EntityContinuation> resumeAt) {
        this(filter, keys, select, top, resumeAt, Optional.empty());
    }

    /** This query reading through whichever of {@code indexes} answers part of its filter. */
    public EntityQuery usingIndexes(List<IndexDefinition> indexes) {
        return new EntityQuery(filter, keys, select, top, resumeAt, IndexChoice.choose(filter, indexes));
    }

    /**
     * @param readable the keys the caller may read (a SAS may narrow them)
     */
    public static EntityQuery of(String filter, String select, String top, String nextPartitionKey,
                                 String nextRowKey, KeyRange readable) {
        Filter f = Filter.parse(filter);
        return new EntityQuery(f, f.keyRange().intersect(readable), Select.parse(select), top(top),
                EntityContinuation.fromQuery(nextPartitionKey, nextRowKey));
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
