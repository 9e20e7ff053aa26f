package io.tablestream.processor;

import io.tablestream.processor.internal.BoundedRocksDbMemory;
import io.tablestream.processor.internal.ClusterContact;
import io.tablestream.processor.internal.HangingTransactions;
import io.tablestream.processor.internal.state.CommitNotifyingClientSupplier;
import io.tablestream.processor.internal.StreamsEntityStore;
import io.tablestream.processor.internal.StreamsLocalReplicas;
import io.tablestream.processor.internal.StreamsTableRegistry;
import io.tablestream.processor.store.AppliedOffsets;
import io.tablestream.processor.store.EntityStore;
import io.tablestream.processor.store.LocalReplicas;
import io.tablestream.processor.store.RegistryEvents;
import io.tablestream.processor.store.TransactionProgress;
import io.tablestream.core.registry.TableRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running processor of one instance: installs the topics, starts Kafka Streams on the
 * topology, and gives readers access to the stores it hosts.
 *
 * <p>One class, over 400 lines: start-up (topics, Streams' settings, waiting until every task is
 * readable), the stream threads' failure policy, the hanging-transaction checks and the close
 * share one Kafka Streams instance and its admin client, whose lifecycle is this class's; the
 * topology itself and the stores' machinery live apart ({@code processor.internal}).
 */
