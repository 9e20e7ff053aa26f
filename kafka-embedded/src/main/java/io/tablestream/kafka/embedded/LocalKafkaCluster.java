package io.tablestream.kafka.embedded;

import io.tablestream.localfiles.PropertiesFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.Uuid;

/**
 * A Kafka cluster of several KRaft nodes on one machine, each node both a broker and a voter of one
 * static controller quorum, each meant to run in a process of its own from Kafka's own main class
 * ({@code kafka.Kafka <server.properties>}, the jars on the classpath), so that killing or stopping one
 * is real. Every topic gets three replicas (or as many as there are nodes) and a write needs two of
 * them in sync, Kafka's internal topics included ({@link BrokerProperties}).
 *
 * <p>{@link #prepare} lays the cluster out in a directory: {@code kafka-<id>/server.properties} and
 * the log directory {@code kafka-<id>/data} of each node (formatted once), and the cluster's id and
 * ports in {@value #FILE_NAME}, kept across restarts like the single broker's address. Node {@code i}
 * listens for clients on {@code port + 2(i-1)} and for its quorum on the port after, or on free ports
 * picked at the first start when no port is given. {@code run-cluster.sh --brokers 3} and the test
 * fixture of the integration tests start the same layout.
 *
 * <pre>
 * java -cp CLASSPATH io.tablestream.kafka.embedded.LocalKafkaCluster prepare --dir DIR --nodes 3 [--host H]
 *     [--port P] [--property name=value]...   writes the layout, prints the bootstrap servers
 * java -cp CLASSPATH kafka.Kafka DIR/kafka-1/server.properties   (and each other node)
 * java -cp CLASSPATH io.tablestream.kafka.embedded.LocalKafkaCluster await --dir DIR [--timeout-ms N]
 *     waits until every node serves as a broker
 * </pre>
 *
 * In a {@code --property} value, {@code {node}} stands for the node's id (a keystore per node, say).
 */
public final class LocalKafkaCluster {
    /** The layout's file in the cluster's directory. */
    public static final String FILE_NAME = "kafka-cluster.properties";
    private static final String CLUSTER_ID = "cluster.id";
    private static final String HOST = "host";
    private static final String NODES = "nodes";

    /** One node: its id (from 1), name ({@code kafka-<id>}), directory, configuration file and client address. */
    public record Node(int id, String name, Path directory, Path propertiesFile, String bootstrapAddress) {
    }

    private final Path directory;
    private final String clusterId;
    private final List<Node> nodes;

    private LocalKafkaCluster(Path directory, String clusterId, List<Node> nodes) {
        this.directory = directory;
        this.clusterId = clusterId;
        this.nodes = List.copyOf(nodes);
    }

