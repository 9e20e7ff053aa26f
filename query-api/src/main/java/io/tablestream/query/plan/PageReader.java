package io.tablestream.query.plan;

import io.tablestream.core.codec.ByteRange;
import io.tablestream.core.codec.EntityContinuation;
import io.tablestream.core.codec.KeyCodec;
import io.tablestream.core.command.CommandKey;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.filter.KeyRange;
import io.tablestream.core.model.Entity;
import io.tablestream.core.model.StoredEntity;
import io.tablestream.processor.store.CloseableIterator;
import io.tablestream.processor.store.EntityStore;
import io.tablestream.query.routing.KeyLocator;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Reads one page of a query from the stores: the partition that owns the PartitionKey when the
 * query names one, else every partition, merged in (PartitionKey, RowKey) order — a k-way merge of
 * one sorted cursor per partition. Bounded work: a page ends at {@code top} matches, at the row
 * budget (so a filter that matches nothing cannot scan a whole table in one request) or at the
 * byte budget; the continuation is then the exact next key, so paging never skips or repeats a row.
 */
public final class PageReader {
    private static final Comparator<Entity> KEY_ORDER =
            Comparator.comparing(Entity::partitionKey).thenComparing(Entity::rowKey);

    private final EntityStore store;
    private final KeyLocator locator;
    private final int rowBudget;
    private final long byteBudget;

    /**
     * @param rowBudget rows examined per page at most
     * @param byteBudget approximate bytes of matching entities per page at most
     */
    public PageReader(EntityStore store, KeyLocator locator, int rowBudget, long byteBudget) {
        if (rowBudget < 1 || byteBudget < 1) {
            throw new IllegalArgumentException("a page must be allowed at least one row and one byte, or paging never advances");
        }
        this.store = store;
        this.locator = locator;
        this.rowBudget = rowBudget;
        this.byteBudget = byteBudget;
    }

    /** The next page of {@code query} over the table {@code tableId} of {@code account}, keeping rows {@code visible} accepts. */
    public Page read(String account, long tableId, EntityQuery query, Predicate<Entity> visible) {
        KeyRange keys = query.keys();
        if (keys.kind() == KeyRange.Kind.EMPTY || query.top() == 0) {
            return new Page(List.of(), Optional.empty());
        }
        ByteRange range = KeyCodec.range(tableId, keys);
        if (query.resumeAt().isPresent()) {
            range = range.startingAt(query.resumeAt().get().resumeKey(tableId));
        }
        List<Integer> partitions = partitionsFor(account, tableId, keys);
        PriorityQueue<Head> heads = new PriorityQueue<>(Comparator.comparing(h -> h.current, KEY_ORDER));
        List<CloseableIterator<StoredEntity>> cursors = new ArrayList<>(partitions.size());
        try {
            for (int p : partitions) {
                CloseableIterator<StoredEntity> cursor = store.scan(p, range);
                cursors.add(cursor);
                if (cursor.hasNext()) {
                    heads.add(new Head(cursor, cursor.next().entity()));
                }
            }
            List<Entity> page = new ArrayList<>(Math.min(query.top(), 128));
            int examined = 0;
            long bytes = 0;
            while (!heads.isEmpty()) {
                if (page.size() >= query.top() || examined >= rowBudget || bytes >= byteBudget) {
                    Entity next = heads.peek().current;
                    return new Page(page, Optional.of(EntityContinuation.at(next.partitionKey(), next.rowKey())));
                }
                Head head = heads.poll();
                Entity entity = head.current;
                examined++;
                if (visible.test(entity) && query.filter().test(entity)) {
                    page.add(entity); // $select is the writer's: it also names selected properties a row lacks
                    bytes += io.tablestream.core.rules.EntitySize.of(entity);
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

    /** The one owning partition for a single-PartitionKey query, else every partition; all must be here. */
    private List<Integer> partitionsFor(String account, long tableId, KeyRange keys) {
        Set<Integer> local = locator.localPartitions();
        List<Integer> partitions = new ArrayList<>();
        String pk = keys.singlePartitionKey();
        if (pk != null) {
            partitions.add(locator.partitionOf(CommandKey.forEntity(account, tableId, pk)));
        } else {
            for (int p = 0; p < locator.partitions(); p++) {
                partitions.add(p);
            }
        }
        for (int p : partitions) {
            if (!local.contains(p)) {
                throw TableServiceException.of(ErrorCode.SERVER_BUSY,
                        "Partition " + p + " is not served by this instance right now; retry shortly.");
            }
        }
        return partitions;
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
