package io.tablestream.processor;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates the topics that do not exist yet, and reports how many partitions the commands topic
 * really has (an operator may have created it beforehand).
 */
public final class TopicInstaller {
    private static final Logger LOG = LoggerFactory.getLogger(TopicInstaller.class);
    private static final long TIMEOUT_SECONDS = 60;

    private TopicInstaller() {
    }

    /**
     * Describes {@code topic}, waiting while the cluster does not know it yet: a topic just created is
     * not in every broker's metadata at once (UnknownTopicOrPartition for a moment).
     */
    private static TopicDescription describe(Admin admin, String topic)
            throws InterruptedException, ExecutionException, TimeoutException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
        while (true) {
            try {
                return admin.describeTopics(List.of(topic)).allTopicNames()
                        .get(TIMEOUT_SECONDS, TimeUnit.SECONDS).get(topic);
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException) || System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(100);
            }
        }
    }

    /** Ensures every topic exists through {@code admin}; returns the partition count of the commands topic. */
    public static int install(Admin admin, Topics topics, int partitions, short replicationFactor) {
        try {
            Set<String> existing = admin.listTopics().names().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            List<NewTopic> missing = new ArrayList<>();
            for (TopicDescriptor<?, ?> t : topics.all()) {
                if (!existing.contains(t.name())) {
                    missing.add(t.newTopic(partitions, replicationFactor));
                }
            }
            if (!missing.isEmpty()) {
                for (var entry : admin.createTopics(missing).values().entrySet()) {
                    try {
                        entry.getValue().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                        LOG.info("Created topic {}", entry.getKey());
                    } catch (ExecutionException e) {
                        if (!(e.getCause() instanceof TopicExistsException)) {
                            throw e;
                        }
                    }
                }
            }
            return describe(admin, topics.commands().name()).partitions().size();
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("Cannot install the topics: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while installing topics", e);
        }
    }
}
