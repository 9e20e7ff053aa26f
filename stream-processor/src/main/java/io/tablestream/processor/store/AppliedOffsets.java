package io.tablestream.processor.store;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * How far each local task's store has applied its command partition, so that a read carrying a
 * session token (partition, offset) can wait, without polling, until the owning store has applied
 * it; and whether the store may serve reads at all.
 *
 * <p>Writes are answered as soon as they are decided, before their transaction commits. A task
 * that restarts after a failure comes back with its store as of the last commit and replays the
 * rest, deciding it the same way; until it has replayed everything that was in its partition when
 * it restarted, its store may lack writes a client was already answered for. So a task that
 * (re)starts is {@linkplain #restored not readable} until it reaches the marker it writes
 * at the end of its partition ({@link #caughtUp}). The stream thread advances the applied offset
 * after every command; readers await an offset.
 */
public final class AppliedOffsets {
    private final ConcurrentMap<Integer, Watermark> partitions = new ConcurrentHashMap<>();

    /** Called by the task after it applied the command at {@code offset}. */
    public void advance(int partition, long offset) {
        watermark(partition).advance(offset);
    }

    /**
     * Called by a task that (re)starts with its store restored up to {@code offset} (which may be
     * behind what this instance saw applied before): the store serves no reads until {@link #caughtUp}.
     */
    public void restored(int partition, long offset) {
        Watermark w = watermark(partition);
        w.readable = false;
        w.applied = offset;
    }

    /**
     * Called by a task that closes (its partition moves away, or it restarts): whether another
     * copy here may be read is no longer its business.
     */
    public void released(int partition) {
        watermark(partition).readable = true;
    }

    /** Called by the task once it has applied everything its partition held when it (re)started. */
    public void caughtUp(int partition) {
        watermark(partition).readable = true;
    }

    /**
     * Whether the store of {@code partition} holds every write answered so far (true for a
     * partition this instance never hosted: whether it can be read is then the store's answer).
     */
    public boolean readable(int partition) {
        Watermark w = partitions.get(partition);
        return w == null || w.readable;
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
        private volatile boolean readable = true;
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
