package io.tablestream.query.feed;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells change-feed readers that caught up when there is more to read, without holding a thread
 * per reader: one thread follows, with one {@code read_committed} consumer, just the partitions
 * someone waits on (the others are paused), from the offset the first waiter reached. A waiter at
 * offset {@code o} of a partition is told once the consumer's position there passes {@code o}:
 * something was committed at or after {@code o} (a change, or only a transaction marker — then the
 * reader reads nothing and waits again, one offset further). While nobody waits the thread parks
 * instead of polling: a consumer whose partitions are all paused still woke ten times a second (it
 * has no position for them, so its poll waits no longer than its retry backoff).
 */
final class FeedTail implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(FeedTail.class);
    /** How long the tail's poll waits for a record before it looks again for waiters to wake or a close. */
    private static final Duration POLL = Duration.ofMillis(500);
    /** Closing the tail's consumer: it holds no state worth waiting for. */
    private static final Duration CLOSE = Duration.ofSeconds(2);
    /** The pause after a failed poll (the cluster unreachable, say) before the next: no busy loop meanwhile. */
    private static final Duration AFTER_FAILURE = Duration.ofMillis(200);

    private record Waiter(Map<Integer, Long> offsets, CompletableFuture<Void> done) {
    }

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final String topic;
    private final ConcurrentLinkedQueue<Waiter> arriving = new ConcurrentLinkedQueue<>();
    private final Thread thread;
    private volatile boolean running = true;
    // The following are the tail thread's own.
    private final Map<Integer, List<Waiter>> waiting = new HashMap<>();
    private final Set<Integer> followed = new HashSet<>();

    FeedTail(KafkaConsumer<byte[], byte[]> consumer, String topic, int partitions) {
        this.consumer = consumer;
        this.topic = topic;
        List<TopicPartition> all = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            all.add(new TopicPartition(topic, p));
        }
        consumer.assign(all);
        consumer.pause(all);
        this.thread = new Thread(this::run, "change-feed-tail");
        thread.setDaemon(true);
        thread.start();
    }

    /** Completes once a partition of {@code offsets} holds something committed at or past its offset, or after {@code timeout}. */
    CompletableFuture<Void> whenPast(Map<Integer, Long> offsets, Duration timeout) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        if (!running) {
            done.complete(null);
            return done;
        }
        arriving.add(new Waiter(Map.copyOf(offsets), done));
        consumer.wakeup();
        LockSupport.unpark(thread);
        return done.completeOnTimeout(null, timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void run() {
        while (running) {
            try {
                if (followed.isEmpty() && arriving.isEmpty()) {
                    LockSupport.park(this); // until a waiter arrives or the tail closes (or spuriously)
                    continue;
                }
                admit();
                consumer.poll(POLL);
                release();
            } catch (WakeupException e) {
                // a waiter arrived, or closing
            } catch (RuntimeException e) {
                LOG.warn("The change feed's tail failed to follow the changes topic; waiters are told to read again", e);
                releaseAll();
                sleepQuietly();
            }
        }
        releaseAll();
        consumer.close(CLOSE);
    }

    /** Follows the partitions new waiters wait on, from their offsets; tells at once those already passed. */
    private void admit() {
        Waiter w;
        while ((w = arriving.poll()) != null) {
            if (w.done().isDone()) {
                continue;
            }
            try {
                follow(w);
            } catch (WakeupException e) {
                arriving.add(w); // woken by another arrival while looking: look again
                throw e;
            }
        }
    }

    /** Follows the partitions {@code w} waits on (from its offsets, if nobody followed them); tells it if already passed. */
    private void follow(Waiter w) {
        boolean passed = false;
        for (Map.Entry<Integer, Long> e : w.offsets().entrySet()) {
            int p = e.getKey();
            TopicPartition tp = new TopicPartition(topic, p);
            if (followed.add(p)) {
                consumer.seek(tp, e.getValue());
                consumer.resume(List.of(tp));
            } else if (consumer.position(tp) > e.getValue()) {
                passed = true;
            }
            waiting.computeIfAbsent(p, k -> new ArrayList<>()).add(w);
        }
        if (passed) {
            w.done().complete(null);
        }
    }

    /** Tells the waiters whose partition moved past their offset; stops following partitions nobody waits on. */
    private void release() {
        for (Iterator<Map.Entry<Integer, List<Waiter>>> it = waiting.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Integer, List<Waiter>> e = it.next();
            int p = e.getKey();
            TopicPartition tp = new TopicPartition(topic, p);
            long position = consumer.position(tp);
            e.getValue().removeIf(w -> {
                if (!w.done().isDone() && position > w.offsets().get(p)) {
                    w.done().complete(null);
                }
                return w.done().isDone();
            });
            if (e.getValue().isEmpty()) {
                it.remove();
                followed.remove(p);
                consumer.pause(List.of(tp));
            }
        }
    }

    private void releaseAll() {
        waiting.values().forEach(ws -> ws.forEach(w -> w.done().complete(null)));
        waiting.clear();
        Waiter w;
        while ((w = arriving.poll()) != null) {
            w.done().complete(null);
        }
        if (!followed.isEmpty()) {
            consumer.pause(followed.stream().map(p -> new TopicPartition(topic, p)).toList());
            followed.clear();
        }
    }

    private static void sleepQuietly() {
        try {
            Thread.sleep(AFTER_FAILURE.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        running = false;
        consumer.wakeup();
        LockSupport.unpark(thread);
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
