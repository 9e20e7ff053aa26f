package io.tablestream.processor;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.tablestream.core.command.EntityChange;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.processor.internal.BoundedRocksDbMemory;
import io.tablestream.processor.store.StoreNames;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.TaskMetadata;
import org.apache.kafka.streams.ThreadMetadata;

/**
 * The stream processor's metrics, counted where the work happens (the task's outputs, on the stream
 * threads: an add to a {@link LongAdder}) and turned into Micrometer meters when bound:
 * <ul>
 *   <li>{@value #COMMANDS_APPLIED} by {@code result} ({@code applied}, {@code rejected}): commands decided, one
 *       outcome each;</li>
 *   <li>{@value #ENTITY_CHANGES} by {@code type} ({@code inserted}, {@code replaced}, {@code merged},
 *       {@code deleted}, {@code expired}, {@code partition_deleted}, {@code table_deleted}): entity changes applied to the stores (and published on the change
 *       feed);</li>
 *   <li>{@value #APPLY_DELAY} (timer): from a command's append (its record timestamp) to its decision;</li>
 *   <li>{@value #SINGLE_WRITE_DECIDE} (timer): a single write's time on its stream thread, from its decoded
 *       command to its answer (admission, its row's lookup, decision, the stores' writes);
 *       {@value #ROW_LOOKUP} (timer) by {@code found} ({@code true}, {@code false}): that row's lookup in the
 *       entities store (an insert of a new entity looks up a row that is not there);</li>
 *   <li>{@value #APPLY_LAG_RECORDS} and {@value #APPLY_LAG_SECONDS} by {@code partition}: commands on the log not
 *       yet applied by this instance's active task of the partition, and how old the last applied one was
 *       when there is a backlog (0 for a partition this instance does not apply: take the max across
 *       instances);</li>
 *   <li>{@value #DEAD_LETTERS} by {@code code}; {@value #TTL_EXPIRED}; {@value #ROWS_SWEPT} (rows of deleted tables
 *       and partitions removed in the background);</li>
 *   <li>{@value #STATE} by {@code state} (1 for the current one), {@value #REBALANCES}, {@value #PROMOTIONS}
 *       (standby copies of this instance that became active: fail-overs), {@value #PARTITIONS} by {@code role};</li>
 *   <li>{@value #STORE_SIZE} by {@code store} (bytes on disk, every local copy), {@value #ROCKSDB_MEMORY}
 *       (the shared block cache with the memtables charged to it);</li>
 *   <li>and Kafka Streams' own metrics ({@link #kafkaMetrics}), which the server bridges as
 *       {@code kafka_stream_*}, {@code kafka_consumer_*}, {@code kafka_producer_*}.</li>
 * </ul>
 *
 * <p>One class, over 400 lines: every meter of the processor, its cheap counting on the stream threads
 * beside its registration, so that names, tags and descriptions are read and kept in one place.
 */
public final class StreamProcessorMetrics implements MeterBinder, AutoCloseable {
    public static final String COMMANDS_APPLIED = "tablestream.commands.applied";
    public static final String ENTITY_CHANGES = "tablestream.entity.changes";
    public static final String APPLY_DELAY = "tablestream.command.apply.delay";
    public static final String SINGLE_WRITE_DECIDE = "tablestream.single.write.decide";
    public static final String ROW_LOOKUP = "tablestream.single.write.row.lookup";
    public static final String APPLY_LAG_RECORDS = "tablestream.apply.lag.records";
    public static final String APPLY_LAG_SECONDS = "tablestream.apply.lag.seconds";
    public static final String DEAD_LETTERS = "tablestream.dead.letters";
    public static final String TTL_EXPIRED = "tablestream.ttl.expired";
    public static final String ROWS_SWEPT = "tablestream.rows.swept";
    public static final String STATE = "tablestream.processor.state";
    public static final String REBALANCES = "tablestream.processor.rebalances";
    public static final String PROMOTIONS = "tablestream.partitions.promoted";
    public static final String PARTITIONS = "tablestream.partitions";
    public static final String STORE_SIZE = "tablestream.store.size.bytes";
    public static final String ROCKSDB_MEMORY = "tablestream.rocksdb.memory.bytes";

    /** How long a look at Kafka Streams' metrics (for the lags) and at the state directory is reused. */
    private static final long REUSED_NANOS = Duration.ofSeconds(1).toNanos();

