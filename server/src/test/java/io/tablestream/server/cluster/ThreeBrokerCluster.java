package io.tablestream.server.cluster;

import com.azure.core.http.policy.FixedDelayOptions;
import com.azure.core.http.policy.RetryOptions;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import io.tablestream.core.model.EmulatorAccount;
import io.tablestream.server.RawTableClient;
import io.tablestream.server.ServerSettings;
import io.tablestream.server.process.ServerProcess;
import io.tablestream.testsupport.BrokerCluster;
import io.tablestream.testsupport.NetworkNamespace;
import io.tablestream.testsupport.TestDirectories;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What {@code run-cluster.sh --brokers 3} runs, for integration tests: three Kafka brokers (a
 * {@link BrokerCluster}: one controller quorum of three, every topic replicated three times, two in
 * sync for a write) and Tablestream instances (three, as there; fewer when a test needs no more),
 * each in a JVM of its own, each keeping a standby
 * of the others' partitions, all logging as the product does (its own logback configuration).
 *
 * <p>Given a {@link NetworkNamespace}, the brokers listen on its brokers' address, the first instances
 * on its clients' address and the last instance inside it, so that a test can cut that instance off
 * from every broker while its clients still reach it. {@code customize} sees every instance's
 * settings before it starts (HTTPS, say). {@link #close()} kills every process and deletes every
 * directory (the logs, under {@code target/server-processes}, stay).
 */
final class ThreeBrokerCluster implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ThreeBrokerCluster.class);
    static final int PARTITIONS = 6;
    static final Duration START = Duration.ofMinutes(3);
    /**
     * The product's own logging (WARN and ERROR of everything, INFO of Tablestream), not the tests';
     * {@code -Dfaults.logback=<file>} names another configuration (Kafka's client logs, say) for a diagnosis.
     */
    private static final Path PRODUCT_LOGGING = Path.of(System.getProperty("faults.logback", "target/classes/logback.xml"))
            .toAbsolutePath();

    private final Path root;
    private final BrokerCluster kafka;
    private final Optional<NetworkNamespace> namespace;
    private final List<Instance> instances = new ArrayList<>();

    /** One Tablestream instance: its name, address and data, and its process while it runs. */
    final class Instance {
        final String id;
        final String host;
        final int port;
        final Path dataDir;
        final List<String> launcher;
        private final Consumer<ServerProcess.Builder> customize;
        ServerProcess process;

        Instance(String id, String host, int port, List<String> launcher, Consumer<ServerProcess.Builder> customize) {
            this.id = id;
            this.host = host;
            this.port = port;
            this.dataDir = root.resolve(id);
            this.launcher = launcher;
            this.customize = customize;
        }

        /** Starts it (again, on its data); returns at once. */
        void start() {
            ServerProcess.Builder builder = ServerProcess.builder(dataDir)
                    .launcher(launcher)
                    .with(ServerSettings.KAFKA_BOOTSTRAP_SERVERS, kafka.bootstrapServers())
                    .with(ServerSettings.PARTITIONS, PARTITIONS)
                    .with(ServerSettings.HOST, host)
                    .with(ServerSettings.PORT, port)
                    .with(ServerSettings.ADVERTISED_ADDRESS, host + ":" + port)
                    .with(ServerSettings.INSTANCE_ID, id)
                    .with(ServerSettings.STANDBY_REPLICAS, 1)
                    .with(ServerSettings.STREAM_THREADS, 1)
                    // as run-cluster.sh and compose.yaml
                    .with(ServerSettings.GROUP_SESSION_TIMEOUT_MS, 3_000)
                    .with(ServerSettings.GROUP_HEARTBEAT_INTERVAL_MS, 500)
                    .with(ServerSettings.TRANSACTION_TIMEOUT_MS, 20_000)
                    .jvmOption("-Xmx512m")
                    .jvmOption("-Dlogback.configurationFile=" + PRODUCT_LOGGING)
                    .log(Path.of("target", "server-processes", root.getFileName() + "-" + id + ".log").toAbsolutePath());
            customize.accept(builder);
            process = builder.start();
        }

        /** An official SDK client of this instance that never retries (every failure is seen). */
        TableServiceClient client() {
            return new TableServiceClientBuilder().connectionString(connectionString())
                    .retryOptions(new RetryOptions(new FixedDelayOptions(0, Duration.ofMillis(1)))).buildClient();
        }

        String connectionString() {
            return EmulatorAccount.connectionString("http://" + host + ":" + port + "/" + EmulatorAccount.NAME);
        }

        RawTableClient raw() {
            return new RawTableClient(host, port);
        }

        @Override
        public String toString() {
            return id;
        }
    }

    private ThreeBrokerCluster(Path root, BrokerCluster kafka, Optional<NetworkNamespace> namespace) {
        this.root = root;
        this.kafka = kafka;
        this.namespace = namespace;
    }

    /**
     * Starts the brokers, then {@code instances} instances (the first creates the topics), and waits
     * until every instance serves; with a namespace, the last instance runs inside it.
     */
    static ThreeBrokerCluster start(Optional<NetworkNamespace> namespace, int instances,
                                    Consumer<ServerProcess.Builder> customize) {
        Path root;
        try {
            root = Files.createDirectories(Path.of("target", "three-brokers-" + Long.toString(System.nanoTime(), 36))
                    .toAbsolutePath());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        BrokerCluster kafka = null;
        ThreeBrokerCluster cluster = null;
        try {
            kafka = BrokerCluster.builder(root.resolve("kafka"))
                    .host(namespace.map(NetworkNamespace::brokersAddress).orElse("127.0.0.1"))
                    .logDirectory(Path.of("target", "server-processes").toAbsolutePath().resolve(root.getFileName().toString()))
                    .jvmOption("-Dlogback.configurationFile=" + PRODUCT_LOGGING)
                    .startupTimeout(START)
                    .start();
            cluster = new ThreeBrokerCluster(root, kafka, namespace);
            String outside = namespace.map(NetworkNamespace::clientsAddress).orElse("127.0.0.1");
            for (int i = 1; i <= instances; i++) {
                boolean inside = namespace.isPresent() && i == instances;
                cluster.instances.add(cluster.new Instance("node-" + i,
                        inside ? namespace.get().insideAddress() : outside,
                        ServerProcess.freePort(), inside ? namespace.get().launcher() : List.of(), customize));
            }
            Instance first = cluster.instances.get(0);
            first.start();
            first.process.awaitServing(START);
            for (Instance other : cluster.instances.subList(1, instances)) {
                other.start();
            }
            for (Instance other : cluster.instances.subList(1, instances)) {
                other.process.awaitServing(START);
            }
            LOG.info("Three brokers at {} and instances {}", kafka.bootstrapServers(), cluster.instances);
            return cluster;
        } catch (RuntimeException | Error e) {
            if (cluster != null) {
                cluster.close();
            } else {
                if (kafka != null) {
                    kafka.close();
                }
                TestDirectories.delete(root);
            }
            throw e;
        }
    }

    BrokerCluster kafka() {
        return kafka;
    }

    List<Instance> instances() {
        return List.copyOf(instances);
    }

    Instance instance(int n) {
        return instances.get(n - 1);
    }

    /** The namespace the last instance runs in, if any. */
    Optional<NetworkNamespace> namespace() {
        return namespace;
    }

    /** Kills every instance and broker, deletes their data. */
    @Override
    public void close() {
        for (Instance i : instances) {
            if (i.process != null) {
                i.process.close();
            }
        }
        kafka.close();
        TestDirectories.delete(root);
    }
}
