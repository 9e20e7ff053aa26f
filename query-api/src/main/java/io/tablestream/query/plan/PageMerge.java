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
 * match of its partitions below its own continuation; below the smallest continuation, then, every
 * match of every partition is known, and the merged page is those matches in key order — cut at
 * {@code top} or at the byte budget, where the next match is the continuation, else continued at
 * that smallest continuation. So pages stay exact however the partitions are spread: no row is
 * skipped or repeated, whichever instance reads which partition on the next page.
 */
public final class PageMerge {
    private static final Comparator<EntityContinuation> CONTINUATION_ORDER =
            Comparator.comparing(EntityContinuation::partitionKey).thenComparing(EntityContinuation::rowKey);

    private PageMerge() {
    }

    public static Page merge(List<Page> parts, int top, long byteBudget) {
        Optional<EntityContinuation> bound = Optional.empty();
        for (Page part : parts) {
            if (part.next().isPresent()
                    && (bound.isEmpty() || CONTINUATION_ORDER.compare(part.next().get(), bound.get()) < 0)) {
                bound = part.next();
            }
        }
        List<Entity> known = new ArrayList<>();
        for (Page part : parts) {
            for (Entity e : part.entities()) {
                if (bound.isEmpty() || before(e, bound.get())) {
                    known.add(e);
                }
            }
        }
        known.sort(Page.KEY_ORDER);
        List<Entity> page = new ArrayList<>(Math.min(known.size(), top));
        long bytes = 0;
        for (Entity e : known) {
            if (page.size() >= top || bytes >= byteBudget) {
                return new Page(page, Optional.of(EntityContinuation.at(e.partitionKey(), e.rowKey())));
            }
            page.add(e);
            bytes += EntitySize.of(e);
        }
        return new Page(page, bound);
    }

    private static boolean before(Entity e, EntityContinuation bound) {
        int pk = e.partitionKey().compareTo(bound.partitionKey());
        return pk < 0 || (pk == 0 && e.rowKey().compareTo(bound.rowKey()) < 0);
    }
}