    private final int partitions;
    private final LongAdder applied = new LongAdder();
    private final LongAdder rejected = new LongAdder();
    private final Map<EntityChange.Type, LongAdder> changes = new EnumMap<>(EntityChange.Type.class);
    private final Map<ErrorCode, LongAdder> deadLetters = new EnumMap<>(ErrorCode.class);
    /** Dead-letter codes whose counter is registered (a code gets one when first seen, or at bind). */
    private final Set<ErrorCode> deadLetterCodes = ConcurrentHashMap.newKeySet();
    private final LongAdder sweptRows = new LongAdder();
    private final LongAdder rebalances = new LongAdder();
    private final LongAdder promotions = new LongAdder();
    /** Per partition: the record timestamp of the last command this instance decided. */
    private final AtomicLongArray lastDecided;
    private volatile Timer applyDelay;
    private volatile Timer singleWriteDecide;
    private volatile Timer rowFound;
    private volatile Timer rowAbsent;
    private volatile MeterRegistry registry;
    private volatile KafkaStreams streams;
    private volatile Path stateDir;
    private volatile String commandsTopic = "";
    private volatile KafkaStreams.State state = KafkaStreams.State.CREATED;
    /** Standby partitions of this instance as of the last time it ran (to count promotions). */
    private Set<Integer> lastStandbys = Set.of();
    private final Cached<Map<Integer, Long>> lags = new Cached<>(this::measureLags);
    private final Cached<Map<String, Long>> storeSizes = new Cached<>(this::measureStoreSizes);

    public StreamProcessorMetrics(int partitions) {
        this.partitions = partitions;
        this.lastDecided = new AtomicLongArray(partitions);
        for (EntityChange.Type type : EntityChange.Type.values()) {
            changes.put(type, new LongAdder());
        }
        for (ErrorCode code : ErrorCode.values()) {
            deadLetters.put(code, new LongAdder());
        }
    }

    /** Where the measurements come from once the processor runs: its Kafka Streams, topic and state directory. */
    void attach(KafkaStreams streams, String commandsTopic, Path stateDir) {
        this.streams = streams;
        this.commandsTopic = commandsTopic;
        this.stateDir = stateDir;
    }

    // ---- counted by the tasks (stream threads): must stay cheap ----

    /** A command was decided on {@code partition}: its outcome was emitted. */
    public void decided(int partition, boolean succeeded, long recordTimestamp) {
        (succeeded ? applied : rejected).increment();
        if (partition >= 0 && partition < partitions) {
            lastDecided.set(partition, recordTimestamp);
        }
        Timer delay = applyDelay;
        if (delay != null && recordTimestamp > 0) {
            delay.record(Math.max(0, System.currentTimeMillis() - recordTimestamp), TimeUnit.MILLISECONDS);
        }
    }

    /** A single write (no change set's, transaction's, bulk write's or job's) took {@code nanos} on its stream thread, up to its answer. */
    public void singleWriteDecided(long nanos) {
        Timer t = singleWriteDecide;
        if (t != null) {
            t.record(nanos, TimeUnit.NANOSECONDS);
        }
    }

    /** A single write's row lookup took {@code nanos}; {@code found}: the row was there. */
    public void rowLookedUp(boolean found, long nanos) {
        Timer t = found ? rowFound : rowAbsent;
        if (t != null) {
            t.record(nanos, TimeUnit.NANOSECONDS);
        }
    }

    /** An entity change was applied (and published). */
    public void changed(EntityChange.Type type) {
        changes.get(type).increment();
    }

    /** The background sweep removed {@code rows} rows of deleted tables or partitions. */
    public void swept(int rows) {
        sweptRows.add(rows);
    }

    /** A record went to the dead-letter topic. */
    public void deadLettered(ErrorCode code) {
        deadLetters.get(code).increment();
        if (deadLetterCodes.add(code)) {
            MeterRegistry r = registry;
            if (r != null) {
                registerDeadLetters(r, code, deadLetters.get(code));
            }
        }
    }

    /** Kafka Streams changed state (called from its state listener). */
    void stateChanged(KafkaStreams.State now, KafkaStreams.State before) {
        state = now;
        if (now == KafkaStreams.State.REBALANCING && before != KafkaStreams.State.REBALANCING) {
            rebalances.increment();
        }
        if (now == KafkaStreams.State.RUNNING) {
            countPromotions();
        }
    }