    /**
     * Lays out (or reuses) a cluster of {@code nodeCount} nodes in {@code directory}: keeps the
     * cluster id and ports of an earlier layout (ports given here replace them), writes every node's
     * {@code server.properties} with {@code brokerProperties} added, and formats a node's log
     * directory the first time.
     *
     * @param port the first node's client port, 0 to keep the earlier ones or pick free ones
     * @throws EmbeddedKafkaException when the directory holds a cluster of another size, or a node's
     *     log directory belongs to another cluster
     */
    public static LocalKafkaCluster prepare(Path directory, int nodeCount, String host, int port,
                                            Map<String, String> brokerProperties) {
        if (nodeCount < 1) {
            throw new IllegalArgumentException("a cluster needs at least one node: " + nodeCount);
        }
        if (port < 0 || port + 2 * nodeCount - 1 > 65535) {
            throw new IllegalArgumentException("ports " + port + ".." + (port + 2 * nodeCount - 1) + " are out of range");
        }
        for (String name : brokerProperties.keySet()) {
            if (EmbeddedKafkaBroker.RESERVED_PROPERTIES.contains(name)) {
                throw new IllegalArgumentException("broker property " + name + " is set by the cluster's layout itself");
            }
        }
        Path dir = directory.toAbsolutePath().normalize();
        Path file = dir.resolve(FILE_NAME);
        Map<String, String> layout = read(file).orElseGet(LinkedHashMap::new);
        if (layout.containsKey(NODES) && Integer.parseInt(layout.get(NODES)) != nodeCount) {
            throw new EmbeddedKafkaException(dir + " holds a Kafka cluster of " + layout.get(NODES) + " nodes, not "
                    + nodeCount + "; stop it and remove the directory to start another");
        }
        String clusterId = layout.computeIfAbsent(CLUSTER_ID, k -> Uuid.randomUuid().toString());
        layout.put(NODES, Integer.toString(nodeCount));
        layout.put(HOST, host);
        List<Integer> taken = new ArrayList<>();
        for (int id = 1; id <= nodeCount; id++) {
            for (String kind : List.of("broker", "controller")) {
                String key = "node." + id + "." + kind + ".port";
                int offset = 2 * (id - 1) + (kind.equals("broker") ? 0 : 1);
                int chosen = port != 0 ? port + offset
                        : layout.containsKey(key) ? Integer.parseInt(layout.get(key))
                        : FreePorts.pick(host, taken.stream().mapToInt(Integer::intValue).toArray());
                taken.add(chosen);
                layout.put(key, Integer.toString(chosen));
            }
        }
        try {
            Files.createDirectories(dir);
            PropertiesFile.replace(file, layout, "A Kafka cluster on this machine: its id and ports, kept across restarts");
        } catch (IOException e) {
            throw new EmbeddedKafkaException("Cannot keep the cluster's layout in " + file, e);
        }
        List<String> controllers = new ArrayList<>();
        for (int id = 1; id <= nodeCount; id++) {
            controllers.add(BrokerProperties.address(host, Integer.parseInt(layout.get("node." + id + ".controller.port"))));
        }
        List<Node> nodes = new ArrayList<>();
        for (int id = 1; id <= nodeCount; id++) {
            String name = "kafka-" + id;
            Path nodeDir = dir.resolve(name);
            Path logDir = nodeDir.resolve("data");
            Map<String, String> extra = new LinkedHashMap<>();
            int nodeId = id;
            brokerProperties.forEach((k, v) -> extra.put(k, v.replace("{node}", Integer.toString(nodeId))));
            BrokerProperties properties = new BrokerProperties(logDir, host,
                    Integer.parseInt(layout.get("node." + id + ".broker.port")),
                    Integer.parseInt(layout.get("node." + id + ".controller.port")),
                    new BrokerProperties.Quorum(id, controllers), 0, extra);
            try {
                Files.createDirectories(logDir);
            } catch (IOException e) {
                throw new EmbeddedKafkaException("Cannot create " + logDir, e);
            }
            String formatted = LogDirectory.formatOnce(logDir, id, clusterId);
            if (!formatted.equals(clusterId)) {
                throw new EmbeddedKafkaException(logDir + " belongs to the Kafka cluster " + formatted + ", not to "
                        + clusterId + " of " + file);
            }
            Path propertiesFile = nodeDir.resolve("server.properties");
            write(propertiesFile, properties.asMap(), name);
            nodes.add(new Node(id, name, nodeDir, propertiesFile, properties.bootstrapServers()));
        }
        return new LocalKafkaCluster(dir, clusterId, nodes);
    }

    public Path directory() {
        return directory;
    }

    public String clusterId() {
        return clusterId;
    }

    public List<Node> nodes() {
        return nodes;
    }

    /** Every node's client address, for {@code bootstrap.servers}. */
    public String bootstrapServers() {
        return String.join(",", nodes.stream().map(Node::bootstrapAddress).toList());
    }

    /**
     * Waits until every node serves as an unfenced broker of this cluster.
     *
     * @throws EmbeddedKafkaException if they do not within {@code timeout}
     */
    public void awaitReady(Duration timeout) {
        Readiness.await(bootstrapServers(), clusterId, nodes.size(), System.nanoTime() + timeout.toNanos());
    }

