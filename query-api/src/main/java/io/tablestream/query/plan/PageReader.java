package io.tablestream.query.plan;

import io.tablestream.core.continuation.EntityContinuation;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.filter.IndexCondition;
import io.tablestream.core.filter.KeyRange;
import io.tablestream.core.model.Entity;
import io.tablestream.core.model.IndexDefinition;
import io.tablestream.core.model.KeyOrder;
import io.tablestream.core.model.StoredEntity;
import io.tablestream.core.rules.EntitySize;
import io.tablestream.core.storekey.ByteRange;
import io.tablestream.core.storekey.IndexKeys;
import io.tablestream.core.storekey.IndexPosition;
import io.tablestream.core.storekey.KeyCodec;
import io.tablestream.processor.store.CloseableIterator;
import io.tablestream.processor.store.EntityStore;
import io.tablestream.processor.store.IndexedEntity;
import io.tablestream.processor.store.StoreReplica;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.Predicate;

/**
 * Reads one page of a query from this instance's stores: a k-way merge, in (PartitionKey, RowKey)
 * order (or, for a descending query of one partition, its one cursor backwards), of one sorted
 * cursor per partition it is given (the router decides which partitions are
 * read here, and which copy). Bounded work: a page ends at {@code top} matches, at the row budget
 * (so a filter that matches nothing cannot scan a whole table in one request) or at the byte
 * budget; the continuation is then the exact next key, so paging never skips or repeats a row.
 * A query with a secondary index reads each partition's candidates from the index (still in key
 * order, so the merge, the budgets and the continuation are the same) and tests the whole filter
 * on each.
 */
public final class PageReader {
    private final EntityStore store;
    private final long byteBudget;

    /** @param byteBudget approximate bytes of matching entities per page at most */
    public PageReader(EntityStore store, long byteBudget) {
        if (byteBudget < 1) {
            throw new IllegalArgumentException("a page must be allowed at least one byte, or paging never advances");
        }
        this.store = store;
        this.byteBudget = byteBudget;
    }

    /** Bytes of matching entities a page of {@code query} holds at most (a count's pages hold keys only: no limit). */
    public long byteBudget(EntityQuery query) {
        return query.keysOnly() ? Long.MAX_VALUE : byteBudget;
    }

    /**
     * The next page of {@code query} over the table {@code tableId}, from the local copies of
     * {@code partitions} (which copy of each: {@code replicaOf}), keeping rows {@code visible}
     * accepts and examining at most {@code rowBudget} rows.
     */
    public Page read(long tableId, EntityQuery query, Predicate<Entity> visible, Collection<Integer> partitions,
                     IntFunction<StoreReplica> replicaOf, int rowBudget) {
        if (rowBudget < 1) {
            throw new IllegalArgumentException("a page must be allowed at least one row, or paging never advances");
        }
        KeyRange keys = query.keys();
        if (keys.kind() == KeyRange.Kind.EMPTY || query.top() == 0) {
            return new Page(List.of(), Optional.empty());
        }
        if (query.byProperty().isPresent()) {
            return readInPropertyOrder(tableId, query, visible, partitions, replicaOf, rowBudget);
        }
        ByteRange range = KeyCodec.range(tableId, keys);
        if (query.resumeAt().isPresent()) {
            EntityContinuation resume = query.resumeAt().get();
            range = query.order().descending() ? range.endingBefore(resume.resumeDescendingKey(tableId))
                    : range.startingAt(resume.resumeKey(tableId));
        }
        ByteRange rows = range;
        return merge(query, visible, rowBudget, partitions,
                p -> cursor(tableId, query, replicaOf.apply(p), p, rows, rowBudget),
                Comparator.comparing(StoredEntity::entity, query.entityOrder()), StoredEntity::entity,
                s -> EntityContinuation.at(s.entity().partitionKey(), s.entity().rowKey()));
    }