    private synchronized void countPromotions() {
        KafkaStreams s = streams;
        if (s == null) {
            return;
        }
        Set<Integer> active = new java.util.HashSet<>();
        Set<Integer> standby = new java.util.HashSet<>();
        try {
            for (ThreadMetadata thread : s.metadataForLocalThreads()) {
                thread.activeTasks().forEach(t -> active.add(t.taskId().partition()));
                thread.standbyTasks().forEach(t -> standby.add(t.taskId().partition()));
            }
        } catch (RuntimeException e) {
            return; // changing state again: the next RUNNING counts
        }
        for (int p : active) {
            if (lastStandbys.contains(p)) {
                promotions.increment();
            }
        }
        lastStandbys = Set.copyOf(standby);
    }

    // ---- Micrometer ----

    @Override
    public void bindTo(MeterRegistry registry) {
        this.registry = registry;
        FunctionCounter.builder(COMMANDS_APPLIED, applied, LongAdder::sum).tag("result", "applied")
                .description("Commands decided by this instance's tasks, by result").register(registry);
        FunctionCounter.builder(COMMANDS_APPLIED, rejected, LongAdder::sum).tag("result", "rejected")
                .description("Commands decided by this instance's tasks, by result").register(registry);
        changes.forEach((type, count) -> {
            if (type == EntityChange.Type.EXPIRED) {
                FunctionCounter.builder(TTL_EXPIRED, count, LongAdder::sum)
                        .description("Entities deleted because their time to live ran out").register(registry);
            }
            FunctionCounter.builder(ENTITY_CHANGES, count, LongAdder::sum)
                    .tag("type", type.name().toLowerCase(java.util.Locale.ROOT))
                    .description("Entity changes applied to the stores and published on the change feed")
                    .register(registry);
        });
        // INVALID_INPUT always, so that a dashboard shows 0 rather than nothing; others once seen.
        deadLetterCodes.add(ErrorCode.INVALID_INPUT);
        for (ErrorCode code : deadLetterCodes) {
            registerDeadLetters(registry, code, deadLetters.get(code));
        }
        this.applyDelay = Timer.builder(APPLY_DELAY)
                .description("Time from a command's append to its decision").register(registry);
        this.singleWriteDecide = Timer.builder(SINGLE_WRITE_DECIDE)
                .description("A single write's time on its stream thread, from its decoded command to its answer")
                .register(registry);
        this.rowFound = Timer.builder(ROW_LOOKUP).tag("found", "true")
                .description("A single write's row lookup in the entities store, by whether the row was there")
                .register(registry);
        this.rowAbsent = Timer.builder(ROW_LOOKUP).tag("found", "false")
                .description("A single write's row lookup in the entities store, by whether the row was there")
                .register(registry);
        FunctionCounter.builder(ROWS_SWEPT, sweptRows, LongAdder::sum)
                .description("Rows of deleted tables and partitions removed by the background sweep").register(registry);
        FunctionCounter.builder(REBALANCES, rebalances, LongAdder::sum)
                .description("Times this instance's processor began a rebalance").register(registry);
        FunctionCounter.builder(PROMOTIONS, promotions, LongAdder::sum)
                .description("Standby copies on this instance that became active (fail-overs and moves)")
                .register(registry);
        for (KafkaStreams.State s : KafkaStreams.State.values()) {
            Gauge.builder(STATE, this, m -> m.state == s ? 1 : 0).tag("state", s.name())
                    .description("The processor's state: 1 for the current one").register(registry);
        }
        Gauge.builder(PARTITIONS, this, m -> m.localPartitions(true)).tag("role", "active")
                .description("Partitions this instance holds, by role").register(registry);
        Gauge.builder(PARTITIONS, this, m -> m.localPartitions(false)).tag("role", "standby")
                .description("Partitions this instance holds, by role").register(registry);
        for (int p = 0; p < partitions; p++) {
            int partition = p;
            Gauge.builder(APPLY_LAG_RECORDS, this, m -> m.lags.get().getOrDefault(partition, 0L))
                    .tag("partition", Integer.toString(p))
                    .description("Commands on the log that this instance's active task has not applied yet")
                    .register(registry);
            Gauge.builder(APPLY_LAG_SECONDS, this, m -> m.lagSeconds(partition))
                    .tag("partition", Integer.toString(p))
                    .description("Age of the last command applied, while commands wait (0 when caught up)")
                    .register(registry);
        }
        for (String store : StoreNames.ALL) {
            Gauge.builder(STORE_SIZE, this, m -> m.storeSizes.get().getOrDefault(store, 0L)).tag("store", store)
                    .description("Bytes on disk of every local copy of the store").baseUnit("bytes").register(registry);
        }
        Gauge.builder(ROCKSDB_MEMORY, BoundedRocksDbMemory::usedBytes).baseUnit("bytes")
                .description("RocksDB block cache and memtables, shared by every store of the instance (bounded)")
                .register(registry);
    }

