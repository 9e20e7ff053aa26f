package io.tablestream.processor.store;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * How far each local task has applied its command partition, so that a read carrying a session
 * token (partition, offset) can wait, without polling, until the owning store has applied it.
 * The stream thread advances it after every command; readers await an offset.
 */
public final class AppliedOffsets {
    private final ConcurrentMap<Integer, Watermark> partitions = new ConcurrentHashMap<>();

    /** Called by the task after it applied the command at {@code offset} (or restored up to it). */
    public void advance(int partition, long offset) {
        watermark(partition).advance(offset);
    }

    /** The highest offset applied on {@code partition} as far as this instance knows, or -1. */
    public long applied(int partition) {
        Watermark w = partitions.get(partition);
        return w == null ? -1 : w.applied;
    }

    /**
     * Completes once {@code partition} has applied {@code offset}. The caller bounds the wait (e.g.
     * {@link CompletableFuture#orTimeout}); a timed-out waiter is dropped.
     */
    public CompletableFuture<Void> await(int partition, long offset) {
        return watermark(partition).await(offset);
    }

    private Watermark watermark(int partition) {
        return partitions.computeIfAbsent(partition, p -> new Watermark());
    }

    private static final class Watermark {
        private volatile long applied = -1;
        private final CopyOnWriteArrayList<Waiter> waiters = new CopyOnWriteArrayList<>();

        void advance(long offset) {
            if (offset <= applied) {
                return;
            }
            applied = offset;
            if (!waiters.isEmpty()) {
                for (Waiter w : waiters) {
                    if (w.offset <= offset) {
                        w.future.complete(null);
                    }
                }
            }
        }

        CompletableFuture<Void> await(long offset) {
            if (applied >= offset) {
                return CompletableFuture.completedFuture(null);
            }
            Waiter waiter = new Waiter(offset, new CompletableFuture<>());
            waiters.add(waiter);
            waiter.future.whenComplete((v, e) -> waiters.remove(waiter));
            if (applied >= offset) { // advanced between the check and the registration
                waiter.future.complete(null);
            }
            return waiter.future;
        }
    }

    private record Waiter(long offset, CompletableFuture<Void> future) {
    }
}
