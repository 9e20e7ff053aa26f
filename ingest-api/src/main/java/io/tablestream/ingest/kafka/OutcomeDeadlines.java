package io.tablestream.ingest.kafka;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Fails a waiting request's outcome with a {@link TimeoutException} once its time is up, from one
 * thread that sleeps until the earliest deadline, so that no thread is woken per request.
 *
 * <p>{@link CompletableFuture#orTimeout} schedules a task per call on the JDK's shared delay scheduler
 * and cancels it when the future completes; on JDK 25 that scheduler's thread is woken for each of
 * those calls, about once per write (docs/performance.md, "A write's timeout without a thread woken per
 * write"). Here a request's deadline is put in an ordered map and taken out when its outcome comes; the
 * thread is woken only when a deadline earlier than the one it sleeps until is added, which with one
 * timeout for every write happens only when nothing was waiting for a while.
 *
 * <p>A timed-out future is completed on {@code completions}, where outcomes are completed too (on this
 * thread when that executor no longer takes work). Once {@link #close closed}, the thread still fails
 * what waits when its time comes, as the JDK's scheduler did, and ends when nothing waits any more.
 */
final class OutcomeDeadlines implements AutoCloseable {
    /** How long the thread sleeps at most when nothing waits: an added deadline wakes it anyway. */
    private static final long IDLE_NANOS = TimeUnit.SECONDS.toNanos(1);

    private record Key(long deadline, long sequence) implements Comparable<Key> {
        @Override
        public int compareTo(Key other) {
            int byTime = Long.compare(deadline, other.deadline);
            return byTime != 0 ? byTime : Long.compare(sequence, other.sequence);
        }
    }

    private final ConcurrentSkipListMap<Key, CompletableFuture<?>> waiting = new ConcurrentSkipListMap<>();
    private final AtomicLong sequence = new AtomicLong();
    private final Executor completions;
    private final Thread thread;
    /** The {@link System#nanoTime} the thread sleeps until. */
    private volatile long plannedWake;
    private volatile boolean closed;

    OutcomeDeadlines(Executor completions, String threadName) {
        this.completions = completions;
        this.plannedWake = System.nanoTime();
        this.thread = new Thread(this::run, threadName);
        this.thread.setDaemon(true);
        this.thread.start();
    }

    /** Fails {@code future} with a {@link TimeoutException} unless it completes within {@code timeout}. */
    void watch(CompletableFuture<?> future, Duration timeout) {
        if (closed) {
            future.orTimeout(timeout.toNanos(), TimeUnit.NANOSECONDS); // the thread may have ended
            return;
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        Key key = new Key(deadline, sequence.incrementAndGet());
        waiting.put(key, future);
        future.whenComplete((value, error) -> waiting.remove(key));
        if (deadline - plannedWake < 0) {
            LockSupport.unpark(thread);
        }
    }

    /** How many futures are watched (for tests). */
    int watched() {
        return waiting.size();
    }

    private void run() {
        while (!closed || !waiting.isEmpty()) {
            long now = System.nanoTime();
            Map.Entry<Key, CompletableFuture<?>> first;
            while ((first = waiting.firstEntry()) != null && first.getKey().deadline() - now <= 0) {
                if (waiting.remove(first.getKey(), first.getValue())) {
                    expire(first.getValue());
                }
            }
            long wake = first == null ? now + IDLE_NANOS : first.getKey().deadline();
            plannedWake = wake;
            // a deadline added before plannedWake changed may be earlier, and its watch() saw the old value
            Map.Entry<Key, CompletableFuture<?>> again = waiting.firstEntry();
            if (again == null || again.getKey().deadline() - wake >= 0) {
                LockSupport.parkNanos(this, wake - now);
            }
        }
    }

    private void expire(CompletableFuture<?> future) {
        try {
            completions.execute(() -> future.completeExceptionally(new TimeoutException()));
        } catch (RejectedExecutionException e) {
            future.completeExceptionally(new TimeoutException());
        }
    }

    /** Ends the thread once the deadlines watched have passed or their futures completed; does not wait. */
    @Override
    public void close() {
        closed = true;
        LockSupport.unpark(thread);
    }
}
