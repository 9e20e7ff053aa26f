package io.tablestream.kafka.embedded;

import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.apache.kafka.common.Node;

/**
 * Waits until brokers serve clients: an Admin client's DescribeCluster answers with the expected
 * cluster id and enough unfenced brokers (fenced brokers are not listed).
 */
final class Readiness {
    /** The pause between two looks at the cluster: a broker starting up takes seconds, start-up waits on it. */
    private static final Duration RETRY_PAUSE = Duration.ofMillis(50);

    private Readiness() {
    }

    /** Waits until one broker serves. */
    static void await(String bootstrapServers, String clusterId, long deadlineNanos) {
        await(bootstrapServers, clusterId, 1, deadlineNanos);
    }

    /** Waits until {@code brokers} brokers of the cluster serve. */
    static void await(String bootstrapServers, String clusterId, int brokers, long deadlineNanos) {
        int requestTimeoutMs = (int) Math.max(1_000, Math.min(10_000, millisUntil(deadlineNanos)));
        Map<String, Object> config = Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                AdminClientConfig.CLIENT_ID_CONFIG, "embedded-kafka-readiness",
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, requestTimeoutMs,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, requestTimeoutMs,
                AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 200);
        Exception lastFailure = null;
        try (Admin admin = Admin.create(config)) {
            while (millisUntil(deadlineNanos) > 0) {
                try {
                    DescribeClusterResult cluster = admin.describeCluster();
                    long wait = Math.max(1, millisUntil(deadlineNanos));
                    Collection<Node> nodes = cluster.nodes().get(wait, TimeUnit.MILLISECONDS);
                    String actualClusterId = cluster.clusterId().get(wait, TimeUnit.MILLISECONDS);
                    if (nodes.size() >= brokers && clusterId.equals(actualClusterId)) {
                        return;
                    }
                    lastFailure = new IllegalStateException("cluster " + actualClusterId + " lists brokers " + nodes);
                } catch (ExecutionException e) {
                    lastFailure = e;
                } catch (TimeoutException e) {
                    lastFailure = e;
                    break;
                }
                Thread.sleep(RETRY_PAUSE.toMillis());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EmbeddedKafkaException("Interrupted while waiting for Kafka broker " + bootstrapServers, e);
        }
        throw new EmbeddedKafkaException((brokers == 1 ? "Kafka broker " + bootstrapServers + " (cluster " + clusterId
                + ") was not ready" : "The " + brokers + " Kafka brokers at " + bootstrapServers + " (cluster " + clusterId
                + ") were not all ready") + " within the startup timeout", lastFailure);
    }

    private static long millisUntil(long deadlineNanos) {
        return TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime());
    }
}
