package io.tablestream.server;

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
            "A Kafka cluster to use; empty starts the embedded single-node broker under data-dir/kafka.");
    public static final Setting<Integer> KAFKA_PORT = Setting.integer("kafka-port", 0,
            "Client port of the embedded broker. 0 keeps the port of its first start (kept in data-dir/kafka), picked"
                    + " then; a set port moves it there for good.");
    public static final Setting<Integer> KAFKA_CONTROLLER_PORT = Setting.integer("kafka-controller-port", 0,
            "KRaft controller port of the embedded broker; 0 keeps or picks one, like kafka-port.");
    public static final Setting<Integer> KAFKA_STARTUP_TIMEOUT_MS = Setting.integer("kafka-startup-timeout-ms", 60_000,
            "How long the embedded broker may take to start (log recovery after a crash included).");
    public static final Setting<Integer> PROCESSOR_STARTUP_TIMEOUT_MS = Setting.integer("processor-startup-timeout-ms",
            300_000, "How long start-up waits for the stream processor to run (topics installed, stores restored).");
    public static final Setting<String> TOPIC_PREFIX = Setting.text("topic-prefix", "tablestream",
            "Prefix of every topic and of the stream processor's application id.");
    public static final Setting<Integer> PARTITIONS = Setting.integer("partitions", 8,
            "Partitions of the commands, outcomes and changes topics when Tablestream creates them.");
    public static final Setting<Integer> REPLICATION_FACTOR = Setting.integer("replication-factor", 1,
            "Replication factor of the topics Tablestream creates (3 on a production cluster).");
    public static final Setting<Integer> STREAM_THREADS = Setting.integer("stream-threads", 2,
            "Stream threads of this instance (two: one processes while the other commits).");
    public static final Setting<Integer> STANDBY_REPLICAS = Setting.integer("standby-replicas", 0,
            "Warm copies of each store kept on other instances, for fast fail-over.");
    public static final Setting<Integer> COMMIT_INTERVAL_MS = Setting.integer("commit-interval-ms", 100,
            "Longest a task goes without committing; a write someone waits for is committed right away.");
    public static final Setting<String> INSTANCE_ID = Setting.text("instance-id", "node-1",
            "Stable name of this instance (its static membership in the processor's consumer group).");
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
    public static final Setting<Integer> QUERY_ROW_BUDGET = Setting.integer("query-row-budget", 50_000,
            "Rows one Query Entities page examines at most; a page reaching it ends early, possibly empty, with a"
                    + " continuation (as the service's own pages may), so a sparse filter never scans a whole table at once.");
    public static final Setting<Integer> MAX_REQUEST_BYTES = Setting.integer("max-request-bytes", 4 * 1024 * 1024,
            "Largest request body accepted; a larger one is refused with 413 RequestBodyTooLarge (the service's limit: 4 MiB).");

    public static final List<Setting<?>> ALL = List.of(HOST, PORT, DATA_DIR, KAFKA_BOOTSTRAP_SERVERS, KAFKA_PORT,
            KAFKA_CONTROLLER_PORT, KAFKA_STARTUP_TIMEOUT_MS, PROCESSOR_STARTUP_TIMEOUT_MS, TOPIC_PREFIX,
            PARTITIONS, REPLICATION_FACTOR, STREAM_THREADS, STANDBY_REPLICAS, COMMIT_INTERVAL_MS, INSTANCE_ID,
            ADVERTISED_ADDRESS, ACCOUNTS, EMULATOR_ACCOUNT, ANONYMOUS_ACCESS, WRITE_TIMEOUT_MS, SESSION_TIMEOUT_MS,
            QUERY_ROW_BUDGET, MAX_REQUEST_BYTES);

    private ServerSettings() {
    }
}