    /** Kafka Streams' own metrics (its clients' included) as they are now; none before the processor runs. */
    public Map<MetricName, ? extends Metric> kafkaMetrics() {
        KafkaStreams s = streams;
        return s == null ? Map.of() : s.metrics();
    }

    private static void registerDeadLetters(MeterRegistry registry, ErrorCode code, LongAdder count) {
        FunctionCounter.builder(DEAD_LETTERS, count, LongAdder::sum).tag("code", code.code())
                .description("Records written to the dead-letter topic, by error code").register(registry);
    }

    private double localPartitions(boolean active) {
        KafkaStreams s = streams;
        if (s == null) {
            return 0;
        }
        int n = 0;
        try {
            for (ThreadMetadata thread : s.metadataForLocalThreads()) {
                Set<TaskMetadata> tasks = active ? thread.activeTasks() : thread.standbyTasks();
                n += tasks.size();
            }
        } catch (RuntimeException e) {
            return 0;
        }
        return n;
    }

    private double lagSeconds(int partition) {
        long records = lags.get().getOrDefault(partition, 0L);
        long last = lastDecided.get(partition);
        if (records <= 0 || last <= 0) {
            return 0;
        }
        return Math.max(0, System.currentTimeMillis() - last) / 1000.0;
    }

    /**
     * The lag of each commands partition this instance applies: the main consumer's {@code records-lag}
     * (the log end at its last fetch minus its position).
     */
    private Map<Integer, Long> measureLags() {
        KafkaStreams s = streams;
        if (s == null) {
            return Map.of();
        }
        Map<Integer, Long> byPartition = new HashMap<>();
        try {
            for (Map.Entry<MetricName, ? extends Metric> e : s.metrics().entrySet()) {
                MetricName name = e.getKey();
                if (!name.name().equals("records-lag") || !name.group().equals("consumer-fetch-manager-metrics")) {
                    continue;
                }
                String topic = name.tags().get("topic");
                String partition = name.tags().get("partition");
                String client = name.tags().getOrDefault("client-id", "");
                if (topic == null || partition == null || !topic.equals(commandsTopic) || client.endsWith("restore-consumer")) {
                    continue;
                }
                Object value = e.getValue().metricValue();
                if (value instanceof Number n && !Double.isNaN(n.doubleValue())) {
                    byPartition.merge(Integer.parseInt(partition), (long) n.doubleValue(), Math::max);
                }
            }
        } catch (RuntimeException e) {
            return Map.of();
        }
        return byPartition;
    }

    /** Bytes of each store's files under the state directory (every task's copy, and the global store). */
    private Map<String, Long> measureStoreSizes() {
        Path dir = stateDir;
        if (dir == null || !Files.isDirectory(dir)) {
            return Map.of();
        }
        Map<String, Long> sizes = new HashMap<>();
        try {
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
                    String store = storeOf(dir.relativize(file));
                    if (store != null) {
                        sizes.merge(store, attributes.size(), Long::sum);
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) {
                    return FileVisitResult.CONTINUE; // a file RocksDB just removed
                }
            });
        } catch (IOException | RuntimeException e) {
            return Map.of();
        }
        return sizes;
    }

    /** The store a state-directory file belongs to: the directory after {@code rocksdb} or {@code committed-rocksdb}. */
    static String storeOf(Path relative) {
        for (int i = 0; i + 1 < relative.getNameCount() - 1; i++) {
            String part = relative.getName(i).toString();
            if (part.equals("rocksdb") || part.equals("committed-rocksdb")) {
                return relative.getName(i + 1).toString();
            }
        }
        return null;
    }

    @Override
    public void close() {
        // nothing held: the meters read the counters above and Kafka Streams' metrics, and go with the registry
    }

    /** A measurement reused for a second: scrapes of several gauges share one look. */
    private static final class Cached<T> {
        private final Supplier<T> measure;
        private volatile T value;
        private volatile long at;

        Cached(Supplier<T> measure) {
            this.measure = measure;
        }

        T get() {
            long now = System.nanoTime();
            T v = value;
            if (v == null || now - at > REUSED_NANOS) {
                v = measure.get();
                value = v;
                at = now;
            }
            return v;
        }
    }
}
