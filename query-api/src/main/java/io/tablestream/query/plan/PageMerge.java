package io.tablestream.query.plan;

import io.tablestream.core.continuation.EntityContinuation;
import io.tablestream.core.model.Entity;
import io.tablestream.core.rules.EntitySize;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * One page out of the partial pages several readers produced for disjoint sets of partitions, all
 * from the same resume point (a scatter-gather across instances). Each partial page holds every
 * match of its partitions before its own continuation, in the query's order; before the earliest
 * continuation, then, every match of every partition is known, and the merged page is those
 * matches in the query's order — cut at {@code top} or at the byte budget, where the next match is
 * the continuation, else continued at that earliest continuation. So pages stay exact however the
 * partitions are spread: no row is skipped or repeated, whichever instance reads which partition
 * on the next page. The query's order is key order, or the order of the property it is ordered by
 * (then a continuation is a place in that order: {@link PageOrder}).
 */
public final class PageMerge {
    private PageMerge() {
    }

    /** Merges partial pages of a query in key order (ascending). */
    public static Page merge(List<Page> parts, int top, long byteBudget) {
        return merge(parts, PageOrder.KEYS, top, byteBudget);
    }

    /** Merges partial pages of a query in {@code order}. */
    public static Page merge(List<Page> parts, PageOrder order, int top, long byteBudget) {
        Comparator<EntityContinuation> continuations = order.continuations();
        Optional<EntityContinuation> bound = Optional.empty();
        for (Page part : parts) {
            if (part.next().isPresent()
                    && (bound.isEmpty() || continuations.compare(part.next().get(), bound.get()) < 0)) {
                bound = part.next();
            }
        }
        List<Entity> known = new ArrayList<>();
        for (Page part : parts) {
            for (Entity e : part.entities()) {
                if (bound.isEmpty() || continuations.compare(order.continuationAt(e), bound.get()) < 0) {
                    known.add(e);
                }
            }
        }
        known.sort(order.entities());
        List<Entity> page = new ArrayList<>(Math.min(known.size(), top));
        long bytes = 0;
        for (Entity e : known) {
            if (page.size() >= top || bytes >= byteBudget) {
                return new Page(page, Optional.of(order.continuationAt(e)));
            }
            page.add(e);
            bytes += EntitySize.of(e);
        }
        return new Page(page, bound);
    }
}
