package io.tablestream.server;

import io.tablestream.processor.Housekeeping;
import io.tablestream.processor.StoreMemory;
import io.tablestream.processor.StreamProcessorConfig;
import io.tablestream.query.http.QueryBudgets;
import java.util.List;

/** Every configuration key of the server. */
public final class ServerSettings {
    public static final Setting<String> HOST = Setting.text("host", "127.0.0.1",
            "Address the HTTP port binds to (0.0.0.0 for every interface).");
    public static final Setting<Integer> PORT = Setting.integer("port", 10002,
            "HTTP port of the Table service (the emulator's: 10002). 0 picks a free one.");
    public static final Setting<String> DATA_DIR = Setting.text("data-dir", "data",
            "Directory for local state: the embedded broker's log and the stream processor's RocksDB stores.");
    public static final Setting<String> KAFKA_BOOTSTRAP_SERVERS = Setting.text("kafka-bootstrap-servers",
            "KAFKA_BOOTSTRAP_SERVERS", "",
            "A Kafka cluster to use; empty starts the embedded single-node broker under data-dir/kafka. Naming"
                    + " several brokers gives every Kafka client of the instance request.timeout.ms 2000,"
                    + " metadata.max.age.ms 3000 and reconnect.backoff(.max).ms 1000 (fail-over from a broker that"
                    + " stops answering) unless kafka.* sets them.");
    public static final Setting<Integer> KAFKA_PORT = Setting.integer("kafka-port", 0,
            "Client port of the embedded broker. 0 keeps the port of its first start (kept in data-dir/kafka), picked"
                    + " then; a set port moves it there for good.");
    public static final Setting<Integer> KAFKA_CONTROLLER_PORT = Setting.integer("kafka-controller-port", 0,
            "KRaft controller port of the embedded broker; 0 keeps or picks one, like kafka-port.");
    public static final Setting<Integer> KAFKA_STARTUP_TIMEOUT_MS = Setting.integer("kafka-startup-timeout-ms", 60_000,
            "How long the embedded broker may take to start (log recovery after a crash included).");
    public static final Setting<Integer> PROCESSOR_STARTUP_TIMEOUT_MS = Setting.integer("processor-startup-timeout-ms",
            300_000, "How long start-up waits for the stream processor to run (topics installed, stores restored).");
    public static final Setting<Integer> WARM_UP_SECONDS = Setting.integer("warm-up-seconds", 0,
            "Seconds the server process (run-server.sh, run-cluster.sh, the container image) spends, once its stream"
                    + " processor runs and before it reports ready, sending itself requests over loopback HTTP, so that"
                    + " the JIT compiles its hot paths before the first client meets them: writes, reads and transactions"
                    + " in a scratch table of a scratch account known only in the process, deleted afterwards, one request at"
                    + " a time. Best effort: a failed or slow request ends it early. 0: none (none over HTTPS either);"
                    + " 40 s of such load made sequential writes a minute after ready about 1.5x faster.");
    public static final Setting<Integer> WARM_UP_AFTER_READY_SECONDS = Setting.integer("warm-up-after-ready-seconds", 50,
            "Seconds the server process (run-server.sh, run-cluster.sh, the container image) spends, once it reports"
                    + " ready, warming itself up in the background with the same requests as warm-up-seconds; it stops"
                    + " at the first request of a client (any account's but its own scratch account's; /_health and"
                    + " /_metrics do not count), so a client that comes at once shares the server with it for one request at most."
                    + " 0: none (none over HTTPS either). After a warm-up-seconds one it does not run.");
    public static final Setting<String> TOPIC_PREFIX = Setting.text("topic-prefix", "tablestream",
            "Prefix of every topic and of the stream processor's application id.");
    public static final Setting<Integer> PARTITIONS = Setting.integer("partitions", 8,
            "Partitions of the commands, outcomes and changes topics when Tablestream creates them.");
    public static final Setting<Integer> REPLICATION_FACTOR = Setting.integer("replication-factor", 0,
            "Replicas of each partition of the topics Tablestream creates; 0: three, or as many as the cluster has"
                    + " brokers when it has fewer (one on the embedded broker).");
    public static final Setting<Integer> MIN_INSYNC_REPLICAS = Setting.integer("min-insync-replicas", 0,
            "Replicas that must have a write before Kafka acknowledges it (min.insync.replicas of the topics"
                    + " Tablestream creates); 0: two when there are three replicas or more, else one.");
    public static final Setting<Integer> STREAM_THREADS = Setting.integer("stream-threads", 2,
            "Stream threads of this instance (two: one processes while the other commits).");
    public static final Setting<Integer> STANDBY_REPLICAS = Setting.integer("standby-replicas", 0,
            "Warm copies of each store kept on other instances, for fast fail-over.");
    public static final Setting<Integer> COMMIT_INTERVAL_MS = Setting.integer("commit-interval-ms", 500,
            "Longest a task goes without committing: the change feed's latency (a change shows up to this long after"
                    + " its write was answered), and what a crash leaves to replay. Fewer commits make writes cheaper."
                    + " Table changes are committed right away; so is every awaited write when answer-at-decision is off.");
    public static final Setting<Boolean> ANSWER_AT_DECISION = Setting.flag("answer-at-decision", true,
            "Answer a sync write as soon as its outcome is decided (decisions are deterministic, so a replay after a"
                    + " crash decides the same), committing in groups; false waits for each write's commit (slower).");
    public static final Setting<String> INSTANCE_ID = Setting.text("instance-id", "node-1",
            "Stable name of this instance: its static membership in the processor's consumer group when it keeps no"
                    + " standby replicas (with standbys, membership is dynamic so they take over at once after a crash).");
    public static final Setting<String> ADVERTISED_ADDRESS = Setting.text("advertised-address", "",
            "host:port other instances reach this one at; empty for a single node.");
    public static final Setting<String> ACCOUNTS = Setting.text("accounts", "",
            "More accounts, as name:base64key[:base64key2] separated by ';'.");
    public static final Setting<Boolean> EMULATOR_ACCOUNT = Setting.flag("emulator-account", true,
            "Serve the emulator's account devstoreaccount1 with its well-known key.");
    public static final Setting<Boolean> ANONYMOUS_ACCESS = Setting.flag("anonymous-access", false,
            "Serve unsigned requests (development only).");
    public static final Setting<Integer> WRITE_TIMEOUT_MS = Setting.integer("write-timeout-ms", 10_000,
            "How long a sync write waits for its outcome before answering 503 with Retry-After.");
    public static final Setting<Integer> SESSION_TIMEOUT_MS = Setting.integer("session-timeout-ms", 5_000,
            "How long a read carrying x-ms-session-token waits for the writes it names (and for the command log's end,"
                    + " when the token names an offset past the end last seen).");
    public static final Setting<Integer> QUERY_ROW_BUDGET = Setting.integer("query-row-budget",
            QueryBudgets.DEFAULTS.rowBudget(),
            "Rows one Query Entities page examines at most; a page reaching it ends early, possibly empty, with a"
                    + " continuation (as the service's own pages may), so a sparse filter never scans a whole table at once.");
    public static final Setting<Integer> CHANGE_FEED_READERS = Setting.integer("change-feed-readers", 2,
            "Threads (each with its own Kafka consumer) reading the changes topic for the HTTP change feed; answers"
                    + " waiting for a change hold none.");
    public static final Setting<Integer> CHANGE_FEED_RECORD_BUDGET = Setting.integer("change-feed-record-budget",
            20_000, "Records of the changes topic (other tables' included) one change-feed answer examines at most;"
                    + " an answer reaching it ends early, possibly empty, with a cursor past them.");
    public static final Setting<Integer> QUERY_PAGE_BYTES = Setting.integer("query-page-bytes",
            (int) QueryBudgets.DEFAULTS.pageBytes(), "Bytes of matching entities one Query Entities page holds, about"
                    + " (at least one entity, at most 1,000); a page reaching it ends with a continuation.");
    public static final Setting<Integer> TABLE_SCAN_BUDGET = Setting.integer("table-scan-budget",
            QueryBudgets.DEFAULTS.tableScanBudget(), "Tables one Query Tables page examines at most; a page reaching"
                    + " it ends early, possibly empty, with a continuation (a $filter on TableName over many tables).");
    public static final Setting<Integer> RESPONDER_THREADS = Setting.integer("responder-threads", 0,
            "Threads of their own that complete waiting requests (writes waiting for their outcome, reads waiting for"
                    + " a session token or another instance) and write their answers; never a Kafka client's or a stream"
                    + " thread. 0: the HTTP server's threads do it, each then reading the connection's next request itself"
                    + " (one thread wake-up fewer per answer).");
    public static final Setting<Integer> HTTP_THREADS = Setting.integer("http-threads", 250,
            "Most threads of the HTTP server's pool (Jetty's: they read requests, run handlers and write answers).");
    public static final Setting<Integer> HTTP_MIN_THREADS = Setting.integer("http-min-threads", 8,
            "Threads the HTTP server's pool keeps even when idle.");
    public static final Setting<Integer> HTTP_RESERVED_THREADS = Setting.integer("http-reserved-threads", -1,
            "Threads the HTTP server keeps parked, ready to take over selecting while a selector thread runs the request"
                    + " it just read itself (-1: Jetty's choice from the cores and http-threads; 0: every request is handed"
                    + " to a pool thread).");
    public static final Setting<Integer> REGISTRY_WAIT_MS = Setting.integer("registry-wait-ms", 10_000,
            "How long a table or service-properties change waits, once decided, for this instance's view of the"
                    + " table registry to show it (so the next request sees it) before answering 503 ServerBusy.");

