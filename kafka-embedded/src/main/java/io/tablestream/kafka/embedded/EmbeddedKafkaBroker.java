package io.tablestream.kafka.embedded;

import io.tablestream.localfiles.EmbeddedBrokerAddress;
import java.io.UncheckedIOException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;

/**
 * A real, single-node Kafka broker running in this JVM: KRaft in combined mode (one process is both
 * the broker and the only controller), listening on a loopback address, with all of its data in one
 * directory.
 *
 * <p>The data directory belongs to Kafka: it is formatted the first time and reused as is afterwards,
 * so topics, records, committed offsets and the cluster id survive a restart. So does the address:
 * ports not configured are picked at the first start and kept in the directory.
 * Topics are never created implicitly, and the broker keeps records forever unless a topic's own
 * retention says otherwise.
 *
 * <pre>{@code
 * try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder(dataDirectory).start()) {
 *     String bootstrapServers = broker.bootstrapServers();
 * }
 * }</pre>
 */
public final class EmbeddedKafkaBroker implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafkaBroker.class);

    static final int NODE_ID = 1;
    static final String BROKER_LISTENER = "PLAINTEXT";
    static final String CONTROLLER_LISTENER = "CONTROLLER";

    /** Broker properties this class owns; {@link Builder#brokerProperty} refuses to override them. */
    static final Set<String> RESERVED_PROPERTIES = Set.of(
            "process.roles", "node.id", "broker.id",
            "controller.quorum.voters", "controller.quorum.bootstrap.servers",
            "listeners", "advertised.listeners", "listener.security.protocol.map",
            "controller.listener.names", "inter.broker.listener.name",
            "log.dir", "log.dirs", "metadata.log.dir");

    private final Path dataDirectory;
    private final String clusterId;
    private final String bootstrapServers;
    private final String secureBootstrapServers;
    private final KafkaRaftServer server;
    private final DirectoryLock directoryLock;
    private final Object lifecycle = new Object();
    private boolean closed;

    private EmbeddedKafkaBroker(Path dataDirectory, String clusterId, String bootstrapServers,
                                String secureBootstrapServers, KafkaRaftServer server, DirectoryLock directoryLock) {
        this.dataDirectory = dataDirectory;
        this.clusterId = clusterId;
        this.bootstrapServers = bootstrapServers;
        this.secureBootstrapServers = secureBootstrapServers;
        this.server = server;
        this.directoryLock = directoryLock;
    }

    /** Starts describing a broker whose data lives in {@code dataDirectory} (created if missing). */
    public static Builder builder(Path dataDirectory) {
        return new Builder(dataDirectory);
    }

    /** {@code host:port} of the broker's client listener, for {@code bootstrap.servers}. */
    public String bootstrapServers() {
        return bootstrapServers;
    }

    /**
     * {@code host:port} of the listener added with {@link Builder#secureListener}, for clients speaking
     * its security protocol; null when there is none.
     */
    public String secureBootstrapServers() {
        return secureBootstrapServers;
    }

    /** The cluster id written when the data directory was formatted; stable across restarts. */
    public String clusterId() {
        return clusterId;
    }

    public Path dataDirectory() {
        return dataDirectory;
    }

    /**
     * Stops the broker and the controller, flushing and closing the logs and releasing the ports and
     * the data directory's lock. Calling it again does nothing.
     */
    @Override
    public void close() {
        synchronized (lifecycle) {
            if (closed) {
                return;
            }
            closed = true;
            long begin = System.nanoTime();
            try {
                stop(server);
            } finally {
                directoryLock.close();
            }
            LOG.info("Kafka broker {} stopped in {} ms", bootstrapServers, elapsedMillis(begin));
        }
    }

    @Override
    public String toString() {
        return "EmbeddedKafkaBroker[" + bootstrapServers + ", cluster " + clusterId + ", " + dataDirectory + "]";
    }

    private static void stop(KafkaRaftServer server) {
        server.shutdown();
        server.awaitShutdown();
    }

    private static long elapsedMillis(long beginNanos) {
        return Duration.ofNanos(System.nanoTime() - beginNanos).toMillis();
    }

    /** What to start; {@link #start()} starts it, and may be called again after a close (a restart). */
    public static final class Builder {
        private static final int BIND_ATTEMPTS = 3;

        private final Path dataDirectory;
        private String host = "127.0.0.1";
        private int brokerPort;
        private int controllerPort;
        private Duration startupTimeout = Duration.ofSeconds(60);
        private final Map<String, String> extraProperties = new LinkedHashMap<>();
        private String secureProtocol;
        private int securePort;

        private Builder(Path dataDirectory) {
            this.dataDirectory = Objects.requireNonNull(dataDirectory, "dataDirectory").toAbsolutePath().normalize();
        }

        /** The address both listeners bind to and the broker advertises; {@code 127.0.0.1} by default. */
        public Builder host(String host) {
            this.host = requireText(host, "host");
            return this;
        }

        /**
         * The client port; 0 (the default) keeps the port of the previous start (kept in the data
         * directory), or picks a free one at the first start.
         */
        public Builder brokerPort(int port) {
            this.brokerPort = requirePort(port);
            return this;
        }

        /** The controller (KRaft quorum) port; 0 (the default) keeps or picks one, as {@link #brokerPort}. */
        public Builder controllerPort(int port) {
            this.controllerPort = requirePort(port);
            return this;
        }

        /** How long {@link #start()} may take before it gives up; 60 s by default. */
        public Builder startupTimeout(Duration timeout) {
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("startup timeout must be positive: " + timeout);
            }
            this.startupTimeout = timeout;
            return this;
        }

        /**
         * Sets or overrides one broker property (for example a topic default such as
         * {@code log.retention.ms}). The node identity, listeners, quorum and directories are this
         * class's to choose and cannot be overridden.
         */
        public Builder brokerProperty(String name, String value) {
            requireText(name, "name");
            Objects.requireNonNull(value, "value");
            if (RESERVED_PROPERTIES.contains(name)) {
                throw new IllegalArgumentException("broker property " + name + " is set by the embedded broker itself");
            }
            extraProperties.put(name, value);
            return this;
        }

        /**
         * Adds a client listener speaking {@code securityProtocol} ({@code SSL}, {@code SASL_PLAINTEXT}
         * or {@code SASL_SSL}) beside the plain one, on {@code port} (0: a free port picked at each
         * start, not kept), advertised as {@link EmbeddedKafkaBroker#secureBootstrapServers()}: for
         * testing clients against Kafka's own TLS and SASL. Its key store, SASL mechanisms and JAAS
         * configuration are {@link #brokerProperty broker properties} ({@code ssl.keystore.*},
         * {@code sasl.enabled.mechanisms}, {@code listener.name.sasl_ssl.plain.sasl.jaas.config}, ...).
         * The broker's own traffic stays on the plain listeners.
         */
        public Builder secureListener(String securityProtocol, int port) {
            String protocol = requireText(securityProtocol, "securityProtocol");
            if (!Set.of("SSL", "SASL_PLAINTEXT", "SASL_SSL").contains(protocol)) {
                throw new IllegalArgumentException("a secure listener speaks SSL, SASL_PLAINTEXT or SASL_SSL, not "
                        + securityProtocol);
            }
            this.secureProtocol = protocol;
            this.securePort = requirePort(port);
            return this;
        }

        /**
         * Formats the data directory if it has never been formatted, starts the broker and waits until
         * it serves clients.
         *
         * @throws EmbeddedKafkaException if it cannot start or is not ready within the startup timeout
         */
        public EmbeddedKafkaBroker start() {
            if (brokerPort != 0 && brokerPort == controllerPort) {
                throw new IllegalArgumentException("broker and controller need two ports, both are " + brokerPort);
            }
            long begin = System.nanoTime();
            long deadline = begin + startupTimeout.toNanos();
            try {
                Files.createDirectories(dataDirectory);
            } catch (IOException e) {
                throw new EmbeddedKafkaException("Cannot create Kafka data directory " + dataDirectory, e);
            }
            DirectoryLock lock = DirectoryLock.acquire(dataDirectory);
            try {
                return start(lock, begin, deadline);
            } catch (RuntimeException e) {
                lock.close();
                throw e;
            }
        }

        private EmbeddedKafkaBroker start(DirectoryLock lock, long begin, long deadline) {
            String clusterId = formatOnce();
            Optional<EmbeddedBrokerAddress> stored = readAddress();
            for (int attempt = 1; ; attempt++) {
                EmbeddedBrokerAddress address = address(stored);
                boolean picked = stored.isEmpty() && (brokerPort == 0 || controllerPort == 0);
                if (!stored.equals(Optional.of(address))) {
                    // Kept before the broker first listens on it: a crash right after must not lose it.
                    writeAddress(address);
                    stored.ifPresent(before -> LOG.warn("The embedded broker moves from ports {}/{} to {}/{} as configured;"
                                    + " clients that remember the old address must be pointed at the new one",
                            before.brokerPort(), before.controllerPort(), address.brokerPort(), address.controllerPort()));
                }
                BrokerProperties.SecureListener secure = secureProtocol == null ? null
                        : new BrokerProperties.SecureListener(secureProtocol, securePort != 0 ? securePort
                        : FreePorts.pick(host, address.brokerPort(), address.controllerPort()));
                BrokerProperties properties = new BrokerProperties(dataDirectory, host, address.brokerPort(),
                        address.controllerPort(), remainingMillis(deadline), extraProperties, secure);
                KafkaRaftServer server = newServer(properties);
                try {
                    server.startup();
                } catch (RuntimeException e) {
                    stopQuietly(server);
                    if (isBindFailure(e) && picked && attempt < BIND_ATTEMPTS) {
                        LOG.info("A picked port was taken before the broker could bind it; retrying with others");
                        stored = Optional.empty();
                        continue;
                    }
                    if (isBindFailure(e)) {
                        throw new EmbeddedKafkaException("The Kafka broker in " + dataDirectory + " cannot listen on "
                                + properties.bootstrapServers() + " (controller port " + address.controllerPort()
                                + "): the port is in use. The broker keeps the address it was first given (see "
                                + dataDirectory.resolve(EmbeddedBrokerAddress.FILE_NAME) + "); free the port, or configure"
                                + " other ports explicitly to move it.", e);
                    }
                    throw new EmbeddedKafkaException("Kafka broker in " + dataDirectory + " failed to start on "
                            + properties.bootstrapServers() + " (controller port " + address.controllerPort() + ")", e);
                }
                try {
                    Readiness.await(properties.bootstrapServers(), clusterId, deadline);
                } catch (RuntimeException e) {
                    stopQuietly(server);
                    throw e;
                }
                LOG.info("Kafka broker {} (cluster {}, data {}) ready in {} ms",
                        properties.bootstrapServers(), clusterId, dataDirectory, elapsedMillis(begin));
                return new EmbeddedKafkaBroker(dataDirectory, clusterId, properties.bootstrapServers(),
                        properties.secureBootstrapServers(), server, lock);
            }
        }

        /**
         * The ports to listen on: those configured, else those kept in the data directory, else free
         * ones picked now (and kept from then on).
         */
        /** The address kept in the data directory, if one was. */
        private Optional<EmbeddedBrokerAddress> readAddress() {
            try {
                return EmbeddedBrokerAddress.read(dataDirectory);
            } catch (UncheckedIOException e) {
                throw new EmbeddedKafkaException(e.getMessage(), e.getCause());
            } catch (IllegalArgumentException e) {
                throw new EmbeddedKafkaException(e.getMessage() + "; set the ports explicitly or remove the file to"
                        + " choose new ones", e);
            }
        }

        private void writeAddress(EmbeddedBrokerAddress address) {
            try {
                address.write(dataDirectory);
            } catch (UncheckedIOException e) {
                throw new EmbeddedKafkaException(e.getMessage(), e.getCause());
            }
        }

        private EmbeddedBrokerAddress address(Optional<EmbeddedBrokerAddress> stored) {
            int keptBroker = brokerPort != 0 ? brokerPort
                    : stored.map(EmbeddedBrokerAddress::brokerPort).filter(p -> p != controllerPort).orElse(0);
            int chosenController = controllerPort != 0 ? controllerPort
                    : stored.map(EmbeddedBrokerAddress::controllerPort).filter(p -> p != keptBroker).orElse(0);
            int chosenBroker = keptBroker;
            if (chosenBroker == 0) {
                chosenBroker = FreePorts.pick(host, chosenController);
            }
            if (chosenController == 0) {
                chosenController = FreePorts.pick(host, chosenBroker);
            }
            return new EmbeddedBrokerAddress(chosenBroker, chosenController);
        }

        private KafkaRaftServer newServer(BrokerProperties properties) {
            try {
                return new KafkaRaftServer(new KafkaConfig(properties.asMap(), false), Time.SYSTEM);
            } catch (RuntimeException e) {
                throw new EmbeddedKafkaException("Kafka broker in " + dataDirectory
                        + " cannot be configured: " + e.getMessage(), e);
            }
        }

        /** Formats the directory on first use; returns the cluster id it holds. */
        private String formatOnce() {
            return LogDirectory.formatOnce(dataDirectory, NODE_ID, Uuid.randomUuid().toString());
        }

        private static long remainingMillis(long deadlineNanos) {
            return Math.max(1, Duration.ofNanos(deadlineNanos - System.nanoTime()).toMillis());
        }

        private static void stopQuietly(KafkaRaftServer server) {
            try {
                stop(server);
            } catch (RuntimeException e) {
                LOG.warn("Stopping a Kafka broker that failed to start failed too", e);
            }
        }

        private static boolean isBindFailure(Throwable failure) {
            for (Throwable t = failure; t != null; t = t.getCause()) {
                if (t instanceof java.net.BindException) {
                    return true;
                }
            }
            return false;
        }

        private static int requirePort(int port) {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("port out of range: " + port);
            }
            return port;
        }

        private static String requireText(String value, String what) {
            if (value == null || value.isBlank()) {
                throw new IllegalArgumentException(what + " must not be blank");
            }
            return value;
        }
    }
}
