package io.tablestream.processor.internal;

import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.DescribeConsumerGroupsOptions;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.TaskMetadata;
import org.apache.kafka.streams.ThreadMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether this instance's copies of the partitions are still its own to read from, as far as the
 * Kafka cluster lets it know. The group moves a partition away from an instance only once its
 * coordinator has heard nothing from the instance for the group's session timeout; an instance that
 * heard from the cluster more recently than that, less one heartbeat interval (the slack between its
 * heartbeats and this probe), still holds what it thinks it holds. One that did not — cut off from
 * every broker while its clients still reach it — may be serving copies that others have since
 * moved past: it reads from none of them, and once it hears from the cluster again, reads from them
 * again only when the group's coordinator confirms that the partitions it holds as active are still
 * assigned to it (after the rebalance that follows, when the group had moved them meanwhile).
 *
 * <p>The probe asks the cluster to describe itself (any broker answers) every {@code interval}, on a
 * thread of its own; readers only read its last answer. That answer also names the brokers that run
 * (the cluster leaves out a broker it has fenced): {@link #liveBrokers()}.
 */
public final class ClusterContact implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterContact.class);

    private final Admin admin;
    private final String groupId;
    private final KafkaStreams streams;
    private final String commandsTopic;
    private final Duration interval;
    private final long boundNanos;
    private final ScheduledExecutorService timer;
    private volatile long lastAnswerNanos = System.nanoTime();
    /** Out of touch long enough for the group to have moved partitions, and not confirmed since. */
    private volatile boolean unconfirmed;
    /** The brokers the last answer named ({@code host:port}). */
    private volatile List<String> brokers = List.of();

    /**
     * @param groupId the processor's consumer group (its application id)
     * @param interval how often the cluster is asked
     * @param bound how long without an answer the copies still count as this instance's own: the
     *     group's session timeout less a heartbeat interval
     */
    public ClusterContact(Admin admin, String groupId, KafkaStreams streams, String commandsTopic, Duration interval,
                          Duration bound) {
        this.admin = admin;
        this.groupId = groupId;
        this.streams = streams;
        this.commandsTopic = commandsTopic;
        this.interval = interval;
        this.boundNanos = bound.toNanos();
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "cluster-contact");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleWithFixedDelay(this::probe, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Whether this instance's copies may serve reads now (see the class comment). */
    public boolean copiesCurrent() {
        return !unconfirmed && System.nanoTime() - lastAnswerNanos <= boundNanos;
    }

    /**
     * The brokers that ran at the last answer, as {@code host:port}, if that answer came within the
     * group's session timeout (less a heartbeat interval); else none. A stopped broker still accepts
     * connections and answers nothing, so a new client bootstrapping from it waits out its request
     * timeout; these leave out a broker the cluster has fenced.
     */
    public Optional<List<String>> liveBrokers() {
        List<String> last = brokers;
        return last.isEmpty() || System.nanoTime() - lastAnswerNanos > boundNanos ? Optional.empty() : Optional.of(last);
    }

    /** {@code host:port} of each node, an IPv6 literal in brackets, as Kafka's bootstrap.servers takes it. */
    static List<String> addresses(Collection<Node> nodes) {
        return nodes.stream().map(n -> Utils.formatAddress(n.host(), n.port())).sorted().toList();
    }

    private void probe() {
        long timeout = Math.max(100, interval.toMillis() * 2);
        try {
            brokers = addresses(admin.describeCluster(new DescribeClusterOptions().timeoutMs((int) timeout)).nodes()
                    .get(timeout + 500, TimeUnit.MILLISECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        } catch (Exception e) {
            if (!unconfirmed && System.nanoTime() - lastAnswerNanos > boundNanos) {
                unconfirmed = true;
                LOG.warn("The Kafka cluster has not answered for {} ms: this instance serves no reads from its copies"
                        + " until it answers again and the group confirms the partitions this instance holds",
                        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lastAnswerNanos));
            }
            return;
        }
        long now = System.nanoTime();
        if (!unconfirmed && now - lastAnswerNanos > boundNanos) {
            unconfirmed = true; // an outage the failed probes did not see end (a probe stuck in a call)
        }
        lastAnswerNanos = now;
        if (unconfirmed && confirmed()) {
            unconfirmed = false;
            LOG.info("The Kafka cluster answers again and the group confirms the partitions this instance holds;"
                    + " it serves reads from its copies again");
        }
    }

    /**
     * Whether the group's coordinator assigns to this instance's stream threads every partition of the
     * command log they hold as active (and the threads run).
     */
    private boolean confirmed() {
        if (streams.state() != KafkaStreams.State.RUNNING) {
            return false;
        }
        Set<Integer> held = new HashSet<>();
        for (ThreadMetadata thread : streams.metadataForLocalThreads()) {
            for (TaskMetadata task : thread.activeTasks()) {
                held.add(task.taskId().partition());
            }
        }
        return assignedPartitions().map(assigned -> assigned.containsAll(held)).orElse(false);
    }

    /**
     * The partitions of the command log that the group's coordinator assigns to this instance's
     * stream threads now (their active tasks, running or still restoring), or nothing when it cannot
     * be asked. One call to the coordinator, bounded by twice the interval (at least 1 s).
     */
    public Optional<Set<Integer>> assignedPartitions() {
        try {
            Set<String> consumers = new HashSet<>();
            for (ThreadMetadata thread : streams.metadataForLocalThreads()) {
                consumers.add(thread.consumerClientId());
            }
            long timeout = Math.max(1_000, interval.toMillis() * 2);
            ConsumerGroupDescription group = admin.describeConsumerGroups(java.util.List.of(groupId),
                            new DescribeConsumerGroupsOptions().timeoutMs((int) timeout))
                    .describedGroups().get(groupId).get(timeout + 500, TimeUnit.MILLISECONDS);
            Set<Integer> assigned = new HashSet<>();
            for (MemberDescription member : group.members()) {
                if (consumers.contains(member.clientId())) {
                    for (TopicPartition tp : member.assignment().topicPartitions()) {
                        if (tp.topic().equals(commandsTopic)) {
                            assigned.add(tp.partition());
                        }
                    }
                }
            }
            return Optional.of(assigned);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } catch (Exception e) {
            LOG.debug("Could not ask the group which partitions this instance holds: {}", e.toString());
            return Optional.empty();
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