    // ---- the stream processor's background work and memory ----
    public static final Setting<Integer> EXPIRY_INTERVAL_MS = Setting.integer("expiry-interval-ms",
            (int) Housekeeping.DEFAULTS.expiryInterval().toMillis(), "How often each task deletes its expired"
                    + " entities (TTL) through the log; expired entities are invisible to reads at once regardless.");
    public static final Setting<Integer> EXPIRY_BATCH = Setting.integer("expiry-batch",
            Housekeeping.DEFAULTS.expiryBatch(), "Expired entities one task deletes per round at most.");
    public static final Setting<Integer> SWEEP_INTERVAL_MS = Setting.integer("sweep-interval-ms",
            (int) Housekeeping.DEFAULTS.sweepInterval().toMillis(), "How often each task sweeps the rows of deleted"
                    + " tables and the entity history past its retention.");
    public static final Setting<Integer> SWEEP_BATCH = Setting.integer("sweep-batch",
            Housekeeping.DEFAULTS.sweepBatch(), "Rows (or history versions examined) one task sweeps per round at"
                    + " most, for each of the two sweeps.");
    public static final Setting<Integer> INDEX_BUILD_INTERVAL_MS = Setting.integer("index-build-interval-ms",
            (int) Housekeeping.DEFAULTS.indexBuildInterval().toMillis(), "How often each task indexes existing rows"
                    + " for a new secondary index (and removes a dropped index's entries).");
    public static final Setting<Integer> INDEX_BUILD_BATCH = Setting.integer("index-build-batch",
            Housekeeping.DEFAULTS.indexBuildBatch(), "Rows or index entries one task handles per index-build round at"
                    + " most; with the interval, it sets how fast an index over existing rows is built and how long"
                    + " each round holds up the commands behind it.");
    public static final Setting<Integer> JOB_STEP_BATCH = Setting.integer("job-step-batch",
            Housekeeping.DEFAULTS.jobStepBatch(), "Rows (or history versions) one step of a job (a restore, a deletion"
                    + " by filter) examines in one task at most; a step is a record of the command log, decided between"
                    + " the partition's other commands, so this bounds how long it holds them up.");
    public static final Setting<Long> ROCKSDB_MEMORY_BYTES = Setting.longInteger("rocksdb-memory-bytes",
            StoreMemory.DEFAULT.totalBytes(), "Memory all RocksDB stores of this instance share: one block cache"
                    + " (index and filter blocks included) with the memtables charged to it. At least 16 MiB.");
    public static final Setting<Long> ROCKSDB_WRITE_BUFFER_BYTES = Setting.longInteger("rocksdb-write-buffer-bytes",
            StoreMemory.DEFAULT.writeBufferBytes(), "The part of rocksdb-memory-bytes the stores' memtables may take.");
    public static final Setting<Integer> STANDBY_LAG_REFRESH_MS = Setting.integer("standby-lag-refresh-ms",
            (int) StreamProcessorConfig.DEFAULT_LAG_REFRESH.toMillis(), "How often this instance measures how far"
                    + " behind its store replicas are (a request to the brokers); standby-max-lag is judged on it. While the"
                    + " instance runs and holds no standby, every 10 s (for /_cluster only: a running active is caught up).");
    // ---- end of the stream processor's background work and memory ----


