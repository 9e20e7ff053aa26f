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
        PriorityQueue<Head> heads = new PriorityQueue<>(Comparator.comparing(h -> h.current, query.entityOrder()));
        List<CloseableIterator<StoredEntity>> cursors = new ArrayList<>(partitions.size());
        try {
            for (int p : partitions) {
                CloseableIterator<StoredEntity> cursor = cursor(tableId, query, replicaOf.apply(p), p, range, rowBudget);
                cursors.add(cursor);
                if (cursor.hasNext()) {
                    heads.add(new Head(cursor, cursor.next().entity()));
                }
            }
            List<Entity> page = new ArrayList<>(Math.min(query.top(), 128));
            int examined = 0;
            long bytes = 0;
            long bytesAllowed = byteBudget(query);
            while (!heads.isEmpty()) {
                if (page.size() >= query.top() || examined >= rowBudget || bytes >= bytesAllowed) {
                    Entity next = heads.peek().current;
                    return new Page(page, Optional.of(EntityContinuation.at(next.partitionKey(), next.rowKey())));
                }
                Head head = heads.poll();
                Entity entity = head.current;
                examined++;
                if (visible.test(entity) && query.filter().test(entity)) {
                    if (query.keysOnly()) {
                        page.add(entity.withProperties(Map.of()));
                    } else {
                        page.add(entity); // $select is the writer's: it also names selected properties a row lacks
                        bytes += EntitySize.of(entity);
                    }
                }
                if (head.cursor.hasNext()) {
                    head.current = head.cursor.next().entity();
                    heads.add(head);
                }
            }
            return new Page(page, Optional.empty());
        } finally {
            for (CloseableIterator<StoredEntity> c : cursors) {
                c.close();
            }
        }
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
        ByteRange entries = IndexKeys.ordered(tableId, index.indexId(), bounds);
        if (query.resumeAt().isPresent()) {
            IndexPosition at = query.resumeAt().get().position();
            entries = by.descending() ? entries.endingBefore(at.entryPast(tableId, index.indexId()))
                    : entries.startingAt(at.entry(tableId, index.indexId()));
        }
        ByteRange entities = KeyCodec.range(tableId, query.keys());
        Comparator<IndexPosition> positions = by.descending() ? Comparator.reverseOrder() : Comparator.naturalOrder();
        PriorityQueue<IndexHead> heads = new PriorityQueue<>(Comparator.comparing(h -> h.current.position(), positions));
        List<CloseableIterator<IndexedEntity>> cursors = new ArrayList<>(partitions.size());
        try {
            for (int p : partitions) {
                CloseableIterator<IndexedEntity> cursor = store.orderedIndexScan(replicaOf.apply(p), p, tableId,
                        index.indexId(), by.property(), entries, entities, order).orElseThrow(() ->
                        TableServiceException.of(ErrorCode.SERVER_BUSY, "The index " + index.name()
                                + " that orders this query is still being built; retry when ?comp=indexes shows it Ready."));
                cursors.add(cursor);
                if (cursor.hasNext()) {
                    heads.add(new IndexHead(cursor, cursor.next()));
                }
            }
            List<Entity> page = new ArrayList<>(Math.min(query.top(), 128));
            int examined = 0;
            long bytes = 0;
            long bytesAllowed = byteBudget(query);
            while (!heads.isEmpty()) {
                if (page.size() >= query.top() || examined >= rowBudget || bytes >= bytesAllowed) {
                    return new Page(page, Optional.of(EntityContinuation.at(heads.peek().current.position())));
                }
                IndexHead head = heads.poll();
                examined++;
                Entity entity = head.current.entity() == null ? null : head.current.entity().entity();
                if (entity != null && visible.test(entity) && query.filter().test(entity)) {
                    page.add(entity);
                    bytes += EntitySize.of(entity);
                }
                if (head.cursor.hasNext()) {
                    head.current = head.cursor.next();
                    heads.add(head);
                }
            }
            return new Page(page, Optional.empty());
        } finally {
            for (CloseableIterator<IndexedEntity> c : cursors) {
                c.close();
            }
        }
    }

    private static final class IndexHead {
        final CloseableIterator<IndexedEntity> cursor;
        IndexedEntity current;

        IndexHead(CloseableIterator<IndexedEntity> cursor, IndexedEntity current) {
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

    private static final class Head {
        final CloseableIterator<StoredEntity> cursor;
        Entity current;

        Head(CloseableIterator<StoredEntity> cursor, Entity current) {
            this.cursor = cursor;
            this.current = current;
        }
    }
}