public final class StreamProcessor implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StreamProcessor.class);
    /** Thread failures tolerated within {@link #FAILURE_WINDOW} before the client shuts down. */
    private static final int MAX_THREAD_FAILURES = 5;
    /** Failures further apart than this are a thread replaced now and then, not a processor that cannot run. */
    private static final Duration FAILURE_WINDOW = Duration.ofMinutes(1);
    /** Each admin call of a hanging-transaction check: a broker that just restarted answers within it. */
    private static final Duration HANGING_CHECK_CALLS = Duration.ofSeconds(30);
    /**
     * How often hanging transactions are looked for: every few seconds whenever the processor is not
     * running (starting, or rebalancing after its broker came back: a transaction the broker's
     * restart stranded holds a partition until it is aborted), every minute while it runs.
     */
    private static final Duration HANGING_CHECK_UNTIL_RUNNING = Duration.ofSeconds(3);
    private static final Duration HANGING_CHECK_WHEN_RUNNING = Duration.ofMinutes(1);
    /**
     * How often an instance of several looks whether it was given tasks, to end the open transactions
     * their previous owners left (see {@link #fenceDepartedOwners()}): a look reads the local threads'
     * metadata, and asks the group's coordinator only while a rebalance lasts or tasks were gained.
     */
    private static final Duration DEPARTED_OWNER_LOOK = Duration.ofMillis(250);
    /** Each admin call of that check: a broker fail-over may be under way, the next look tries again. */
    private static final Duration DEPARTED_OWNER_CALLS = Duration.ofSeconds(5);
    /** Closing Kafka Streams: its tasks commit and, with standbys, the instance leaves its group. */
    private static final Duration STREAMS_CLOSE = Duration.ofSeconds(30);
    /** Closing the admin client: nothing it does is worth waiting for at a stop. */
    private static final Duration ADMIN_CLOSE = Duration.ofSeconds(5);
    /** How often start-up looks whether every active task is readable: a look is cheap, and start-up waits on it. */
    private static final Duration READABLE_CHECK = Duration.ofMillis(10);
    /** How long the tasks' producers gather outputs before sending them (see streamsProperties). */
    static final Duration TASK_PRODUCER_LINGER = Duration.ofMillis(20);

    private final StreamProcessorConfig config;
    private final Topics topics;
    private final int commandPartitions;
    private final String commandsTopicId;
    private final TopicReplication replication;
    private final ProcessorSettings settings;
    private final KafkaStreams streams;
    private final EntityStore entities;
    private final StreamsLocalReplicas replicas;
    private final TableRegistry registry;
    private final Deque<Instant> threadFailures = new ArrayDeque<>();
    private final Admin admin;
    private final ScheduledExecutorService repairs;
    /** The hanging-transaction check, one for all its runs: it remembers what earlier runs saw. */
    private final HangingTransactions hanging;
    private final CommitNotifyingClientSupplier clients;
    /** Null on a single node: there, no other instance leaves transactions behind. */
    private final ScheduledExecutorService departedOwners;
    /** The partitions assigned to this instance at the last check of departed owners that succeeded. */
    private Set<Integer> assignedChecked = Set.of();
    /** Null on a single node. */
    private final ClusterContact contact;
    /** When the last hanging-transaction check began ({@link System#nanoTime()}). */
    private volatile long lastHangingCheck;

    private StreamProcessor(StreamProcessorConfig config, ApplyObserver observer, WriteAnswers answers) {
        this.config = config;
        this.topics = Topics.withPrefix(config.topicPrefix());
        this.admin = Admin.create(adminSettings(config));
        try {
            TopicInstaller.Installed installed = TopicInstaller.install(admin, config.bootstrapServers(), topics,
                    config.partitions(), config.replicationFactor(), config.overrides());
            this.commandPartitions = installed.commandPartitions();
            this.replication = installed.replication();
            this.commandsTopicId = installed.commandsTopicId();
        } catch (RuntimeException e) {
            admin.close(ADMIN_CLOSE);
            throw e;
        }
        this.repairs = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "hanging-transaction-check");
            t.setDaemon(true);
            return t;
        });
        this.settings = new ProcessorSettings(topics, commandPartitions, config.housekeeping(), config.clock(), new AppliedOffsets(), new RegistryEvents(), observer,
                answers, new TransactionProgress(), new StreamProcessorMetrics(commandPartitions));
        this.clients = new CommitNotifyingClientSupplier(this::liveBrokers);
        Properties streamsProperties = streamsProperties(config, replication);
        Object protocol = config.overrides().getOrDefault("security.protocol", "PLAINTEXT");
        this.hanging = new HangingTransactions(admin, HANGING_CHECK_CALLS, "PLAINTEXT".equalsIgnoreCase(protocol.toString()),
                transactionTimeout(streamsProperties).multipliedBy(2));
        this.streams = new KafkaStreams(TablestreamTopology.build(settings), streamsProperties,
                clients);
        this.streams.setUncaughtExceptionHandler(this::onThreadFailure);
        this.entities = new StreamsEntityStore(streams, config.clock(), settings.appliedOffsets(),
                settings.transactions(), settings.partitionDeletions(), settings.activeStores());
        // Several instances: each must know when its copies may have gone to others without its knowing.
        this.contact = config.applicationServer() == null ? null : new ClusterContact(admin, applicationId(config),
                streams, topics.commands().name(), contactInterval(config), contactBound(config));
        this.replicas = new StreamsLocalReplicas(streams, config.lagRefresh(),
                clientSettings(config, ConsumerConfig.configNames(), "lag-reader"), topics.commands().name(),
                contact == null ? () -> true : contact::copiesCurrent);
        this.registry = new StreamsTableRegistry(streams, settings.registryEvents());
        this.departedOwners = contact == null ? null : Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "departed-owner-check");
            t.setDaemon(true);
            return t;
        });
        settings.metrics().attach(streams, topics.commands().name(),
                config.stateDir().resolve(applicationId(config)));
    }

    /** Installs the topics and starts processing; returns once the processor is RUNNING (bounded by {@code timeout}). */
    public static StreamProcessor start(StreamProcessorConfig config, Duration timeout) {
        return start(config, timeout, ApplyObserver.NONE);
    }

    /** As {@link #start(StreamProcessorConfig, Duration)}, telling {@code observer} of every applied change. */
    public static StreamProcessor start(StreamProcessorConfig config, Duration timeout, ApplyObserver observer) {
        return start(config, timeout, observer, WriteAnswers.atDecision(WriteAnswers.Handoff.NONE));
    }

    /**
     * As {@link #start(StreamProcessorConfig, Duration, ApplyObserver)}, answering writes as
     * {@code answers} says (by default at decision, with no waiter in this process).
     */
    public static StreamProcessor start(StreamProcessorConfig config, Duration timeout, ApplyObserver observer,
                                        WriteAnswers answers) {
        StreamProcessor processor = new StreamProcessor(config, observer, answers);
        try {
            processor.startAndAwaitRunning(timeout);
        } catch (RuntimeException e) {
            processor.close();
            throw e;
        }
        return processor;
    }

    /**
     * Aborts transactions that will never complete on this processor's partitions (see
     * {@link HangingTransactions}): once before the processor starts, then every few seconds while it
     * does not run (a broker that just restarted may strand one while we start, or while we run: the
     * processor then rebalances and waits on it), every minute while it runs.
     */
    private void checkHangingTransactions() {
        lastHangingCheck = System.nanoTime();
        String prefix = config.topicPrefix();
        String applicationId = applicationId(config);
        try {
            hanging.repair(topic -> topic.startsWith(prefix + ".") || topic.startsWith(applicationId + "-"));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.warn("Checking for hanging transactions failed; trying again later: {}", e.toString());
        }
    }

    private void scheduleHangingTransactionChecks() {
        try {
            repairs.schedule(() -> {
                if (!isRunning() || System.nanoTime() - lastHangingCheck >= HANGING_CHECK_WHEN_RUNNING.toNanos()) {
                    checkHangingTransactions();
                }
                scheduleHangingTransactionChecks();
            }, HANGING_CHECK_UNTIL_RUNNING.toMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // closing
        }
    }

    /**
     * Ends the open transactions that the previous owners of this instance's newly assigned tasks left
     * behind ({@link HangingTransactions#fenceDepartedOwners}): an instance that crashed or was cut off
     * mid-transaction otherwise holds its partitions' new owners back until its transaction times out
     * (a task it held restores only up to that transaction, and its outcomes and changes written after
     * it stay unread). Runs on its own thread, never a stream thread. While the processor runs with the
     * tasks it was last known to hold, a look costs nothing; otherwise (a rebalance, or tasks gained)
     * the group's coordinator says which partitions this instance is assigned, running or still
     * restoring, and those gained since the last check that succeeded are checked.
     */
    private void fenceDepartedOwners() {
        Set<Integer> active = replicas.active();
        if (isRunning() && assignedChecked.containsAll(active)) {
            assignedChecked = active;
            return;
        }
        Optional<Set<Integer>> assigned = contact.assignedPartitions();
        if (assigned.isEmpty()) {
            return;
        }
        Set<Integer> gained = new TreeSet<>(assigned.get());
        gained.removeAll(assignedChecked);
        if (gained.isEmpty()) {
            assignedChecked = assigned.get();
            return;
        }
        String applicationId = applicationId(config);
        try {
            new HangingTransactions(admin, DEPARTED_OWNER_CALLS, false).fenceDepartedOwners(applicationId + "-",
                    tp -> gained.contains(tp.partition()) && tp.topic().startsWith(applicationId + "-")
                            && tp.topic().endsWith("-changelog"),
                    clients::madeProducer);
            assignedChecked = assigned.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            LOG.debug("Looking for transactions the previous owners of partitions {} left open failed; looking again:"
                    + " {}", gained, e.toString());
        }
    }

    /** The brokers known to run, for the stream threads' new clients to start from; none on one broker. */
    private Optional<List<String>> liveBrokers() {
        ClusterContact known = contact;
        return known == null ? Optional.empty() : known.liveBrokers();
    }

    /** How often an instance of several asks the cluster whether it answers: its group heartbeat interval, at most 1 s. */
    private static Duration contactInterval(StreamProcessorConfig config) {
        return Duration.ofMillis(Math.min(1_000, groupSetting(config, ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 3_000)));
    }

    /**
     * How long an instance of several that has not heard from the cluster still counts its copies as
     * its own: the group's session timeout (after which the group moves a silent member's partitions)
     * less a heartbeat interval.
     */
    private static Duration contactBound(StreamProcessorConfig config) {
        long session = groupSetting(config, ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 45_000);
        long heartbeat = groupSetting(config, ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 3_000);
        return Duration.ofMillis(Math.max(heartbeat, session - heartbeat));
    }

    /** A setting of the stream threads' consumers as configured, or Kafka's default. */
    private static long groupSetting(StreamProcessorConfig config, String name, long kafkaDefault) {
        for (String key : java.util.List.of(StreamsConfig.mainConsumerPrefix(name), StreamsConfig.consumerPrefix(name), name)) {
            Object value = config.overrides().get(key);
            if (value != null) {
                return Long.parseLong(value.toString().strip());
            }
        }
        return kafkaDefault;
    }

    /**
     * The processor's own admin client: the cluster's address and whichever of the configured client
     * settings an admin client takes (security settings above all).
     */
    private static Map<String, Object> adminSettings(StreamProcessorConfig config) {
        return clientSettings(config, AdminClientConfig.configNames(), "admin");
    }

    /**
     * Settings of one of the processor's own clients: the cluster's address and whichever of the
     * configured client settings that kind of client takes ({@code names}), with a client id ending
     * in {@code role}.
     */
    private static Map<String, Object> clientSettings(StreamProcessorConfig config, Set<String> names, String role) {
        Map<String, Object> settings = new java.util.HashMap<>();
        config.overrides().forEach((k, v) -> {
            if (names.contains(k)) {
                settings.put(k, v);
            }
        });
        settings.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
        settings.put(CommonClientConfigs.CLIENT_ID_CONFIG, config.topicPrefix() + "-" + config.instanceId() + "-" + role);
        return settings;
    }

    private static String applicationId(StreamProcessorConfig config) {
        return applicationId(config.topicPrefix());
    }

    /** The Kafka Streams application id (its group, and the prefix of its changelogs) of topic prefix {@code prefix}. */
    public static String applicationId(String prefix) {
        return prefix + "-processor";
    }

    private void startAndAwaitRunning(Duration timeout) {
        checkHangingTransactions();
        scheduleHangingTransactionChecks();
        if (departedOwners != null) {
            departedOwners.scheduleWithFixedDelay(this::fenceDepartedOwners, DEPARTED_OWNER_LOOK.toMillis(),
                    DEPARTED_OWNER_LOOK.toMillis(), TimeUnit.MILLISECONDS);
        }
        CountDownLatch running = new CountDownLatch(1);
        streams.setStateListener((now, before) -> {
            LOG.info("Stream processor {} -> {}", before, now);
            settings.metrics().stateChanged(now, before);
            if (now == KafkaStreams.State.RUNNING) {
                running.countDown();
            }
        });
        streams.start();
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            if (!running.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("The stream processor did not reach RUNNING within " + timeout
                        + " (state " + streams.state() + ")");
            }
            awaitReadable(deadline);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while starting the stream processor", e);
        }
    }

    /**
     * Waits (startup only, bounded) until every local task has replayed what its partition held
     * when it started, so the first reads after a start are not refused while the tasks catch up.
     * Each look at the tasks is a fresh one: a look taken while the processor still rebalanced can
     * lack tasks, and a start that judged by it served before they had replayed.
     */
    private void awaitReadable(long deadlineNanos) throws InterruptedException {
        long begin = System.nanoTime();
        Set<Integer> waitedFor = Set.of();
        while (System.nanoTime() < deadlineNanos) {
            Set<Integer> active = replicas.activeNow();
            waitedFor = active;
            if (replaying(active).isEmpty()) {
                LOG.info("Every active partition here is readable ({}), {} ms after the processor ran", active,
                        (System.nanoTime() - begin) / 1_000_000);
                return;
            }
            Thread.sleep(READABLE_CHECK.toMillis());
        }
        LOG.warn("Some tasks are still catching up after start ({} of {}); their reads answer ServerBusy until they"
                + " have", replaying(waitedFor), waitedFor);
    }

    /**
     * The partitions among {@code active} whose task (re)started and has not yet replayed what its
     * partition held then: their reads answer ServerBusy meanwhile.
     */
    public Set<Integer> replaying(Set<Integer> active) {
        Set<Integer> replaying = new TreeSet<>();
        for (int partition : active) {
            if (!settings.appliedOffsets().readable(partition)) {
                replaying.add(partition);
            }
        }
        return replaying;
    }

    /** {@code processing.exception.handler.global.enabled} (a deprecated name: 5.0 drops it and enables it). */
    private static final String PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED = "processing.exception.handler.global.enabled";

    /** The stream threads' transaction timeout: the producers' setting, else Kafka Streams' own under exactly-once (10 s). */
    static Duration transactionTimeout(Properties streamsProperties) {
        Object ms = streamsProperties.get(StreamsConfig.producerPrefix(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG));
        if (ms == null) {
            ms = streamsProperties.get(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG);
        }
        return Duration.ofMillis(ms == null ? 10_000 : Long.parseLong(ms.toString()));
    }

    /** As {@link #streamsProperties(StreamProcessorConfig, TopicReplication)} on a single broker. */
    static Properties streamsProperties(StreamProcessorConfig config) {
        return streamsProperties(config, TopicReplication.of(config.replicationFactor(), config.overrides(), 1));
    }

    /** Kafka Streams' settings, its changelogs replicated as {@code replication} says. */
    static Properties streamsProperties(StreamProcessorConfig config, TopicReplication replication) {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId(config));
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, config.commitInterval().toMillis());
        p.put(StreamsConfig.STATE_DIR_CONFIG, config.stateDir().toString());
        p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, config.streamThreads());
        p.put(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, config.standbyReplicas());
        p.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, (int) replication.factor());
        p.put(TopicReplication.MIN_IN_SYNC_OVERRIDE, Integer.toString(replication.minInSync()));
        p.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 64L * 1024 * 1024);
        p.put(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, BoundedRocksDbMemory.class);
        p.putAll(BoundedRocksDbMemory.settings(config.storeMemory()));
        // The registry's global thread answers a processing failure like the stream threads do (the
        // default handler: log and fail), as Kafka Streams 5.0 will by default; without this it warns.
        p.put(PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED, true);
        // Each stream thread's partition assignor reads a StreamsConfig of its own, built from the main
        // consumer's configs only, and warns again unless they carry the setting too.
        p.put(StreamsConfig.mainConsumerPrefix(PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED), true);
        // How long a stream thread with nothing to do waits for input: 100 ms (Kafka Streams' default). A
        // poll returns as soon as a fetch brings records, so a lone write waits no longer for it (p50 1.74 ms
        // against 2.06 ms with 2 ms, docs/performance.md), while 2 ms woke each thread 500 times a second:
        // at rest the stream threads took 75 ms of CPU per second, and 14 with 100 ms.
        p.put(StreamsConfig.POLL_MS_CONFIG, 100L);
        // A task reads one partition of one topic, so there is nothing to synchronise between inputs:
        // with the default (0), every pass of the stream thread over a task with no buffered record
        // still formats a log message (String.format, about 3% of a stream thread's CPU in a profile).
        // Disabled, a task with nothing buffered is skipped at once; the order of its records is the
        // same (one partition).
        p.put(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, StreamsConfig.MAX_TASK_IDLE_MS_DISABLED);
        // The tasks' outputs (changelogs, change events) wait for no answer: a waiter on this instance is
        // handed its outcome in the process, one on another instance gets it through the command log's own
        // producer (no linger), and a commit sends whatever is left. With 2 ms, a write one at a time sent
        // one produce per write or two, in the middle of the next write's trip through the broker; with
        // 20 ms, one per twenty: a lone write's p50 0.65-0.76 against 0.77-0.94 ms (docs/performance.md, "A lone
        // write's hops"). Only an outcome nobody here waits for travels on the outcomes topic.
        p.put(StreamsConfig.producerPrefix(ProducerConfig.LINGER_MS_CONFIG), TASK_PRODUCER_LINGER.toMillis());
        // Under transactions v2 a transaction's first batch to a partition whose previous transaction's
        // marker is still being written there is refused (CONCURRENT_TRANSACTIONS) and sent again after
        // retry.backoff.ms, doubling up to retry.backoff.max.ms (100 ms and 1 s by default). On replicated
        // brokers most commits met it, and the outcomes of writes waited that long behind it; the marker
        // itself takes milliseconds.
        p.put(StreamsConfig.producerPrefix(ProducerConfig.RETRY_BACKOFF_MS_CONFIG), 10);
        p.put(StreamsConfig.producerPrefix(ProducerConfig.RETRY_BACKOFF_MAX_MS_CONFIG), 100);
        p.put(StreamsConfig.producerPrefix(ProducerConfig.MAX_REQUEST_SIZE_CONFIG), Topics.MAX_COMMAND_BYTES + 1024 * 1024);
        p.put(StreamsConfig.producerPrefix(ProducerConfig.BATCH_SIZE_CONFIG), 256 * 1024);
        // No compression: on the single-node default it costs CPU on both ends and saves nothing.
        // A cluster operator can turn it on with an override.
        p.put(StreamsConfig.producerPrefix(ProducerConfig.COMPRESSION_TYPE_CONFIG), "none");
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG), Topics.MAX_COMMAND_BYTES);
        p.put(StreamsConfig.topicPrefix("max.message.bytes"), Integer.toString(Topics.MAX_ENTITY_RECORD_BYTES));
        // ---- cluster membership (scale-out): static membership only without standby replicas ----
        // A static member keeps its tasks across a restart: right for one node, or for nodes without
        // standbys, whose tasks would otherwise be rebuilt elsewhere. With standbys, a clean stop
        // leaves the group (see close()) so the warm standbys take over at once, and a restarted
        // instance rejoins as a new member, taking active tasks only once its copies caught up.
        if (config.standbyReplicas() == 0) {
            p.put(StreamsConfig.consumerPrefix(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG),
                    config.topicPrefix() + "-" + config.instanceId());
        }
        // An instance takes over an active partition only when its copy is within this many records
        // of the changelog's end (restored in a fraction of a second); otherwise it warms up as a
        // standby first, so an instance joining does not stall the partitions it is given.
        p.put(StreamsConfig.ACCEPTABLE_RECOVERY_LAG_CONFIG, 1_000L);
        // ---- end of cluster membership ----
        if (config.applicationServer() != null) {
            p.put(StreamsConfig.APPLICATION_SERVER_CONFIG, config.applicationServer());
        }
        p.putAll(config.overrides());
        return p;
    }

    private synchronized StreamThreadExceptionResponse onThreadFailure(Throwable e) {
        Instant now = config.clock().instant();
        threadFailures.addLast(now);
        while (!threadFailures.isEmpty() && threadFailures.peekFirst().isBefore(now.minus(FAILURE_WINDOW))) {
            threadFailures.removeFirst();
        }
        if (threadFailures.size() >= MAX_THREAD_FAILURES) {
            LOG.error("A stream thread failed {} times within {}; shutting the processor down", threadFailures.size(),
                    FAILURE_WINDOW, e);
            return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        }
        LOG.error("A stream thread failed; replacing it (its task resumes from the last commit)", e);
        return StreamThreadExceptionResponse.REPLACE_THREAD;
    }

    public Topics topics() {
        return topics;
    }

    /**
     * The command log topic's id: random (the cluster gives it at the topic's creation), the same for
     * every instance of a cluster, and known only to those who may describe the topic, never told over
     * HTTP. Secret material the instances share without configuration.
     */
    public String commandsTopicId() {
        return commandsTopicId;
    }

    /** Partitions of the commands topic (and so of the entity stores). */
    public int commandPartitions() {
        return commandPartitions;
    }

    public KafkaStreams streams() {
        return streams;
    }

    public EntityStore entities() {
        return entities;
    }

    public TableRegistry registry() {
        return registry;
    }

    public AppliedOffsets appliedOffsets() {
        return settings.appliedOffsets();
    }

    public RegistryEvents registryEvents() {
        return settings.registryEvents();
    }

    /** This processor's metrics, to bind to a registry (Kafka Streams' own among them); closed with the processor. */
    public StreamProcessorMetrics metrics() {
        return settings.metrics();
    }

    public boolean isRunning() {
        return streams.state() == KafkaStreams.State.RUNNING;
    }

    /** This instance's copies of the partition stores, active and standby, and their lags. */
    public LocalReplicas replicas() {
        return replicas;
    }

    /**
     * Stops processing. A dynamic member (see {@link #streamsProperties}) leaves the consumer group
     * on the way out, so its partitions move to their standbys at once instead of after the
     * session timeout; a static member stays, to take its partitions back when it returns.
     */
    @Override
    public void close() {
        repairs.shutdownNow();
        if (departedOwners != null) {
            departedOwners.shutdownNow();
        }
        if (contact != null) {
            contact.close();
        }
        replicas.close();
        boolean dynamic = !streamsProperties(config).containsKey(
                StreamsConfig.consumerPrefix(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG));
        CloseOptions options = CloseOptions.timeout(STREAMS_CLOSE).withGroupMembershipOperation(dynamic
                ? CloseOptions.GroupMembershipOperation.LEAVE_GROUP : CloseOptions.GroupMembershipOperation.REMAIN_IN_GROUP);
        if (!streams.close(options)) {
            LOG.warn("The stream processor did not stop within {} s", STREAMS_CLOSE.toSeconds());
        }
        admin.close(ADMIN_CLOSE);
        settings.metrics().close();
    }
}