    // ---- running several instances on one Kafka cluster (fail-over, routing between instances) ----
    public static final Setting<Integer> GROUP_SESSION_TIMEOUT_MS = Setting.integer("group-session-timeout-ms", 6_000,
            "How long the Kafka group coordinator waits for a silent instance (crashed, cut off) before moving its"
                    + " partitions to the others: the floor of fail-over after a crash. Brokers refuse values below"
                    + " their group.min.session.timeout.ms (6000 by default).");
    public static final Setting<Integer> GROUP_HEARTBEAT_INTERVAL_MS = Setting.integer("group-heartbeat-interval-ms",
            1_000, "How often the processor tells the group coordinator it is alive (a third of the session timeout"
                    + " or less); also how soon the other instances learn that a rebalance began.");
    public static final Setting<Integer> TRANSACTION_TIMEOUT_MS = Setting.integer("transaction-timeout-ms", 10_000,
            "How long a processor transaction may stay open (Kafka Streams' default). A crashed instance's open"
                    + " transaction is fenced by the instance given its tasks as soon as the group assigns them; one"
                    + " that wrote to none of their stores holds back the readers of the partitions it wrote (outcomes,"
                    + " change feed) until the brokers abort it this long after it began. A transaction open when a"
                    + " broker dies commits once the broker's partitions have moved, if this outlives that (20000 in"
                    + " compose.yaml and run-cluster.sh); shorter, the brokers abort it and fence the processor, which"
                    + " then rejoins its group and restores what the transaction wrote.");
    public static final Setting<Integer> STANDBY_MAX_LAG = Setting.integer("standby-max-lag", 0,
            "How many client writes on a partition's command log a standby replica may not have applied yet and"
                    + " still serve reads while the partition's active copy is unavailable; 0 (the default) serves only"
                    + " standbys holding every write answered so far, larger values trade that for availability during"
                    + " a fail-over (reads carrying a session token never use standbys).");
    public static final Setting<Integer> FORWARD_TIMEOUT_MS = Setting.integer("forward-timeout-ms", 5_000,
            "How long a read forwarded to another instance may take (connecting: at most 1 s) before another copy"
                    + " of the partition is tried.");
    /** Settings passed as they are to every Kafka client (producer, consumers, admin, Kafka Streams' clients). */
    public static final String KAFKA_PREFIX = "kafka.";
    /** Settings passed as they are to Kafka Streams (its own names, and its client prefixes such as consumer.). */
    public static final String STREAMS_PREFIX = "streams.";
    /**
     * Settings passed as they are to the embedded broker (its own names, e.g. {@code broker.num.io.threads});
     * ignored with {@code kafka-bootstrap-servers}. Its identity, listeners and directories are not settable.
     */
    public static final String BROKER_PREFIX = "broker.";
    /**
     * Settings passed as they are to the command log's Kafka clients only (the ingest producer that appends
     * every write's command, and the consumer of this instance's outcomes), over {@code kafka.*}: e.g.
     * {@code ingest.linger.ms}, which {@code kafka.linger.ms} would also give the stream tasks' producers.
     */
    public static final String INGEST_PREFIX = "ingest.";
    // ---- end of running several instances ----