    /**
     * A page of a query ordered by a property: a k-way merge, in the order of the property's index,
     * of one cursor per partition over its copy of the index (the entries of the values the filter
     * allows, when it bounds the property), from the continuation's place on. Every entry read
     * counts against the row budget, those standing for no entity to return as well (outside the
     * keys read, stale, gone), so the work stays bounded; the whole filter is tested on each entity.
     *
     * @throws TableServiceException ServerBusy when a partition's copy of the index is still being built
     */
    private Page readInPropertyOrder(long tableId, EntityQuery query, Predicate<Entity> visible,
                                     Collection<Integer> partitions, IntFunction<StoreReplica> replicaOf, int rowBudget) {
        PropertyOrder by = query.byProperty().get();
        IndexDefinition index = by.index();
        KeyOrder order = by.descending() ? KeyOrder.DESCENDING : KeyOrder.ASCENDING;
        IndexCondition bounds = query.index().map(IndexChoice::condition)
                .filter(c -> c.property().equals(by.property())).orElse(null);
        ByteRange range = IndexKeys.ordered(tableId, index.indexId(), bounds);
        if (query.resumeAt().isPresent()) {
            IndexPosition at = query.resumeAt().get().position();
            range = by.descending() ? range.endingBefore(at.entryPast(tableId, index.indexId()))
                    : range.startingAt(at.entry(tableId, index.indexId()));
        }
        ByteRange entries = range;
        ByteRange entities = KeyCodec.range(tableId, query.keys());
        Comparator<IndexPosition> positions = by.descending() ? Comparator.reverseOrder() : Comparator.naturalOrder();
        return merge(query, visible, rowBudget, partitions,
                p -> store.orderedIndexScan(replicaOf.apply(p), p, tableId, index.indexId(), by.property(), entries,
                        entities, order).orElseThrow(() -> TableServiceException.of(ErrorCode.SERVER_BUSY, "The index "
                        + index.name() + " that orders this query is still being built; retry when ?comp=indexes"
                        + " shows it Ready.")),
                Comparator.comparing(IndexedEntity::position, positions),
                i -> i.entity() == null ? null : i.entity().entity(), i -> EntityContinuation.at(i.position()));
    }

    /**
     * The k-way merge of one sorted cursor per partition ({@code open} opens one), in
     * {@code order}: a page of the items' entities that are {@code visible} and match the filter
     * (an item may stand for none), ended at {@code top} matches, at the row budget (every item
     * counts) or at the byte budget, with the next item's continuation.
     */
    private <T> Page merge(EntityQuery query, Predicate<Entity> visible, int rowBudget, Collection<Integer> partitions,
                           IntFunction<CloseableIterator<T>> open, Comparator<T> order, Function<T, Entity> entityOf,
                           Function<T, EntityContinuation> continuationAt) {
        PriorityQueue<Head<T>> heads = new PriorityQueue<>(Comparator.comparing(h -> h.current, order));
        List<CloseableIterator<T>> cursors = new ArrayList<>(partitions.size());
        try {
            for (int p : partitions) {
                CloseableIterator<T> cursor = open.apply(p);
                cursors.add(cursor);
                if (cursor.hasNext()) {
                    heads.add(new Head<>(cursor, cursor.next()));
                }
            }
            List<Entity> page = new ArrayList<>(Math.min(query.top(), 128));
            int examined = 0;
            long bytes = 0;
            long bytesAllowed = byteBudget(query);
            while (!heads.isEmpty()) {
                if (page.size() >= query.top() || examined >= rowBudget || bytes >= bytesAllowed) {
                    return new Page(page, Optional.of(continuationAt.apply(heads.peek().current)));
                }
                Head<T> head = heads.poll();
                Entity entity = entityOf.apply(head.current);
                examined++;
                if (entity != null && visible.test(entity) && query.filter().test(entity)) {
                    if (query.keysOnly()) {
                        page.add(entity.withProperties(Map.of()));
                    } else {
                        page.add(entity); // $select is the writer's: it also names selected properties a row lacks
                        bytes += EntitySize.of(entity);
                    }
                }
                if (head.cursor.hasNext()) {
                    head.current = head.cursor.next();
                    heads.add(head);
                }
            }
            return new Page(page, Optional.empty());
        } finally {
            for (CloseableIterator<T> c : cursors) {
                c.close();
            }
        }
    }

    private static final class Head<T> {
        final CloseableIterator<T> cursor;
        T current;

        Head(CloseableIterator<T> cursor, T current) {
            this.cursor = cursor;
            this.current = current;
        }
    }

    /**
     * One partition's rows of {@code range}, in key order: through the query's index when the
     * partition's copy of it is built (and, for a range of values, holds at most a row budget of
     * entries), else by scanning the range.
     */
    private CloseableIterator<StoredEntity> cursor(long tableId, EntityQuery query, StoreReplica replica, int partition,
                                                   ByteRange range, int rowBudget) {
        if (query.asOf().isPresent()) {
            return store.scanAsOf(replica, partition, range, query.order(), query.asOf().get());
        }
        // An index yields its rows in ascending key order: a newest-first query scans.
        if (query.index().isPresent() && !query.order().descending()) {
            IndexChoice choice = query.index().get();
            Optional<CloseableIterator<StoredEntity>> indexed = store.indexScan(replica, partition, tableId,
                    choice.index().indexId(), choice.condition(), range, rowBudget);
            if (indexed.isPresent()) {
                return indexed.get();
            }
        }
        return store.scan(replica, partition, range, query.order());
    }
}
