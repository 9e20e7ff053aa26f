package io.tablestream.server;

import io.tablestream.query.kafka.AdminSettings;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.KafkaException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Kafka client settings an instance gives every client it makes (the stream threads' producers
 * and consumers, the command log's producer, the change feed's and outcomes' consumers, the admin
 * clients) when the cluster has several brokers, unless {@code kafka.<name>} sets them otherwise. On
 * one broker Kafka's own defaults stand: nothing fails over there. A cluster is taken to have several
 * brokers when {@code kafka-bootstrap-servers} names several, or, when it names one (a managed
 * cluster's or a load balancer's single name), when the cluster says so as the instance starts
 * ({@link #brokersAnswering}).
 *
 * <p>A broker that stops answering while its connections stay open ({@code SIGSTOP}, a frozen VM, a
 * half-open network) is fenced by the controller within {@code broker.session.timeout.ms} (3 s in the
 * three-broker set-ups), and its partitions and coordinators move. A client learns of that only when a
 * request to the stopped broker times out, or when it next refreshes its metadata; and it keeps asking
 * the coordinators it knew (its transactions', its group's) until a request to each times out, one
 * after the other (docs/failures.md, "A SIGSTOP: where the seconds go"):
 * <ul>
 *   <li>{@code request.timeout.ms} 2 s (Kafka: 30 s): the stream threads' commits waited twice this
 *       long on a stopped coordinator (offsets to the group's, then the end of the transaction to the
 *       transaction's), and a member of the processors' group that spends it asking the stopped broker
 *       for the new coordinator can still ask again within its 3 s session. The brokers' own (1.5 s)
 *       stays below it, so a healthy leader waiting on the stopped broker answers first.</li>
 *   <li>{@code metadata.max.age.ms} 3 s (Kafka: 5 min): a client that sent the stopped broker nothing
 *       (a stream thread blocked in a commit meanwhile) still learns the partitions' new leaders within
 *       a broker session of the fence, instead of fetching from the stopped broker once more and
 *       waiting out another request timeout; and a fenced broker leaves the brokers a client picks from
 *       for a metadata or coordinator request. The cost: one metadata request per client every 3 s.</li>
 *   <li>{@code reconnect.backoff.ms} and {@code reconnect.backoff.max.ms} 1 s (Kafka: 50 ms, doubling
 *       up to 1 s): a client connected to the stopped broker alone (a consumer of one partition it
 *       led) connects to it again at once after each timeout, and asks for its metadata over that
 *       connection while it is being made (Kafka's choice of the least loaded broker prefers a
 *       connection being made to a new one), so it never hears of the new leader: one instance's
 *       outcome consumer did so for the 25 s between the fence of a stopped controller and its return. A second between two
 *       connections to the same broker lets the metadata request go to another.</li>
 * </ul>
 * A request slower than 2 s (an overloaded broker) is given up and sent again over a new connection,
 * a second later; the producers are idempotent, so nothing is written twice.
 */
final class FailoverClientSettings {
    static final int REQUEST_TIMEOUT_MS = 2_000;
    static final int METADATA_MAX_AGE_MS = 3_000;
    static final int RECONNECT_BACKOFF_MS = 1_000;
    private static final Logger LOG = LoggerFactory.getLogger(FailoverClientSettings.class);
    /** How long a start waits for a cluster given by one address to say how many brokers it has. */
    private static final Duration CLUSTER_SIZE_WAIT = Duration.ofSeconds(15);

    private FailoverClientSettings() {
    }

    /**
     * The settings for a cluster reached through {@code bootstrapServers} and known to have
     * {@code brokersFound} brokers (0 when not asked): these on several brokers, none on one.
     */
    static Map<String, String> forCluster(String bootstrapServers, int brokersFound) {
        boolean several = Math.max(addresses(bootstrapServers), brokersFound) > 1;
        return several ? Map.of("request.timeout.ms", Integer.toString(REQUEST_TIMEOUT_MS),
                "metadata.max.age.ms", Integer.toString(METADATA_MAX_AGE_MS),
                "reconnect.backoff.ms", Integer.toString(RECONNECT_BACKOFF_MS),
                "reconnect.backoff.max.ms", Integer.toString(RECONNECT_BACKOFF_MS)) : Map.of();
    }

    /** How many broker addresses {@code bootstrapServers} names. */
    static long addresses(String bootstrapServers) {
        return Arrays.stream(bootstrapServers.split(",")).filter(address -> !address.isBlank()).count();
    }

    /**
     * How many brokers the cluster at {@code bootstrapServers} has, as it answers within {@code timeout}.
     *
     * @param clientSettings the {@code kafka.*} settings (security among them); an admin client's are taken
     * @throws ExecutionException when the cluster refuses or the request fails
     * @throws TimeoutException when it does not answer in time
     */
    static int brokersAnswering(String bootstrapServers, Map<String, String> clientSettings, Duration timeout)
            throws ExecutionException, TimeoutException, InterruptedException {
        int timeoutMs = (int) timeout.toMillis();
        try (Admin admin = Admin.create(AdminSettings.of(bootstrapServers, "tablestream-cluster-size", timeoutMs,
                clientSettings))) {
            return admin.describeCluster(new DescribeClusterOptions().timeoutMs(timeoutMs)).nodes()
                    .get(timeoutMs + 500L, TimeUnit.MILLISECONDS).size();
        }
    }

    /**
     * A cluster given by one address may still have several brokers: asks it, so that every client gets
     * the fail-over settings (these) there too. Asked once, at start.
     */
    static void askClusterSize(ServerConfig config, String bootstrap) {
        if (addresses(bootstrap) > 1) {
            return;
        }
        int brokers;
        try {
            brokers = brokersAnswering(bootstrap, config.passThrough(ServerSettings.KAFKA_PREFIX),
                    CLUSTER_SIZE_WAIT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while asking the Kafka cluster at " + bootstrap + " for its brokers", e);
        } catch (ExecutionException | TimeoutException | KafkaException e) {
            Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
            LOG.warn("The Kafka cluster at {} did not say how many brokers it has within {} s ({}); its clients get"
                    + " Kafka's own settings, as for one broker", bootstrap, CLUSTER_SIZE_WAIT.toSeconds(), cause.toString());
            return;
        }
        config.brokersFound(brokers);
        if (brokers > 1) {
            LOG.info("The Kafka cluster at {} has {} brokers: its clients get the fail-over settings {}", bootstrap,
                    brokers, forCluster(bootstrap, brokers).keySet());
        }
    }
}