    // ---- TLS: HTTPS on the Table endpoint and between instances (docs/operations.md, "Security") ----
    public static final Setting<String> TLS_CERT_FILE = Setting.text("tls-cert-file", "",
            "PEM file with this server's certificate, then the intermediate certificates that issued it. Set (with"
                    + " tls-key-file), the port serves HTTPS only and instances forward to each other over HTTPS."
                    + " Re-read when it changes (no restart).");
    public static final Setting<String> TLS_KEY_FILE = Setting.text("tls-key-file", "",
            "PEM file with the private key of tls-cert-file, unencrypted: PKCS#8 (BEGIN PRIVATE KEY: RSA, EC or"
                    + " EdDSA), PKCS#1 (BEGIN RSA PRIVATE KEY) or SEC1 (BEGIN EC PRIVATE KEY). Re-read when it changes.");
    public static final Setting<String> TLS_TRUST_FILE = Setting.text("tls-trust-file", "",
            "PEM file of the CA certificates that issued the other instances' certificates, which must name the"
                    + " host of their advertised-address; empty trusts the JVM's default CAs. Re-read when it changes.");
    public static final Setting<Integer> PLAIN_HTTP_PORT = Setting.integer("plain-http-port", -1,
            "With tls-cert-file: a second port, on host, serving plain HTTP beside HTTPS for clients that cannot"
                    + " speak TLS (a SAS restricted to https is refused there); -1 (the default) serves none, 0 picks"
                    + " a free one.");
    public static final Setting<Integer> TLS_RELOAD_CHECK_MS = Setting.integer("tls-reload-check-ms", 10_000,
            "How often the TLS certificate, key and trust files are checked for a change of content; a changed"
                    + " pair is served to new connections once both files agree.");
    // ---- end of TLS ----

