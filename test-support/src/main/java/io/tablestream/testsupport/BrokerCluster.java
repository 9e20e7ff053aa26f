package io.tablestream.testsupport;

import io.tablestream.kafka.embedded.LocalKafkaCluster;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewPartitionReassignment;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.ElectionType;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.ElectionNotNeededException;
import org.apache.kafka.common.utils.Utils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real Kafka cluster of several brokers for integration tests: the nodes of a
 * {@link LocalKafkaCluster} (each a broker and a controller voter; three replicas of every topic, two
 * in sync for a write), each run by Kafka's own main class ({@code kafka.Kafka}) in a JVM of its own
 * from the test's classpath — so that {@link Broker#kill() kill -9}, {@link Broker#pause() SIGSTOP}
 * and a restart on the same data are real — exactly as {@code run-cluster.sh --brokers 3} runs them.
 *
 * <p>Each broker's output goes to a log file of its own (kept across its restarts). {@link #close()}
 * kills every broker still running and deletes the cluster's directory; a JVM shutdown hook kills
 * them too if the test JVM ends first, so a failing test leaves no process behind.
 *
 * <pre>{@code
 * try (BrokerCluster kafka = BrokerCluster.builder(dir).start()) {
 *     kafka.leaderOf("commands", 0).kill();
 * }
 * }</pre>
 *
 * <p>One class, over 400 lines: laying the nodes out, starting each JVM, waiting for the cluster,
 * finding a partition's leader and the faults (kill, pause, restart) act on one set of processes
 * whose lifetime {@link #close()} and the shutdown hook must cover; apart, a fault could outlive it.
 */
public final class BrokerCluster implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BrokerCluster.class);

    private final LocalKafkaCluster layout;
    private final List<Broker> brokers = new ArrayList<>();
    private final Path logDirectory;
    private final List<String> jvmOptions;
    private final Thread killOnExit = new Thread(this::killAll, "broker-cluster-kill-on-exit");
    private Admin admin;

    private BrokerCluster(LocalKafkaCluster layout, Path logDirectory, List<String> jvmOptions) {
        this.layout = layout;
        this.logDirectory = logDirectory;
        this.jvmOptions = List.copyOf(jvmOptions);
        for (LocalKafkaCluster.Node node : layout.nodes()) {
            brokers.add(new Broker(node));
        }
    }

    /** Starts describing a cluster whose data lives in {@code directory} (deleted by {@link #close()}). */
    public static Builder builder(Path directory) {
        return new Builder(directory);
    }

    /** Every broker's client address, for {@code bootstrap.servers}. */
    public String bootstrapServers() {
        return layout.bootstrapServers();
    }

    public List<Broker> brokers() {
        return List.copyOf(brokers);
    }

    /** The broker of node {@code id} (from 1). */
    public Broker broker(int id) {
        return brokers.get(id - 1);
    }

    /** An admin client of the cluster, made once and closed with it. */
    public synchronized Admin admin() {
        if (admin == null) {
            admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
                    AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000,
                    AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 15_000,
                    AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 500));
        }
        return admin;
    }

    /** The broker leading partition {@code partition} of {@code topic} now. */
    public Broker leaderOf(String topic, int partition) {
        TopicPartitionInfo info = describe(topic).partitions().get(partition);
        if (info.leader() == null || info.leader().id() < 0) {
            throw new IllegalStateException(topic + "-" + partition + " has no leader now");
        }
        return broker(info.leader().id());
    }

    /** How many partitions of {@code topic} each broker leads now (brokers leading none included). */
    public Map<Broker, Integer> leadershipsOf(String topic) {
        Map<Broker, Integer> counts = new LinkedHashMap<>();
        brokers.forEach(b -> counts.put(b, 0));
        for (TopicPartitionInfo p : describe(topic).partitions()) {
            if (p.leader() != null && p.leader().id() > 0) {
                counts.merge(broker(p.leader().id()), 1, Integer::sum);
            }
        }
        return counts;
    }

    /** The broker coordinating the transactions of {@code transactionalId} now. */
    public Broker transactionCoordinatorOf(String transactionalId) {
        int id = get(admin().describeTransactions(List.of(transactionalId)).description(transactionalId))
                .coordinatorId();
        return broker(id);
    }

    /** The broker coordinating consumer group {@code groupId} now. */
    public Broker groupCoordinatorOf(String groupId) {
        return broker(get(admin().describeConsumerGroups(List.of(groupId)).describedGroups().get(groupId))
                .coordinator().id());
    }

    /**
     * The partition of one of Kafka's own logs ({@code __transaction_state}, {@code __consumer_offsets})
     * that keeps {@code key} (a transactional id, a group id), and so whose leader coordinates it: the
     * brokers place a key by its hash, as {@code TransactionStateManager} and the group coordinator do.
     */
    public TopicPartition coordinationPartitionOf(String internalTopic, String key) {
        return new TopicPartition(internalTopic, Utils.abs(key.hashCode()) % describe(internalTopic).partitions().size());
    }

    /**
     * Makes {@code broker} the leader of each of {@code partitions}: puts it first among the partition's
     * replicas (the same replicas in another order, so nothing is copied), then elects the preferred
     * leaders; waits until it leads them all. What moves with a partition of Kafka's own logs moves too
     * (the transactions or groups it coordinates), as when a broker fails over.
     */
    public void moveLeadership(Broker broker, Collection<TopicPartition> partitions, Duration timeout) {
        Map<TopicPartition, Optional<NewPartitionReassignment>> reorder = new LinkedHashMap<>();
        for (TopicPartition tp : partitions) {
            TopicPartitionInfo info = describe(tp.topic()).partitions().get(tp.partition());
            List<Integer> replicas = new ArrayList<>(List.of(broker.id()));
            info.replicas().stream().map(Node::id).filter(id -> id != broker.id()).forEach(replicas::add);
            if (replicas.size() != info.replicas().size()) {
                throw new IllegalArgumentException(broker + " holds no replica of " + tp);
            }
            reorder.put(tp, Optional.of(new NewPartitionReassignment(replicas)));
        }
        if (reorder.isEmpty()) {
            return;
        }
        get(admin().alterPartitionReassignments(reorder).all());
        await(() -> {
            try {
                get(admin().electLeaders(ElectionType.PREFERRED, reorder.keySet()).all());
            } catch (IllegalStateException e) {
                if (!(e.getCause() instanceof ElectionNotNeededException)) {
                    throw e;
                }
            }
            return reorder.keySet().stream().allMatch(tp -> leaderOf(tp.topic(), tp.partition()).equals(broker));
        }, timeout, broker + " leading " + reorder.keySet());
    }

    /** The transactional ids the cluster knows whose name starts with {@code prefix}. */
    public Set<String> transactionalIds(String prefix) {
        return get(admin().listTransactions().all()).stream().map(t -> t.transactionalId())
                .filter(id -> id.startsWith(prefix)).collect(Collectors.toCollection(java.util.TreeSet::new));
    }

    /** The node that is the active controller (the KRaft quorum's leader) now. */
    public Broker activeController() {
        return broker(get(admin().describeMetadataQuorum().quorumInfo()).leaderId());
    }

    /** Waits until exactly the running brokers serve as unfenced brokers. */
    public void awaitServing(Duration timeout) {
        Set<Integer> running = brokers.stream().filter(Broker::isAlive).map(Broker::id).collect(Collectors.toSet());
        await(() -> {
            Collection<Node> nodes = get(admin().describeCluster().nodes());
            return nodes.stream().map(Node::id).collect(Collectors.toSet()).equals(running);
        }, timeout, "brokers " + running + " serving");
    }

    /**
     * Waits until every partition of {@code topics} has all its replicas in sync (a restarted
     * broker has caught up); returns how long that took.
     */
    public Duration awaitFullyReplicated(Collection<String> topics, Duration timeout) {
        long begin = System.nanoTime();
        await(() -> get(admin().describeTopics(topics).allTopicNames()).values().stream()
                        .flatMap(t -> t.partitions().stream())
                        .allMatch(p -> p.isr().size() == p.replicas().size()),
                timeout, "every partition of " + topics + " fully in sync");
        return Duration.ofNanos(System.nanoTime() - begin);
    }

    /** Lines of every broker's log at WARN or ERROR (as logback writes them). */
    public List<String> warningsAndErrors() {
        List<String> lines = new ArrayList<>();
        for (Broker b : brokers) {
            lines.addAll(b.linesMatching(" WARN | ERROR "));
        }
        return lines;
    }

    /** Kills every broker still running, deletes the cluster's data. The logs stay. */
    @Override
    public void close() {
        synchronized (this) {
            if (admin != null) {
                admin.close(Duration.ofSeconds(2));
                admin = null;
            }
        }
        killAll();
        try {
            Runtime.getRuntime().removeShutdownHook(killOnExit);
        } catch (IllegalStateException e) {
            // the JVM is exiting: the hook runs anyway
        }
        TestDirectories.delete(layout.directory());
    }

    private void killAll() {
        for (Broker b : brokers) {
            b.killQuietly();
        }
    }

    private TopicDescription describe(String topic) {
        return get(admin().describeTopics(List.of(topic)).allTopicNames()).get(topic);
    }

    private static <T> T get(org.apache.kafka.common.KafkaFuture<T> future) {
        try {
            return future.get(20, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause().toString(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("the cluster did not answer within 20 s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void await(BooleanSupplier condition, Duration timeout, String what) {
        long deadline = System.nanoTime() + timeout.toNanos();
        RuntimeException last = null;
        while (System.nanoTime() < deadline) {
            try {
                if (condition.getAsBoolean()) {
                    return;
                }
            } catch (RuntimeException e) {
                last = e;
            }
            pause(Duration.ofMillis(100));
        }
        throw new AssertionError("Not " + what + " within " + timeout, last);
    }

    private static void pause(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** One broker: a KRaft node in a JVM of its own, started, killed, paused and restarted on its data. */
    public final class Broker {
        private final LocalKafkaCluster.Node node;
        private final Path log;
        private Process process;
        private boolean paused;

        private Broker(LocalKafkaCluster.Node node) {
            this.node = node;
            this.log = logDirectory.resolve(node.name() + ".log");
        }

        public int id() {
            return node.id();
        }

        public String name() {
            return node.name();
        }

        /** {@code host:port} of its client listener. */
        public String address() {
            return node.bootstrapAddress();
        }

        public synchronized long pid() {
            return process.pid();
        }

        public synchronized boolean isAlive() {
            return process != null && process.isAlive();
        }

        /** Starts it (again) on its data; returns at once (see {@link BrokerCluster#awaitServing}). */
        public synchronized Broker start() {
            if (isAlive()) {
                throw new IllegalStateException(name() + " runs already");
            }
            List<String> command = new ArrayList<>();
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            command.addAll(jvmOptions);
            command.add("-cp");
            command.add(System.getProperty("java.class.path"));
            command.add("kafka.Kafka");
            command.add(node.propertiesFile().toString());
            try {
                Files.createDirectories(log.getParent());
                Files.writeString(log, "==== start " + Instant.now() + "\n", StandardCharsets.UTF_8,
                        java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
                process = new ProcessBuilder(command).redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot start " + name(), e);
            }
            paused = false;
            LOG.info("{} started (pid {}) at {}", name(), process.pid(), address());
            return this;
        }

        /** {@code kill -9}: it ends at once, whatever it was doing. Returns once it is gone. */
        public synchronized void kill() {
            process.toHandle().destroyForcibly();
            awaitExit();
            LOG.info("{} killed (kill -9)", name());
        }

        /** SIGTERM (a controlled shutdown), then waits for it to end. */
        public synchronized void stop() {
            resumeIfPaused();
            process.toHandle().destroy();
            awaitExit();
            LOG.info("{} stopped", name());
        }

        /** {@code kill -STOP}: it stops running, its connections stay open, until {@link #resume()}. */
        public synchronized void pause() {
            signal("STOP");
            paused = true;
            LOG.info("{} paused (SIGSTOP)", name());
        }

        /** {@code kill -CONT} after {@link #pause()}. */
        public synchronized void resume() {
            signal("CONT");
            paused = false;
            LOG.info("{} resumed (SIGCONT)", name());
        }

        public Path logFile() {
            return log;
        }

        /** Lines of its log (every start of it) matching the regular expression {@code regex}. */
        public List<String> linesMatching(String regex) {
            java.util.regex.Pattern pattern = java.util.regex.Pattern.compile(regex);
            try {
                return Files.exists(log) ? Files.readAllLines(log, StandardCharsets.UTF_8).stream()
                        .filter(l -> pattern.matcher(l).find()).toList() : List.of();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public String toString() {
            return name();
        }

        private void resumeIfPaused() {
            if (paused) {
                resume();
            }
        }

        private synchronized void killQuietly() {
            if (process != null && process.isAlive()) {
                process.toHandle().destroyForcibly(); // SIGKILL ends a stopped process too
                try {
                    process.waitFor(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }

        private void awaitExit() {
            try {
                if (!process.waitFor(60, TimeUnit.SECONDS)) {
                    process.toHandle().destroyForcibly();
                    process.waitFor(30, TimeUnit.SECONDS);
                    throw new AssertionError(name() + " did not exit within 60 s");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }

        private void signal(String signal) {
            try {
                Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
                        .redirectErrorStream(true).start();
                if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                    throw new IllegalStateException("kill -" + signal + " " + process.pid() + " failed");
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    /** What to start. */
    public static final class Builder {
        private final Path directory;
        private int nodes = 3;
        private String host = "127.0.0.1";
        private Path logDirectory;
        private Duration startupTimeout = Duration.ofMinutes(2);
        private final List<String> jvmOptions = new ArrayList<>(List.of("-Xmx384m", "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1"));
        private final Map<String, String> brokerProperties = new LinkedHashMap<>();

        private Builder(Path directory) {
            this.directory = directory;
        }

        /** How many nodes (brokers and voters); three by default. */
        public Builder nodes(int count) {
            this.nodes = count;
            return this;
        }

        /** The address every broker listens on and advertises; {@code 127.0.0.1} by default. */
        public Builder host(String address) {
            this.host = address;
            return this;
        }

        /** Where the brokers' logs go (kept); by default beside the data, in the cluster's directory. */
        public Builder logDirectory(Path dir) {
            this.logDirectory = dir;
            return this;
        }

        /** Adds a JVM option of every broker (after the defaults: {@code -Xmx384m}, serial GC, C1 only). */
        public Builder jvmOption(String option) {
            jvmOptions.add(option);
            return this;
        }

        /** A broker property of every node ({@code {node}} in the value stands for its id), e.g. for TLS. */
        public Builder brokerProperty(String name, String value) {
            brokerProperties.put(name, value);
            return this;
        }

        public Builder startupTimeout(Duration timeout) {
            this.startupTimeout = timeout;
            return this;
        }

        /** Lays the cluster out, starts every broker and waits until all of them serve. */
        public BrokerCluster start() {
            LocalKafkaCluster layout = LocalKafkaCluster.prepare(directory, nodes, host, 0, brokerProperties);
            BrokerCluster cluster = new BrokerCluster(layout, logDirectory != null ? logDirectory : layout.directory(),
                    jvmOptions);
            Runtime.getRuntime().addShutdownHook(cluster.killOnExit);
            try {
                cluster.brokers.forEach(Broker::start);
                layout.awaitReady(startupTimeout);
            } catch (RuntimeException | Error e) {
                cluster.close();
                throw e;
            }
            LOG.info("Kafka cluster of {} brokers serving at {}", nodes, layout.bootstrapServers());
            return cluster;
        }
    }
}