    /** A cluster laid out in {@code directory} before, as it was laid out. */
    public static LocalKafkaCluster of(Path directory) {
        Path dir = directory.toAbsolutePath().normalize();
        Map<String, String> layout = read(dir.resolve(FILE_NAME)).orElseThrow(() -> new EmbeddedKafkaException(
                "No Kafka cluster is laid out in " + dir + " (no " + FILE_NAME + ")"));
        int count = Integer.parseInt(layout.get(NODES));
        List<Node> nodes = new ArrayList<>();
        for (int id = 1; id <= count; id++) {
            Path nodeDir = dir.resolve("kafka-" + id);
            nodes.add(new Node(id, "kafka-" + id, nodeDir, nodeDir.resolve("server.properties"),
                    BrokerProperties.address(layout.get(HOST), Integer.parseInt(layout.get("node." + id + ".broker.port")))));
        }
        return new LocalKafkaCluster(dir, layout.get(CLUSTER_ID), nodes);
    }

    private static Optional<Map<String, String>> read(Path file) {
        try {
            return PropertiesFile.read(file).map(LinkedHashMap::new);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file, e);
        }
    }

    /** Written as Kafka's own examples are: one {@code name=value} per line, nothing escaped but backslashes. */
    private static void write(Path file, Map<String, String> properties, String node) {
        StringBuilder text = new StringBuilder("# Kafka node ").append(node)
                .append(" of a cluster on this machine, written by LocalKafkaCluster at every start\n");
        properties.forEach((k, v) -> text.append(k).append('=').append(v.replace("\\", "\\\\")).append('\n'));
        try {
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new EmbeddedKafkaException("Cannot write " + file, e);
        }
    }

    /** {@code prepare} or {@code await}, see the class comment; exits 1 with the reason when it fails. */
    public static void main(String[] args) {
        if (args.length == 0) {
            usage("prepare or await?");
        }
        Path dir = null;
        int nodeCount = 3;
        String host = "127.0.0.1";
        int port = 0;
        Duration timeout = Duration.ofMinutes(2);
        Map<String, String> properties = new LinkedHashMap<>();
        for (int i = 1; i < args.length; i += 2) {
            String value = i + 1 < args.length ? args[i + 1] : null;
            if (value == null) {
                usage(args[i] + " needs a value");
            }
            switch (args[i]) {
                case "--dir" -> dir = Path.of(value);
                case "--nodes" -> nodeCount = Integer.parseInt(value);
                case "--host" -> host = value;
                case "--port" -> port = Integer.parseInt(value);
                case "--timeout-ms" -> timeout = Duration.ofMillis(Long.parseLong(value));
                case "--property" -> {
                    int eq = value.indexOf('=');
                    if (eq < 1) {
                        usage("--property takes name=value, not " + value);
                    }
                    properties.put(value.substring(0, eq).strip(), value.substring(eq + 1).strip());
                }
                default -> usage("unknown argument " + args[i]);
            }
        }
        if (dir == null) {
            usage("--dir is required");
        }
        try {
            switch (args[0]) {
                case "prepare" -> System.out.println(prepare(dir, nodeCount, host, port, properties).bootstrapServers());
                case "await" -> {
                    LocalKafkaCluster cluster = of(dir);
                    cluster.awaitReady(timeout);
                    System.out.println("Kafka cluster " + cluster.clusterId() + ": " + cluster.nodes().size()
                            + " brokers ready at " + cluster.bootstrapServers());
                }
                default -> usage("unknown command " + args[0]);
            }
        } catch (RuntimeException e) {
            System.err.println(e.getMessage() + (e.getCause() != null ? " (" + e.getCause() + ")" : ""));
            System.exit(1);
        }
        System.exit(0);
    }

    private static void usage(String problem) {
        System.err.println(problem + "\nusage: LocalKafkaCluster prepare --dir DIR [--nodes N] [--host H] [--port P]"
                + " [--property name=value]...\n       LocalKafkaCluster await --dir DIR [--timeout-ms N]");
        System.exit(2);
    }
}