    // ---- operations: metrics, health, the web console ----
    public static final Setting<Boolean> METRICS = Setting.flag("metrics", true,
            "Count and time requests, writes and the processor's work, served at GET /_metrics; false serves no"
                    + " /_metrics and counts nothing per request (to measure what counting costs).");
    public static final Setting<Boolean> METRICS_REQUIRE_KEY = Setting.flag("metrics-require-key", false,
            "Serve GET /_metrics (Prometheus format) only to requests signed with an account key; by default it"
                    + " answers anyone, like the health endpoints.");
    public static final Setting<Integer> METRICS_HISTORY_INTERVAL_MS = Setting.integer("metrics-history-interval-ms",
            5_000, "How often the instance reads its key metrics for their history (GET /_metrics/history, the"
                    + " console's charts).");
    public static final Setting<Integer> METRICS_HISTORY_MS = Setting.integer("metrics-history-ms", 900_000,
            "How much of that history the instance keeps in memory (15 minutes; a few kilobytes).");
    public static final Setting<String> CONSOLE = Setting.choice("console", "auto",
            "The web console at /_console/: on, off, or auto (on when host is a loopback address). Its pages hold no"
                    + " secret; what they show is read with the account key or SAS the user enters.", "auto", "on", "off");
    public static final Setting<Integer> HEALTH_BROKER_CHECK_MS = Setting.integer("health-broker-check-ms", 2_000,
            "How often readiness (/_health/ready) asks the Kafka cluster whether it answers, and how long it waits.");
    // ---- end of operations ----

