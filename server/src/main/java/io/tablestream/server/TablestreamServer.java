package io.tablestream.server;

import io.tablestream.core.model.EmulatorAccount;
import io.javalin.Javalin;
import io.tablestream.core.rules.Limits;
import io.tablestream.ingest.http.WriteHandlers;
import io.tablestream.ingest.kafka.KafkaCommandLog;
import io.tablestream.kafka.embedded.EmbeddedKafkaBroker;
import io.tablestream.processor.ApplyObserver;
import io.tablestream.processor.Housekeeping;
import io.tablestream.processor.StoreMemory;
import io.tablestream.processor.StreamProcessor;
import io.tablestream.processor.StreamProcessorConfig;
import io.tablestream.processor.Topics;
import io.tablestream.processor.WriteAnswers;
import io.tablestream.protocol.auth.Authentication;
import io.tablestream.protocol.auth.AuthenticationSettings;
import io.tablestream.protocol.auth.StoredAccessPolicies;
import io.tablestream.protocol.cors.CorsPolicies;
import io.tablestream.protocol.http.OperationHandler;
import io.tablestream.protocol.http.SignedCallerAuthenticator;
import io.tablestream.protocol.http.TableLookup;
import io.tablestream.protocol.http.TableServiceEndpoint;
import io.tablestream.protocol.request.Operation;
import io.tablestream.query.feed.ChangeFeed;
import io.tablestream.query.http.ChangeFeedHandler;
import io.tablestream.query.http.ClusterStatus;
import io.tablestream.query.http.QueryBudgets;
import io.tablestream.query.http.ReadHandlers;
import io.tablestream.query.kafka.KafkaCommandLogEnds;
import io.tablestream.query.routing.Instance;
import io.tablestream.query.routing.InstanceClient;
import io.tablestream.query.routing.KeyLocator;
import io.tablestream.query.routing.StreamsKeyLocator;
import io.tablestream.server.operate.Operations;
import io.tablestream.server.operate.ServerMetrics;
import io.tablestream.server.tls.ServerTls;
import io.tablestream.server.tls.TlsFile;
import io.tablestream.server.tls.TlsFileException;
import io.tablestream.server.warmup.InstanceWarmUp;
import io.tablestream.server.warmup.StartupWarmUp;
import io.tablestream.server.warmup.WarmUpTimes;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Tablestream instance: the embedded broker (unless a cluster is configured), the stream
 * processor, the command log client, and one HTTP port serving the Table service. Started in that
 * order, stopped in the reverse one.
 */
