package io.tablestream.processor.store;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * Signals changes of this instance's view of the table registry, so a request can wait (without
 * polling) until the view shows what it needs — e.g. the table a create just made, before the
 * 201 goes out. Registry changes are rare, so every waiter re-checks its condition on each one.
 */
public final class RegistryEvents {
    private final CopyOnWriteArrayList<Waiter> waiters = new CopyOnWriteArrayList<>();
    /** Moves on every change, before waiters are told: what was read at one generation is current while it holds. */
    private final AtomicLong generation = new AtomicLong();

    /**
     * Called by the global store's processor after each registry record it applied. A condition
     * that throws (e.g. the store is not queryable while the processor shuts down) fails its own
     * waiter only, never the thread that applies the registry.
     */
    public void changed() {
        generation.incrementAndGet();
        for (Waiter w : waiters) {
            try {
                if (w.condition.getAsBoolean()) {
                    w.future.complete(null);
                }
            } catch (RuntimeException e) {
                w.future.completeExceptionally(e);
            }
        }
    }

    /**
     * How many changes were applied so far. A value read from the registry store while this stays
     * the same is the current one (every change is in the store before the generation moves).
     */
    public long generation() {
        return generation.get();
    }

    /** Completes once {@code condition} holds; the caller bounds the wait. */
    public CompletableFuture<Void> await(BooleanSupplier condition) {
        if (condition.getAsBoolean()) {
            return CompletableFuture.completedFuture(null);
        }
        Waiter waiter = new Waiter(condition, new CompletableFuture<>());
        waiters.add(waiter);
        waiter.future.whenComplete((v, e) -> waiters.remove(waiter));
        if (condition.getAsBoolean()) {
            waiter.future.complete(null);
        }
        return waiter.future;
    }

    private record Waiter(BooleanSupplier condition, CompletableFuture<Void> future) {
    }
}
