package io.tablestream.processor.internal;

import io.tablestream.processor.store.LocalReplicas;
import io.tablestream.processor.store.StoreNames;
import java.time.Duration;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.LagInfo;
import org.apache.kafka.streams.TaskMetadata;
import org.apache.kafka.streams.ThreadMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link LocalReplicas} from Kafka Streams: the tasks of the local threads, and the lags of
 * {@link KafkaStreams#allLocalStorePartitionLags()} (KIP-535). That call asks the brokers for the
 * changelogs' end offsets, so it runs on a timer of its own, never on a request or stream thread,
 * and readers see the last measurement.
 *
 * <p>A standby's lag is reported only once it is <em>warm</em>: once it has reached the end its
 * changelog had when this instance first measured it. A standby just placed here (after another
 * instance died, say) starts empty or from old local state; on a small partition its lag is small
 * from the start, yet it lacks rows written long ago, and reads served from it would answer 404 for
 * them. Once warm, it misses at most what was written since, within the lag bound readers accept.
 */
public final class StreamsLocalReplicas implements LocalReplicas, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StreamsLocalReplicas.class);

    /** How long a look at the local tasks is reused: reads ask on every request, and the answer changes only at rebalances. */
    private static final long TASKS_REUSED_NANOS = Duration.ofMillis(100).toNanos();

    private final KafkaStreams streams;
    private final ScheduledExecutorService timer;
    private volatile Map<Integer, Long> lags = Map.of();
    /** For each local standby not warm yet, the changelog end it must reach (measuring thread only). */
    private final Map<Integer, Long> warmingTargets = new java.util.HashMap<>();
    /** Local standbys that have been warm since they were placed here (measuring thread only). */
    private final Set<Integer> warm = new java.util.HashSet<>();
    private volatile Tasks tasks = new Tasks(Set.of(), Set.of(), System.nanoTime() - TASKS_REUSED_NANOS);

    /** The partitions of the local tasks, as seen at {@code seenAt}. */
    private record Tasks(Set<Integer> active, Set<Integer> standby, long seenAt) {
    }

    /** @param refresh how often the lags are measured */
    public StreamsLocalReplicas(KafkaStreams streams, Duration refresh) {
        this.streams = streams;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "replica-lags");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleWithFixedDelay(this::measure, refresh.toMillis(), refresh.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void measure() {
        KafkaStreams.State state = streams.state();
        if (state != KafkaStreams.State.RUNNING && state != KafkaStreams.State.REBALANCING) {
            lags = Map.of();
            return;
        }
        try {
            Set<Integer> standbys = standby();
            Map<Integer, LagInfo> entities = streams.allLocalStorePartitionLags().getOrDefault(StoreNames.ENTITIES, Map.of());
            warmingTargets.keySet().retainAll(standbys);
            warm.retainAll(standbys);
            Map<Integer, Long> measured = new TreeMap<>();
            entities.forEach((partition, info) -> {
                if (standbys.contains(partition) && !warm.contains(partition)) {
                    // A changelog ends with a transaction marker the standby's position never passes.
                    long target = warmingTargets.computeIfAbsent(partition, p -> info.endOffsetPosition() - 1);
                    if (info.currentOffsetPosition() < target) {
                        return; // still catching up with what was there when it was placed here
                    }
                    warm.add(partition);
                    warmingTargets.remove(partition);
                }
                measured.put(partition, Math.max(0, info.offsetLag()));
            });
            lags = Map.copyOf(measured);
        } catch (RuntimeException e) {
            // The brokers did not answer in time, or Streams is changing state: keep the last measurement.
            LOG.debug("Could not measure the local replicas' lags: {}", e.toString());
        }
    }

    @Override
    public Set<Integer> active() {
        return tasks().active();
    }

    /**
     * Looked up afresh: a standby read must never meet a task that has just become active and is
     * restoring (its store is not complete yet), which a reused look could still show as a standby.
     */
    @Override
    public Set<Integer> standby() {
        tasks = null;
        return tasks().standby();
    }

    private Tasks tasks() {
        Tasks seen = tasks;
        long now = System.nanoTime();
        if (seen != null && now - seen.seenAt() < TASKS_REUSED_NANOS) {
            return seen;
        }
        Set<Integer> active = new TreeSet<>();
        Set<Integer> standby = new TreeSet<>();
        Set<ThreadMetadata> threads;
        try {
            threads = streams.metadataForLocalThreads();
        } catch (IllegalStateException e) {
            threads = Set.of(); // not running (starting, stopping): no copy is served here
        }
        for (ThreadMetadata thread : threads) {
            for (TaskMetadata task : thread.activeTasks()) {
                active.add(task.taskId().partition());
            }
            for (TaskMetadata task : thread.standbyTasks()) {
                standby.add(task.taskId().partition());
            }
        }
        seen = new Tasks(Set.copyOf(active), Set.copyOf(standby), now);
        tasks = seen;
        return seen;
    }

    @Override
    public OptionalLong lag(int partition) {
        Long lag = lags.get(partition);
        return lag == null ? OptionalLong.empty() : OptionalLong.of(lag);
    }

    @Override
    public Map<Integer, Long> lags() {
        return lags;
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