    public static final List<Setting<?>> ALL = List.of(HOST, PORT, DATA_DIR, KAFKA_BOOTSTRAP_SERVERS, KAFKA_PORT,
            KAFKA_CONTROLLER_PORT, KAFKA_STARTUP_TIMEOUT_MS, PROCESSOR_STARTUP_TIMEOUT_MS, WARM_UP_SECONDS, WARM_UP_AFTER_READY_SECONDS,
            TOPIC_PREFIX,
            PARTITIONS, REPLICATION_FACTOR, MIN_INSYNC_REPLICAS, STREAM_THREADS, STANDBY_REPLICAS, COMMIT_INTERVAL_MS, ANSWER_AT_DECISION,
            INSTANCE_ID,
            ADVERTISED_ADDRESS, ACCOUNTS, EMULATOR_ACCOUNT, ANONYMOUS_ACCESS, WRITE_TIMEOUT_MS, SESSION_TIMEOUT_MS,
            QUERY_ROW_BUDGET, CHANGE_FEED_READERS, CHANGE_FEED_RECORD_BUDGET, QUERY_PAGE_BYTES, TABLE_SCAN_BUDGET,
            RESPONDER_THREADS, HTTP_THREADS, HTTP_MIN_THREADS, HTTP_RESERVED_THREADS, REGISTRY_WAIT_MS, EXPIRY_INTERVAL_MS, EXPIRY_BATCH, SWEEP_INTERVAL_MS, SWEEP_BATCH,
            INDEX_BUILD_INTERVAL_MS, INDEX_BUILD_BATCH, JOB_STEP_BATCH, ROCKSDB_MEMORY_BYTES, ROCKSDB_WRITE_BUFFER_BYTES,
            STANDBY_LAG_REFRESH_MS, GROUP_SESSION_TIMEOUT_MS,
            GROUP_HEARTBEAT_INTERVAL_MS, TRANSACTION_TIMEOUT_MS, STANDBY_MAX_LAG, FORWARD_TIMEOUT_MS,
            TLS_CERT_FILE, TLS_KEY_FILE, TLS_TRUST_FILE, PLAIN_HTTP_PORT, TLS_RELOAD_CHECK_MS,
            METRICS, METRICS_REQUIRE_KEY, METRICS_HISTORY_INTERVAL_MS, METRICS_HISTORY_MS, CONSOLE,
            HEALTH_BROKER_CHECK_MS);

    /**
     * The prefixes of the settings passed through to Kafka ({@link #KAFKA_PREFIX}, {@link #STREAMS_PREFIX},
     * {@link #BROKER_PREFIX}, {@link #INGEST_PREFIX}).
     */
    public static final List<String> PASS_THROUGH_PREFIXES = List.of(KAFKA_PREFIX, STREAMS_PREFIX, BROKER_PREFIX,
            INGEST_PREFIX);

    /**
     * Whether {@code variable} is an environment variable the server reads: a setting's, or one of
     * the pass-through forms {@code TABLESTREAM_KAFKA_<NAME>}, {@code TABLESTREAM_STREAMS_<NAME>},
     * {@code TABLESTREAM_BROKER_<NAME>} and {@code TABLESTREAM_INGEST_<NAME>}.
     */
    public static boolean isKnownEnvironmentVariable(String variable) {
        for (Setting<?> s : ALL) {
            if (s.environmentVariable().equals(variable)) {
                return true;
            }
        }
        for (String prefix : PASS_THROUGH_PREFIXES) {
            String envPrefix = Setting.passThroughEnvironmentPrefix(prefix);
            if (variable.startsWith(envPrefix) && variable.length() > envPrefix.length()) {
                return true;
            }
        }
        return false;
    }

    private ServerSettings() {
    }
}
