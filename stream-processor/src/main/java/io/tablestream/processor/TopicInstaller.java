package io.tablestream.processor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates the topics that do not exist yet, replicated as {@link TopicReplication} says for the
 * cluster it finds, and reports how many partitions the commands topic really has (an operator may
 * have created it beforehand). It names the cluster it reached in the log, so an operator sees which
 * one an instance uses.
 */
public final class TopicInstaller {
    private static final Logger LOG = LoggerFactory.getLogger(TopicInstaller.class);
    /** Each admin call of start-up: a cluster still electing controllers or leaders answers within it. */
    private static final long TIMEOUT_SECONDS = 60;
    /**
     * The pauses before asking again about a topic not known yet, doubling from the first to the
     * longest: a topic just created is usually known within tens of milliseconds; a slow cluster is
     * not asked more than once a second.
     */
    private static final Duration FIRST_RETRY = Duration.ofMillis(50);
    private static final Duration LONGEST_RETRY = Duration.ofSeconds(1);

    private TopicInstaller() {
    }

    /**
     * What {@link #install} found and did: the commands topic's partitions and its topic id (random, given
     * by the cluster when the topic was created), the replication of new topics.
     */
    public record Installed(int commandPartitions, TopicReplication replication, String commandsTopicId) {
    }

    /**
     * Ensures every topic exists through {@code admin} (connected to {@code bootstrapServers}), new
     * ones with {@code partitions} partitions and {@code replicationFactor} replicas (0: as
     * {@link TopicReplication#of} chooses for the cluster found, {@code overrides} naming the
     * {@code min.insync.replicas} of every topic if they do).
     */
    public static Installed install(Admin admin, String bootstrapServers, Topics topics, int partitions,
                                    short replicationFactor, Map<String, Object> overrides) {
        try {
            int brokers = logCluster(admin, bootstrapServers);
            TopicReplication replication = TopicReplication.of(replicationFactor, overrides, brokers);
            Set<String> existing = admin.listTopics().names().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            List<NewTopic> missing = new ArrayList<>();
            for (TopicDescriptor<?, ?> t : topics.all()) {
                if (!existing.contains(t.name())) {
                    missing.add(t.newTopic(partitions, replication));
                }
            }
            if (!missing.isEmpty()) {
                for (var entry : admin.createTopics(missing).values().entrySet()) {
                    try {
                        entry.getValue().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                        LOG.info("Created topic {} ({})", entry.getKey(), replication);
                    } catch (ExecutionException e) {
                        if (!(e.getCause() instanceof TopicExistsException)) {
                            throw e;
                        }
                    }
                }
            }
            String name = topics.commands().name();
            // A topic just created may not be known yet to the broker that answers the describe
            // (its metadata lags the controller's), which then says it does not exist: ask again.
            TopicDescription commands = untilTopicKnown(() -> admin.describeTopics(List.of(name)).allTopicNames()
                    .get(TIMEOUT_SECONDS, TimeUnit.SECONDS).get(name), Duration.ofSeconds(TIMEOUT_SECONDS));
            return new Installed(commands.partitions().size(), replication, commands.topicId().toString());
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("Cannot install the topics on " + bootstrapServers + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while installing topics", e);
        }
    }

    /** Names the cluster in the log; returns how many brokers it has (those serving now). */
    private static int logCluster(Admin admin, String bootstrapServers)
            throws ExecutionException, InterruptedException, TimeoutException {
        DescribeClusterResult cluster = admin.describeCluster();
        String id = cluster.clusterId().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        int brokers = cluster.nodes().get(TIMEOUT_SECONDS, TimeUnit.SECONDS).size();
        LOG.info("Kafka cluster {} at {}: {} broker{}", id, bootstrapServers, brokers, brokers == 1 ? "" : "s");
        return brokers;
    }

    /**
     * Runs {@code describe} until it stops failing with {@link UnknownTopicOrPartitionException},
     * waiting a little longer each time, for at most {@code within}; any other failure ends it at once.
     */
    static <T> T untilTopicKnown(Callable<T> describe, Duration within)
            throws ExecutionException, InterruptedException, TimeoutException {
        long deadline = System.nanoTime() + within.toNanos();
        Duration pause = FIRST_RETRY;
        while (true) {
            try {
                return describe.call();
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException) || System.nanoTime() > deadline) {
                    throw e;
                }
                LOG.debug("Topic not known yet ({}); asking again in {} ms", e.getCause().getMessage(), pause.toMillis());
                Thread.sleep(pause.toMillis());
                pause = pause.multipliedBy(2).compareTo(LONGEST_RETRY) > 0 ? LONGEST_RETRY : pause.multipliedBy(2);
            } catch (InterruptedException | TimeoutException | RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new ExecutionException(e);
            }
        }
    }
}
