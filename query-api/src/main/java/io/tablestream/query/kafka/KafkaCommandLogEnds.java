package io.tablestream.query.kafka;

import io.tablestream.query.http.CommandLogEnds;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;

/**
 * The command log's ends from Kafka: each partition's log end (high watermark), looked up with an
 * Admin client's ListOffsets, asynchronously, with a deadline. Ends only grow, so the last ends
 * seen answer every offset below them without a lookup; an offset at or past them needs a lookup
 * that started after it was asked about (a write answered a moment ago may lie past the ends seen
 * before). Lookups are coalesced: at most one runs, and every ask that arrives while it runs shares
 * the single one that follows it — so no number of requests naming offsets past the end costs more
 * than one lookup after another.
 */
public final class KafkaCommandLogEnds implements CommandLogEnds, AutoCloseable {
    private final Supplier<CompletableFuture<Map<Integer, Long>>> lookup;
    private final LongSupplier nanoTime;
    private final AutoCloseable resources;

    /** The ends last looked up (partition → end offset). */
    private volatile Map<Integer, Long> known = Map.of();

    // guarded by this
    private CompletableFuture<Map<Integer, Long>> running;
    private long runningSince;
    private CompletableFuture<Map<Integer, Long>> next;

    KafkaCommandLogEnds(Supplier<CompletableFuture<Map<Integer, Long>>> lookup, LongSupplier nanoTime,
                        AutoCloseable resources) {
        this.lookup = lookup;
        this.nanoTime = nanoTime;
        this.resources = resources;
    }

    /**
     * Looks the ends of {@code topic}'s partitions {@code 0..partitions-1} up on the cluster at
     * {@code bootstrapServers}, with the configured client settings {@code clientSettings} (security
     * among them) that an admin client takes; a lookup that takes longer than {@code timeout} fails.
     */
    public static KafkaCommandLogEnds open(String bootstrapServers, String topic, int partitions, Duration timeout,
                                           Map<String, String> clientSettings) {
        int timeoutMs = (int) Math.max(1, timeout.toMillis());
        Admin admin = Admin.create(AdminSettings.of(bootstrapServers, "tablestream-log-ends", timeoutMs, clientSettings));
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        for (int p = 0; p < partitions; p++) {
            request.put(new TopicPartition(topic, p), OffsetSpec.latest());
        }
        Supplier<CompletableFuture<Map<Integer, Long>>> lookup = () -> {
            CompletableFuture<Map<Integer, Long>> ends = new CompletableFuture<>();
            admin.listOffsets(request).all().whenComplete((offsets, error) -> {
                if (error != null) {
                    ends.completeExceptionally(error);
                    return;
                }
                Map<Integer, Long> byPartition = new HashMap<>();
                for (Map.Entry<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> e : offsets.entrySet()) {
                    byPartition.put(e.getKey().partition(), e.getValue().offset());
                }
                ends.complete(byPartition);
            });
            return ends.orTimeout(timeoutMs, TimeUnit.MILLISECONDS);
        };
        return new KafkaCommandLogEnds(lookup, System::nanoTime, () -> admin.close(Duration.ofSeconds(5)));
    }

    @Override
    public CompletableFuture<Long> endBeyond(int partition, long offset) {
        Long end = known.get(partition);
        if (end != null && end > offset) {
            return CompletableFuture.completedFuture(end);
        }
        return lookedUpAfter(nanoTime.getAsLong()).thenApply(ends -> {
            Long found = ends.get(partition);
            if (found == null) {
                throw new IllegalStateException("the command log has no partition " + partition);
            }
            return Math.max(found, known.getOrDefault(partition, found));
        });
    }

    /** The ends of a lookup that starts no earlier than {@code askedAt}. */
    private synchronized CompletableFuture<Map<Integer, Long>> lookedUpAfter(long askedAt) {
        if (running == null) {
            return start();
        }
        if (runningSince - askedAt >= 0) {
            return running;
        }
        if (next == null) {
            next = new CompletableFuture<>();
        }
        return next;
    }

    /** Starts a lookup (holding the lock); when it ends, the one asked for meanwhile starts. */
    private CompletableFuture<Map<Integer, Long>> start() {
        runningSince = nanoTime.getAsLong();
        CompletableFuture<Map<Integer, Long>> lookingUp;
        try {
            lookingUp = lookup.get();
        } catch (RuntimeException e) {
            lookingUp = CompletableFuture.failedFuture(e);
        }
        running = lookingUp;
        CompletableFuture<Map<Integer, Long>> started = lookingUp;
        lookingUp.whenComplete((ends, error) -> finished(started, ends));
        return lookingUp;
    }

    private synchronized void finished(CompletableFuture<Map<Integer, Long>> lookup, Map<Integer, Long> ends) {
        if (ends != null) {
            Map<Integer, Long> merged = new HashMap<>(known);
            ends.forEach((partition, end) -> merged.merge(partition, end, Math::max));
            known = Map.copyOf(merged);
        }
        if (running != lookup) {
            return;
        }
        running = null;
        if (next != null) {
            CompletableFuture<Map<Integer, Long>> waiting = next;
            next = null;
            start().whenComplete((e, error) -> {
                if (error != null) {
                    waiting.completeExceptionally(error);
                } else {
                    waiting.complete(e);
                }
            });
        }
    }

    @Override
    public void close() throws Exception {
        resources.close();
    }
}
