package io.tablestream.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The top-level compose.yaml cannot be run here (no Docker engine), so it is checked instead:
 * every Tablestream variable it sets is a setting the server reads, with a value the setting
 * accepts; each instance advertises its own service name and port; host ports, instance ids and
 * broker ids are unique; the bootstrap servers and controller voters name the brokers' own
 * listeners; replication and standbys fit the cluster; every broker keeps its log on its volume
 * (so re-creating its container keeps its data) and has a health check, and the instances start
 * once every broker is healthy. ({@code BrokerHealthCheckIT} runs the brokers' health check
 * against a real broker.)
 */
class ComposeFileTest {
    private static Map<String, Object> compose;
    private static Map<String, Map<String, Object>> services;

    @BeforeAll
    @SuppressWarnings("unchecked")
    static void readComposeFile() throws IOException {
        Path file = Path.of("..", "compose.yaml");
        assertThat(file).exists();
        compose = new ObjectMapper(new YAMLFactory()).readValue(Files.readString(file), Map.class);
        services = (Map<String, Map<String, Object>>) compose.get("services");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, String> environment(String service) {
        Map<String, Object> env = (Map<String, Object>) services.get(service).get("environment");
        Map<String, String> out = new java.util.LinkedHashMap<>();
        env.forEach((k, v) -> out.put(k, String.valueOf(v)));
        return out;
    }

    private static List<String> tablestreams() {
        return services.keySet().stream()
                .filter(s -> String.valueOf(services.get(s).get("image")).startsWith("tablestream")).sorted().toList();
    }

    private static List<String> brokers() {
        return services.keySet().stream()
                .filter(s -> String.valueOf(services.get(s).get("image")).startsWith("apache/kafka:")).sorted().toList();
    }

    @Test
    void runsThreeBrokersAndThreeInstances() {
        assertThat(brokers()).hasSize(3);
        assertThat(tablestreams()).hasSize(3);
        assertThat(brokers()).allSatisfy(b -> assertThat(services.get(b).get("image"))
                .isEqualTo("apache/kafka:" + kafkaVersionOfTheBuild()));
    }

    /** The brokers run the Kafka version Tablestream is built against. */
    private static String kafkaVersionOfTheBuild() {
        try {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("<kafka.version>([^<]+)</kafka.version>")
                    .matcher(Files.readString(Path.of("..", "pom.xml")));
            assertThat(m.find()).isTrue();
            return m.group(1);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void everyTablestreamVariableIsASettingWithAValueItAccepts() {
        for (String service : tablestreams()) {
            environment(service).forEach((name, value) -> {
                assertThat(ServerSettings.isKnownEnvironmentVariable(name)).as("%s sets %s", service, name).isTrue();
                ServerSettings.ALL.stream().filter(s -> s.environmentVariable().equals(name)).findFirst()
                        .ifPresent(setting -> ServerConfig.of(Map.of(setting, value)).get(setting));
            });
        }
    }

    @Test
    void eachInstanceAdvertisesItsOwnNameAndPortAndPublishesThatPortOnce() {
        Set<String> hostPorts = new HashSet<>();
        Set<String> ids = new HashSet<>();
        for (String service : tablestreams()) {
            Map<String, String> env = environment(service);
            String port = env.get("TABLESTREAM_PORT");
            assertThat(services.get(service).get("hostname")).isEqualTo(service);
            assertThat(env.get("TABLESTREAM_ADVERTISED_ADDRESS")).as(service).isEqualTo(service + ":" + port);
            assertThat(env.get("TABLESTREAM_HOST")).as(service + " must listen beyond loopback").isEqualTo("0.0.0.0");
            assertThat(ids.add(env.get("TABLESTREAM_INSTANCE_ID"))).as("unique instance id of " + service).isTrue();
            @SuppressWarnings("unchecked")
            List<String> ports = (List<String>) services.get(service).get("ports");
            assertThat(ports).hasSize(1);
            String[] mapping = ports.get(0).split(":");
            assertThat(mapping[1]).as("container port of " + service).isEqualTo(port);
            assertThat(hostPorts.add(mapping[0])).as("unique host port " + mapping[0]).isTrue();
        }
        assertThat(hostPorts).contains("10002");
    }

    @Test
    void instancesAgreeOnTheClusterAndFitIt() {
        Set<String> listeners = new HashSet<>();
        for (String broker : brokers()) {
            String advertised = environment(broker).get("KAFKA_ADVERTISED_LISTENERS");
            assertThat(advertised).as(broker).isEqualTo("PLAINTEXT://" + broker + ":9092");
            assertThat(environment(broker).get("KAFKA_LISTENERS")).contains("PLAINTEXT://:9092");
            listeners.add(broker + ":9092");
        }
        for (String keySetting : List.of("KAFKA_BOOTSTRAP_SERVERS", "TABLESTREAM_PARTITIONS", "TABLESTREAM_REPLICATION_FACTOR",
                "TABLESTREAM_STANDBY_REPLICAS", "TABLESTREAM_GROUP_SESSION_TIMEOUT_MS")) {
            assertThat(tablestreams().stream().map(s -> environment(s).get(keySetting)).distinct())
                    .as("every instance sets the same " + keySetting).hasSize(1);
        }
        Map<String, String> env = environment(tablestreams().get(0));
        assertThat(Set.of(env.get("KAFKA_BOOTSTRAP_SERVERS").split(","))).isEqualTo(listeners);
        assertThat(Integer.parseInt(env.get("TABLESTREAM_REPLICATION_FACTOR"))).isEqualTo(brokers().size());
        assertThat(Integer.parseInt(env.get("TABLESTREAM_STANDBY_REPLICAS"))).isEqualTo(1);
        int session = Integer.parseInt(env.get("TABLESTREAM_GROUP_SESSION_TIMEOUT_MS"));
        // several bootstrap brokers: every instance gives its Kafka clients the fail-over settings
        int clientsRequestTimeout = Integer.parseInt(FailoverClientSettings.forCluster(env.get("KAFKA_BOOTSTRAP_SERVERS"), 0)
                .get("request.timeout.ms"));
        assertThat(tablestreams()).allSatisfy(s -> assertThat(environment(s)).as(s + ": the fail-over client settings stand")
                .doesNotContainKeys("TABLESTREAM_KAFKA_REQUEST_TIMEOUT_MS", "TABLESTREAM_KAFKA_METADATA_MAX_AGE_MS"));
        for (String broker : brokers()) {
            assertThat(Integer.parseInt(environment(broker).get("KAFKA_GROUP_MIN_SESSION_TIMEOUT_MS")))
                    .as("the brokers allow the instances' session timeout").isLessThanOrEqualTo(session);
            // a leader waiting on a stopped broker answers the instance's request with an error before
            // the instance gives up on that leader's connection (docs/operations.md)
            assertThat(Integer.parseInt(environment(broker).get("KAFKA_REQUEST_TIMEOUT_MS")))
                    .as("the brokers' request timeout is below the instances'").isLessThan(clientsRequestTimeout);
        }
    }

    @Test
    void theBrokersFormOneQuorumWithReplicationThreeAndMinIsrTwo() {
        List<String> voters = new ArrayList<>();
        Set<String> nodeIds = new HashSet<>();
        Set<String> clusterIds = new HashSet<>();
        for (String broker : brokers()) {
            Map<String, String> env = environment(broker);
            String id = env.get("KAFKA_NODE_ID");
            assertThat(nodeIds.add(id)).as("unique node id " + id).isTrue();
            voters.add(id + "@" + broker + ":9093");
            clusterIds.add(env.get("CLUSTER_ID"));
            assertThat(env.get("KAFKA_DEFAULT_REPLICATION_FACTOR")).isEqualTo("3");
            assertThat(env.get("KAFKA_MIN_INSYNC_REPLICAS")).isEqualTo("2");
            assertThat(env.get("KAFKA_TRANSACTION_STATE_LOG_MIN_ISR")).isEqualTo("2");
            assertThat(env.get("KAFKA_LISTENERS")).contains("CONTROLLER://:9093");
        }
        for (String broker : brokers()) {
            assertThat(Arrays.asList(environment(broker).get("KAFKA_CONTROLLER_QUORUM_VOTERS").split(",")))
                    .containsExactlyInAnyOrderElementsOf(voters);
        }
        assertThat(clusterIds).hasSize(1);
        assertThat(Base64.getUrlDecoder().decode(clusterIds.iterator().next())).hasSize(16);
    }

    @Test
    @SuppressWarnings("unchecked")
    void everyBrokerKeepsItsLogDirectoryOnItsOwnVolume() {
        Map<String, Object> declared = (Map<String, Object>) compose.get("volumes");
        Set<String> used = new HashSet<>();
        for (String broker : brokers()) {
            String logDirs = environment(broker).get("KAFKA_LOG_DIRS");
            assertThat(logDirs).as(broker + " sets KAFKA_LOG_DIRS (else the image logs to /tmp/kraft-combined-logs)")
                    .isNotBlank();
            List<String> volumes = (List<String>) services.get(broker).get("volumes");
            assertThat(volumes).as(broker + "'s volumes").isNotNull();
            Map<String, String> mounts = new java.util.HashMap<>();
            for (String volume : volumes) {
                String[] parts = volume.split(":");
                mounts.put(parts[1], parts[0]);
            }
            for (String dir : logDirs.split(",")) {
                String volume = mounts.get(dir);
                assertThat(volume).as(broker + " log directory " + dir + " is a mounted volume").isNotNull();
                assertThat(declared).as("named volumes").containsKey(volume);
                assertThat(used.add(volume)).as("volume " + volume + " belongs to one broker").isTrue();
            }
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void instancesStartOnceEveryBrokerIsHealthy() {
        for (String service : tablestreams()) {
            Map<String, Object> dependsOn = (Map<String, Object>) services.get(service).get("depends_on");
            assertThat(dependsOn).as(service + " depends on").containsOnlyKeys(brokers().toArray(String[]::new));
            dependsOn.values().forEach(condition -> assertThat((Map<String, Object>) condition)
                    .as(service).containsEntry("condition", "service_healthy"));
        }
    }

    /**
     * Every broker's health check sends an ApiVersions request to its own client listener and passes
     * only on a well-formed answer without error: here against a stand-in that answers as a broker
     * does (and {@code BrokerHealthCheckIT} against a real one), one that answers an error, one that
     * accepts and never answers (the port of a broker still starting), and a closed port.
     */
    @Test
    void eachBrokerChecksItsHealthWithACommandThatPassesOnlyWhenTheBrokerAnswers() throws Exception {
        for (String broker : brokers()) {
            assertThat(brokerHealthCheck(broker)).as(broker).contains("/dev/tcp/127.0.0.1/9092 ");
            assertThat(environment(broker).get("KAFKA_LISTENERS")).contains("PLAINTEXT://:9092");
        }
        String command = brokerHealthCheck(brokers().get(0));
        byte[] answer = {0, 0, 0, 20, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 18, 0, 0, 0, 3};
        byte[] refusal = {0, 0, 0, 6, 0, 0, 0, 1, 0, 35};
        assertThat(run(command.replace("127.0.0.1/9092", "127.0.0.1/" + answering(answer)))).as("answers").isZero();
        assertThat(run(command.replace("127.0.0.1/9092", "127.0.0.1/" + answering(refusal)))).as("error").isNotZero();
        assertThat(runWithin(3, command.replace("127.0.0.1/9092", "127.0.0.1/" + answering(null)))).as("silent")
                .isNotZero();
        assertThat(run(command.replace("127.0.0.1/9092", "127.0.0.1/1"))).as("nothing listening").isNotZero();
    }

    /** The brokers' health check command as Compose runs it ({@code $$} read as {@code $}). */
    @SuppressWarnings("unchecked")
    static String brokerHealthCheck(String broker) {
        Map<String, Object> check = (Map<String, Object>) services.get(broker).get("healthcheck");
        assertThat(check).as(broker + " has a health check").isNotNull();
        List<String> test = (List<String>) check.get("test");
        assertThat(test.subList(0, 3)).isEqualTo(List.of("CMD", "bash", "-c"));
        return test.get(3).replace("$$", "$");
    }

    /**
     * A local port whose server reads a request and answers {@code answer} (null: never answers),
     * once; it serves on a daemon thread.
     */
    private static int answering(byte[] answer) throws IOException {
        java.net.ServerSocket server = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress());
        Thread t = new Thread(() -> {
            try (server; java.net.Socket s = server.accept()) {
                s.getInputStream().readNBytes(14);
                if (answer != null) {
                    s.getOutputStream().write(answer);
                    s.getOutputStream().flush();
                }
                s.getInputStream().read(); // until the client is done
            } catch (IOException e) {
                // the client went away
            }
        }, "fake-broker");
        t.setDaemon(true);
        t.start();
        return server.getLocalPort();
    }

    /**
     * Every instance has a health check that asks its own port for {@code /_health/ready}; the command
     * itself (as Compose runs it, {@code $$} read as {@code $}) is run here against a small HTTP server:
     * it succeeds on 200 and fails on 503 and on a closed port.
     */
    @Test
    @SuppressWarnings("unchecked")
    void eachInstanceChecksItsReadinessWithACommandThatPassesOnlyOn200() throws Exception {
        for (String service : tablestreams()) {
            Map<String, Object> check = (Map<String, Object>) services.get(service).get("healthcheck");
            assertThat(check).as(service + " has a health check").isNotNull();
            List<String> test = (List<String>) check.get("test");
            assertThat(test.subList(0, 3)).isEqualTo(List.of("CMD", "bash", "-c"));
            String port = environment(service).get("TABLESTREAM_PORT");
            assertThat(test.get(3)).contains("/dev/tcp/127.0.0.1/" + port + " ").contains("GET /_health/ready ");
        }
        String command = ((List<String>) ((Map<String, Object>) services.get(tablestreams().get(0)).get("healthcheck"))
                .get("test")).get(3).replace("$$", "$");
        com.sun.net.httpserver.HttpServer http = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress("127.0.0.1", 0), 0);
        int[] status = {200};
        http.createContext("/", exchange -> {
            int code = exchange.getRequestURI().getPath().equals("/_health/ready") ? status[0] : 404;
            exchange.sendResponseHeaders(code, -1);
            exchange.close();
        });
        http.start();
        try {
            String local = command.replace("/dev/tcp/127.0.0.1/10002", "/dev/tcp/127.0.0.1/" + http.getAddress().getPort());
            assertThat(run(local)).as("ready").isZero();
            status[0] = 503;
            assertThat(run(local)).as("not ready").isNotZero();
        } finally {
            http.stop(0);
        }
        assertThat(run(command.replace("/dev/tcp/127.0.0.1/10002", "/dev/tcp/127.0.0.1/1"))).as("nothing listening")
                .isNotZero();
    }

    /** Runs {@code bashCommand}, ended after {@code seconds} as Compose ends a health check past its timeout. */
    static int runWithin(int seconds, String bashCommand) throws Exception {
        Process p = new ProcessBuilder("timeout", Integer.toString(seconds), "bash", "-c", bashCommand)
                .redirectErrorStream(true).start();
        p.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
        assertThat(p.waitFor(seconds + 10L, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        return p.exitValue();
    }

    static int run(String bashCommand) throws Exception {
        Process p = new ProcessBuilder("bash", "-c", bashCommand).redirectErrorStream(true).start();
        p.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
        assertThat(p.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        return p.exitValue();
    }
}
