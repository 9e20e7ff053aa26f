package io.tablestream.processor.internal;

import io.tablestream.processor.store.LocalReplicas;
import io.tablestream.processor.store.StoreNames;
import io.tablestream.processor.store.StoreReplica;
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
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
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
 *
 * <p>A warm standby's lag is counted in client writes on the command log that it has not applied
 * ({@link UnappliedCommands}), not in changelog records: writes are answered before the active
 * commits them, so a standby can be at the end of its changelog and still lack answered writes (the
 * active's open transaction, or, after the active died, everything since its last commit, until
 * the new active has replayed it). A standby whose lag cannot be told is not reported.
 */
public final class StreamsLocalReplicas implements LocalReplicas, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StreamsLocalReplicas.class);

    /** How long a look at the local tasks is reused: reads ask on every request, and the answer changes only at rebalances. */
    private static final long TASKS_REUSED_NANOS = Duration.ofMillis(100).toNanos();
    /**
     * How often the brokers are asked while this instance holds no standby copy and runs: a running
     * active copy is caught up by Kafka Streams' own measure (its lag is 0), and only a standby's lag
     * decides anything (which copy serves a read), so the lags are then refreshed for {@code /_cluster}
     * only. Each look asks for the end offsets of every local changelog partition; at the refresh
     * interval (250 ms) that was about 30 thread wake-ups and 5 ms of CPU a second of an idle server.
     */
    private static final long WITHOUT_STANDBYS_NANOS = Duration.ofSeconds(10).toNanos();

    private final KafkaStreams streams;
    private final ScheduledExecutorService timer;
    /** A measurement older than this is no measurement: a standby is then not known to be complete. */
    private final long lagsValidNanos;
    private final java.util.function.BooleanSupplier current;
    private volatile long measuredAtNanos = System.nanoTime();
    /** Used by the measuring thread only. */
    private final UnappliedCommands unapplied;
    private volatile Map<Integer, Long> lags = Map.of();
    /** For each local standby not warm yet, the changelog end it must reach (measuring thread only). */
    private final Map<Integer, Long> warmingTargets = new java.util.HashMap<>();
    /** Local standbys that have been warm since they were placed here (measuring thread only). */
    private final Set<Integer> warm = new java.util.HashSet<>();
    private volatile Tasks tasks = new Tasks(Set.of(), Set.of(), System.nanoTime() - TASKS_REUSED_NANOS);

    /** The partitions of the local tasks, as seen at {@code seenAt}. */
    private record Tasks(Set<Integer> active, Set<Integer> standby, long seenAt) {
    }

    /**
     * @param refresh how often the lags are measured; a lag measured more than four times that long ago
     *     is not reported (the brokers did not answer since: the copy may lack what was written since)
     * @param consumerSettings the settings of a consumer of the command log (address, security)
     * @param commandsTopic the command log's topic
     * @param current whether the copies here may serve reads at all ({@link LocalReplicas#current})
     */
    public StreamsLocalReplicas(KafkaStreams streams, Duration refresh, Map<String, Object> consumerSettings,
                                String commandsTopic, java.util.function.BooleanSupplier current) {
        this.streams = streams;
        this.lagsValidNanos = refresh.multipliedBy(4).toNanos();
        this.current = current;
        this.unapplied = new UnappliedCommands(consumerSettings, commandsTopic);
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
            if (standbys.isEmpty() && state == KafkaStreams.State.RUNNING && !lags.isEmpty()
                    && System.nanoTime() - measuredAtNanos < WITHOUT_STANDBYS_NANOS) {
                return;
            }
            Map<Integer, LagInfo> entities = streams.allLocalStorePartitionLags().getOrDefault(StoreNames.ENTITIES, Map.of());
            warmingTargets.keySet().retainAll(standbys);
            warm.retainAll(standbys);
            Map<Integer, Long> measured = new TreeMap<>();
            Map<Integer, Long> warmStandbys = new TreeMap<>(); // partition → the last command its copy applied
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
                if (standbys.contains(partition)) {
                    appliedOffset(partition).ifPresent(offset -> warmStandbys.put(partition, offset));
                } else {
                    measured.put(partition, Math.max(0, info.offsetLag()));
                }
            });
            try {
                measured.putAll(unapplied.count(warmStandbys));
            } catch (RuntimeException e) {
                // the command log did not answer in time: no standby is known to be complete
                LOG.debug("Could not count the writes the standbys lack: {}", e.toString());
            }
            lags = Map.copyOf(measured);
            measuredAtNanos = System.nanoTime();
        } catch (RuntimeException e) {
            // The brokers did not answer in time, or Streams is changing state: keep the last measurement.
            LOG.debug("Could not measure the local replicas' lags: {}", e.toString());
        }
    }

    /** The offset of the last command the local standby of {@code partition} applied; empty when it cannot be read now. */
    private OptionalLong appliedOffset(int partition) {
        try {
            ReadOnlyKeyValueStore<String, byte[]> meta = QueryableStores.keyValue(streams, StoreNames.TASK_META,
                    partition, StoreReplica.ACTIVE_OR_STANDBY);
            return OptionalLong.of(TaskState.appliedOffset(meta));
        } catch (RuntimeException e) {
            LOG.debug("Could not read what standby {} applied: {}", partition, e.toString());
            return OptionalLong.empty();
        }
    }

    @Override
    public Set<Integer> active() {
        return tasks().active();
    }

    /**
     * The partitions of the local active tasks, looked up afresh: start-up must not judge by a look the
     * lag timer took a moment before, while the processor was still rebalancing (it may lack tasks
     * assigned since).
     */
    public Set<Integer> activeNow() {
        return lookUp().active();
    }

    /**
     * Looked up afresh: a standby read must never meet a task that has just become active and is
     * restoring (its store is not complete yet), which a reused look could still show as a standby.
     */
    @Override
    public Set<Integer> standby() {
        return lookUp().standby();
    }

    /** The last look at the local tasks if it is recent enough, else a new one. */
    private Tasks tasks() {
        Tasks seen = tasks;
        return System.nanoTime() - seen.seenAt() < TASKS_REUSED_NANOS ? seen : lookUp();
    }

    /** A new look at the local tasks, kept for {@link #tasks}. */
    private Tasks lookUp() {
        long now = System.nanoTime();
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
        Tasks seen = new Tasks(Set.copyOf(active), Set.copyOf(standby), now);
        tasks = seen;
        return seen;
    }

    @Override
    public OptionalLong lag(int partition) {
        Long lag = lags.get(partition);
        return lag == null || System.nanoTime() - measuredAtNanos > lagsValidNanos ? OptionalLong.empty()
                : OptionalLong.of(lag);
    }

    @Override
    public boolean current() {
        return current.getAsBoolean();
    }

    @Override
    public Map<Integer, Long> lags() {
        return lags;
    }

    @Override
    public void close() {
        timer.shutdownNow();
        try {
            if (!timer.awaitTermination(5, TimeUnit.SECONDS)) {
                LOG.warn("The replica-lag measurement did not stop within 5 s");
                return; // its consumer is still in use: leave it to the JVM's exit
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        unapplied.close();
    }
}