public final class TablestreamServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TablestreamServer.class);

    private final Deque<AutoCloseable> started;
    private final String bootstrapServers;
    private final Javalin http;
    private final StreamProcessor processor;
    private final ServerTls tls;
    private final InstanceWarmUp warmUp;

    private TablestreamServer(ServerConfig config, ApplyObserver observer, WarmUpTimes warmUpTimes,
                              Deque<AutoCloseable> started) {
        this.started = started;
        Clock clock = Clock.systemUTC();
        Path dataDir = Path.of(config.get(ServerSettings.DATA_DIR)).toAbsolutePath();
        // TLS files first: a missing or malformed one stops the start before anything runs
        this.tls = tls(config);
        if (tls != null) {
            started.push(tls);
        }
        String bootstrap = config.get(ServerSettings.KAFKA_BOOTSTRAP_SERVERS);
        if (bootstrap.isBlank()) {
            EmbeddedKafkaBroker broker = embeddedBroker(config);
            started.push(broker);
            bootstrap = broker.bootstrapServers();
            LOG.info("Embedded Kafka broker running at {} (data in {}); change-feed consumers and Kafka-native"
                    + " producers connect there", bootstrap, dataDir.resolve("kafka"));
        } else {
            LOG.info("Using the Kafka cluster at {} (kafka-bootstrap-servers); no embedded broker", bootstrap);
            FailoverClientSettings.askClusterSize(config, bootstrap);
        }
        this.bootstrapServers = bootstrap;
        String advertised = config.get(ServerSettings.ADVERTISED_ADDRESS);
        StreamProcessorConfig processorConfig = processorConfig(config, bootstrap, dataDir, clock);
        // Outcomes decided here are handed to this instance's command log (opened once the topics exist),
        // which answers its own waiters and sends other instances' outcomes outside the task's transaction.
        boolean answerAtDecision = config.get(ServerSettings.ANSWER_AT_DECISION);
        AtomicReference<KafkaCommandLog> localLog = new AtomicReference<>();
        WriteAnswers answers = answerAtDecision ? WriteAnswers.atDecision(outcome -> {
            KafkaCommandLog log = localLog.get();
            return log != null && log.handOff(outcome);
        }) : WriteAnswers.AFTER_COMMIT;
        this.processor = StreamProcessor.start(processorConfig,
                Duration.ofMillis(config.get(ServerSettings.PROCESSOR_STARTUP_TIMEOUT_MS)), observer, answers);
        started.push(processor);
        // operations (metrics, health, console): the registry, each module binding what it counts
        ServerMetrics metrics = config.get(ServerSettings.METRICS) ? new ServerMetrics() : null;
        if (metrics != null) {
            started.push(metrics);
            metrics.bind(processor.metrics());
            metrics.bindKafka(processor.metrics()::kafkaMetrics);
        }

        AnsweringThreadPool httpPool = httpThreadPool(config).startedWith(started); // answers may come from now on
        var responders = httpPool.answerers(config.get(ServerSettings.RESPONDER_THREADS), started);

        KafkaCommandLog commandLog = KafkaCommandLog.open(bootstrap, processor.topics().commands().name(),
                processor.topics().outcomes().name(),
                config.get(ServerSettings.INSTANCE_ID) + "-" + UUID.randomUUID(), Topics.MAX_COMMAND_BYTES,
                commandLogOverrides(config), answerAtDecision, responders);
        localLog.set(commandLog);
        started.push(commandLog);

        Duration sessionTimeout = Duration.ofMillis(config.get(ServerSettings.SESSION_TIMEOUT_MS));
        KafkaCommandLogEnds logEnds = KafkaCommandLogEnds.open(bootstrap, processor.topics().commands().name(),
                processor.commandPartitions(), sessionTimeout, config.kafkaClients());
        started.push(logEnds);

        Map<Operation, OperationHandler> handlers = new EnumMap<>(Operation.class);
        handlers.putAll(WriteHandlers.create(metrics != null ? metrics.commandLog(commandLog) : commandLog,
                processor.registry(), clock,
                Duration.ofMillis(config.get(ServerSettings.WRITE_TIMEOUT_MS)),
                Duration.ofMillis(config.get(ServerSettings.REGISTRY_WAIT_MS)), responders));
        Instance self = advertised.isBlank() ? null : Instance.parse(advertised);
        InstanceClient instances = new InstanceClient(Duration.ofMillis(config.get(ServerSettings.FORWARD_TIMEOUT_MS)),
                Duration.ofMillis(config.get(ServerSettings.GROUP_SESSION_TIMEOUT_MS)),
                tls == null ? null : tls.peerSslContext());
        started.push(instances);
        KeyLocator locator = new StreamsKeyLocator(processor.streams(), processor.replicas(),
                processor.topics().commands().name(), processor.commandPartitions(), self,
                config.get(ServerSettings.STANDBY_MAX_LAG), tls != null);
        handlers.putAll(ReadHandlers.create(processor.registry(), processor.entities(), locator, instances,
                processor.appliedOffsets(), logEnds, sessionTimeout, queryBudgets(config), responders));
        ChangeFeed changeFeed = ChangeFeed.open(bootstrap, processor.topics().changes().name(),
                new LinkedHashMap<>(config.kafkaClients()),
                config.get(ServerSettings.CHANGE_FEED_READERS));
        started.push(changeFeed);
        handlers.putAll(ChangeFeedHandler.create(new TableLookup(processor.registry()), changeFeed,
                config.get(ServerSettings.CHANGE_FEED_RECORD_BUDGET), responders));

        // the cluster's warm-up account: known to every instance, to no HTTP client (StartupWarmUp)
        Optional<StartupWarmUp> scratch = StartupWarmUp.sharedScratchAccount(processor.commandsTopicId(),
                config.accountKeys(Map.of()).accounts(), config.get(ServerSettings.INSTANCE_ID));
        Authentication authentication = new Authentication(config.accountKeys(scratch.isEmpty() ? Map.of()
                : Map.of(scratch.get().account(), scratch.get().key())),
                StoredAccessPolicies.of(processor.registry()), clock,
                AuthenticationSettings.defaults().withAnonymousAccess(config.get(ServerSettings.ANONYMOUS_ACCESS)));
        TableServiceEndpoint endpoint = new TableServiceEndpoint(new SignedCallerAuthenticator(authentication),
                handlers, CorsPolicies.of(processor.registry()), clock)
                .internalEndpoint("/_cluster", new ClusterStatus(locator, instances, processor.replicas(),
                        () -> processor.streams().state().toString(), self));
        // ---- operations: /_metrics, /_health/*, /_console/ (docs/operations.md) ----
        Operations operations = Operations.install(endpoint, metrics, processor, bootstrap,
                config.kafkaClients(),
                Duration.ofMillis(config.get(ServerSettings.HEALTH_BROKER_CHECK_MS)),
                new Operations.MetricsServing(config.get(ServerSettings.METRICS_REQUIRE_KEY),
                        Duration.ofMillis(config.get(ServerSettings.METRICS_HISTORY_INTERVAL_MS)),
                        Duration.ofMillis(config.get(ServerSettings.METRICS_HISTORY_MS))),
                config.get(ServerSettings.CONSOLE),
                config.get(ServerSettings.HOST));
        started.push(operations);
        this.warmUp = InstanceWarmUp.plan(scratch.orElse(null), warmUpTimes, tls != null, operations);
        // ---- end of operations ----
        this.http = Javalin.create(javalin -> {
            javalin.http.maxRequestSize = Limits.MAX_REQUEST_BODY_BYTES;
            javalin.startup.showJavalinBanner = false;
            javalin.jetty.host = config.get(ServerSettings.HOST);
            javalin.jetty.port = config.get(ServerSettings.PORT);
            javalin.jetty.threadPool = httpPool;
            if (tls != null) {
                tls.addConnectors(javalin.jetty, config.get(ServerSettings.HOST), config.get(ServerSettings.PORT),
                        config.get(ServerSettings.PLAIN_HTTP_PORT));
            }
            endpoint.install(javalin);
        });
        http.start();
        started.push(http::stop);
        String host = config.get(ServerSettings.HOST);
        String reachable = host.equals("0.0.0.0") || host.equals("::") ? "127.0.0.1" : host;
        String scheme = tls == null ? "http" : "https";
        String serviceUrl = scheme + "://" + reachable + ":" + http.port() + "/" + EmulatorAccount.NAME;
        LOG.info("Tablestream serving the Table service at {} (bound to {})", serviceUrl, host);
        if (plainHttpPort() != -1) {
            LOG.info("Plain HTTP beside it at http://{}:{}/{} (plain-http-port)", reachable, plainHttpPort(),
                    EmulatorAccount.NAME);
        }
        if (config.get(ServerSettings.EMULATOR_ACCOUNT)) {
            LOG.info("Connection string: {}", connectionString(serviceUrl));
        }
        warmUp.begin("http://" + reachable + ":" + http.port(), endpoint);
    }

    /**
     * The TLS {@code config} asks for, its files read and checked and their watch started; null when
     * {@code tls-cert-file} is not set (plain HTTP). A {@link ConfigurationException} says what is wrong.
     */
    static ServerTls tls(ServerConfig config) {
        String cert = config.get(ServerSettings.TLS_CERT_FILE).strip();
        String key = config.get(ServerSettings.TLS_KEY_FILE).strip();
        String trust = config.get(ServerSettings.TLS_TRUST_FILE).strip();
        int plainPort = config.get(ServerSettings.PLAIN_HTTP_PORT);
        if (cert.isEmpty() != key.isEmpty()) {
            throw new ConfigurationException("tls-cert-file and tls-key-file go together: set both (HTTPS) or"
                    + " neither (plain HTTP); only " + (cert.isEmpty() ? "tls-key-file" : "tls-cert-file") + " is set");
        }
        if (cert.isEmpty()) {
            if (!trust.isEmpty()) {
                throw new ConfigurationException("tls-trust-file is set but tls-cert-file is not: instances forward"
                        + " to each other over HTTPS only when they serve HTTPS themselves");
            }
            if (plainPort != -1) {
                throw new ConfigurationException("plain-http-port is set but tls-cert-file is not: without a"
                        + " certificate the port (" + config.get(ServerSettings.PORT) + ") serves plain HTTP already");
            }
            return null;
        }
        if (plainPort < -1 || plainPort > 65_535) {
            throw new ConfigurationException("plain-http-port " + plainPort + ": a port (0 picks a free one) or -1");
        }
        try {
            return ServerTls.start(new TlsFile(Path.of(cert), ServerSettings.TLS_CERT_FILE.name()),
                    new TlsFile(Path.of(key), ServerSettings.TLS_KEY_FILE.name()),
                    trust.isEmpty() ? null : new TlsFile(Path.of(trust), ServerSettings.TLS_TRUST_FILE.name()),
                    Duration.ofMillis(Math.max(1, config.get(ServerSettings.TLS_RELOAD_CHECK_MS))));
        } catch (TlsFileException e) {
            throw new ConfigurationException(e.getMessage(), e);
        }
    }

    /** Starts the embedded broker on its data in {@code config}'s data directory (its log directory's lock keeps it to one process). */
    static EmbeddedKafkaBroker embeddedBroker(ServerConfig config) {
        EmbeddedKafkaBroker.Builder builder = EmbeddedKafkaBroker.builder(
                        Path.of(config.get(ServerSettings.DATA_DIR)).toAbsolutePath().resolve("kafka"))
                .brokerPort(config.get(ServerSettings.KAFKA_PORT))
                .controllerPort(config.get(ServerSettings.KAFKA_CONTROLLER_PORT))
                .startupTimeout(Duration.ofMillis(config.get(ServerSettings.KAFKA_STARTUP_TIMEOUT_MS)));
        config.passThrough(ServerSettings.BROKER_PREFIX).forEach(builder::brokerProperty);
        return builder.start();
    }

    /** How the stream processor runs, as {@code config} says. */
    static StreamProcessorConfig processorConfig(ServerConfig config, String bootstrap, Path dataDir, Clock clock) {
        String advertised = config.get(ServerSettings.ADVERTISED_ADDRESS);
        Housekeeping housekeeping = new Housekeeping(
                Duration.ofMillis(config.get(ServerSettings.EXPIRY_INTERVAL_MS)), config.get(ServerSettings.EXPIRY_BATCH),
                Duration.ofMillis(config.get(ServerSettings.SWEEP_INTERVAL_MS)), config.get(ServerSettings.SWEEP_BATCH),
                Duration.ofMillis(config.get(ServerSettings.INDEX_BUILD_INTERVAL_MS)),
                config.get(ServerSettings.INDEX_BUILD_BATCH), config.get(ServerSettings.JOB_STEP_BATCH));
        StoreMemory memory = new StoreMemory(config.get(ServerSettings.ROCKSDB_MEMORY_BYTES),
                config.get(ServerSettings.ROCKSDB_WRITE_BUFFER_BYTES));
        return new StreamProcessorConfig(bootstrap, config.get(ServerSettings.TOPIC_PREFIX),
                config.get(ServerSettings.PARTITIONS), config.get(ServerSettings.REPLICATION_FACTOR).shortValue(),
                dataDir.resolve("streams"), config.get(ServerSettings.INSTANCE_ID), advertised.isBlank() ? null : advertised,
                config.get(ServerSettings.STREAM_THREADS), config.get(ServerSettings.STANDBY_REPLICAS),
                Duration.ofMillis(config.get(ServerSettings.COMMIT_INTERVAL_MS)), kafkaStreamsOverrides(config), clock,
                housekeeping, memory, Duration.ofMillis(config.get(ServerSettings.STANDBY_LAG_REFRESH_MS)));
    }

    /** What the command log's producer and outcome consumer get: every {@code kafka.*} pass-through, then {@code ingest.*}. */
    static Map<String, Object> commandLogOverrides(ServerConfig config) {
        Map<String, Object> overrides = new LinkedHashMap<>(config.kafkaClients());
        overrides.putAll(config.passThrough(ServerSettings.INGEST_PREFIX));
        return overrides;
    }

    /** The HTTP server's thread pool, sized as {@code config} says. */
    static AnsweringThreadPool httpThreadPool(ServerConfig config) {
        AnsweringThreadPool pool = new AnsweringThreadPool(config.get(ServerSettings.HTTP_THREADS),
                config.get(ServerSettings.HTTP_MIN_THREADS));
        pool.setName("JettyServerThreadPool");
        pool.setReservedThreads(config.get(ServerSettings.HTTP_RESERVED_THREADS));
        return pool;
    }

    /** How much one read may do before it answers with a continuation, as {@code config} says. */
    static QueryBudgets queryBudgets(ServerConfig config) {
        return new QueryBudgets(config.get(ServerSettings.QUERY_ROW_BUDGET), config.get(ServerSettings.QUERY_PAGE_BYTES),
                config.get(ServerSettings.TABLE_SCAN_BUDGET));
    }

    /** The emulator account's connection string for {@code endpoint} (its key is public, as every emulator's). */
    static String connectionString(String endpoint) {
        return EmulatorAccount.connectionString(endpoint);
    }

    /** Starts an instance (without a warm-up); on failure, stops whatever had started and rethrows. */
    public static TablestreamServer start(ServerConfig config) {
        return start(config, ApplyObserver.NONE, WarmUpTimes.NONE);
    }

    /** As {@link #start(ServerConfig, ApplyObserver, WarmUpTimes)} with a warm-up before ready only. */
    public static TablestreamServer start(ServerConfig config, ApplyObserver observer, Duration warmUp) {
        return start(config, observer, WarmUpTimes.beforeReady(warmUp));
    }

    /**
     * As {@link #start(ServerConfig)}, telling {@code observer} of every applied change (metrics, fault
     * injection), with the warm-up {@code warmUp} asks for ({@link InstanceWarmUp}): returning once one
     * before ready has ended (readiness waits for it), at once for one after ready.
     */
    public static TablestreamServer start(ServerConfig config, ApplyObserver observer, WarmUpTimes warmUp) {
        Deque<AutoCloseable> started = new ArrayDeque<>();
        try {
            return new TablestreamServer(config, observer, warmUp, started);
        } catch (RuntimeException | Error e) {
            close(started);
            throw e;
        }
    }

    /** The port of the Table service: HTTPS when {@code tls-cert-file} is set, else plain HTTP. */
    public int port() {
        return http.port();
    }

    /** The plain HTTP port served beside HTTPS ({@code plain-http-port}), or -1 when there is none. */
    public int plainHttpPort() {
        return tls == null ? -1 : tls.plainHttpPort();
    }

    /** Whether the Table service is served over HTTPS. */
    public boolean https() {
        return tls != null;
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    public StreamProcessor processor() {
        return processor;
    }

    /**
     * What Kafka Streams gets beyond the processor's own settings: the named fail-over settings, then
     * every {@code kafka.*} pass-through (Streams hands un-prefixed client settings to all its clients),
     * then every {@code streams.*} one, each overriding what came before.
     */
    static Map<String, Object> kafkaStreamsOverrides(ServerConfig config) {
        Map<String, Object> overrides = new LinkedHashMap<>();
        overrides.put(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG),
                config.get(ServerSettings.GROUP_SESSION_TIMEOUT_MS));
        overrides.put(StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG),
                config.get(ServerSettings.GROUP_HEARTBEAT_INTERVAL_MS));
        overrides.put(StreamsConfig.producerPrefix(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG),
                config.get(ServerSettings.TRANSACTION_TIMEOUT_MS));
        if (config.get(ServerSettings.MIN_INSYNC_REPLICAS) > 0) {
            // every topic's, as Kafka Streams names it for its own topics; the processor's topics follow it
            overrides.put(StreamsConfig.topicPrefix(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG),
                    Integer.toString(config.get(ServerSettings.MIN_INSYNC_REPLICAS)));
        }
        overrides.putAll(config.kafkaClients());
        overrides.putAll(config.passThrough(ServerSettings.STREAMS_PREFIX));
        return overrides;
    }

    /** Stops everything this instance started, last started first; calling it again does nothing. */
    @Override
    public synchronized void close() {
        warmUp.close(); // a warm-up after ready stops first, while all it talks to runs
        // The processor goes first, while the HTTP port still answers: it leaves the group (with
        // standbys) so its partitions move at once, and meanwhile reads forwarded here are refused
        // as moving, which sends them to the standbys, instead of meeting a port that is closing.
        if (started.contains(processor)) {
            try {
                processor.close();
            } catch (RuntimeException e) {
                LOG.warn("Error while stopping the stream processor", e);
            }
            started.remove(processor);
        }
        close(started);
    }

    private static void close(Deque<AutoCloseable> started) {
        while (!started.isEmpty()) {
            AutoCloseable c = started.pop();
            try {
                c.close();
            } catch (Exception e) {
                LOG.warn("Error while stopping {}", c, e);
            }
        }
    }
}
