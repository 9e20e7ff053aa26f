package io.tablestream.processor;

import java.util.Map;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.streams.StreamsConfig;

/**
 * How the topics Tablestream creates are replicated: its own topics and Kafka Streams' changelogs
 * alike. Unless configured otherwise, three replicas (or as many as the cluster has brokers, one on
 * the single-node default) of which two must have a write before it is acknowledged: an
 * acknowledged write then survives the loss of any one broker.
 *
 * @param factor replicas of each partition
 * @param minInSync replicas that must have a write before it is acknowledged ({@code acks=all})
 */
public record TopicReplication(short factor, int minInSync) {
    /** The replication factor when not configured: three, or as many as the cluster has brokers. */
    static final int DEFAULT_FACTOR = 3;
    /** {@code min.insync.replicas} of every topic, as a Kafka Streams override ({@code topic.} prefix). */
    static final String MIN_IN_SYNC_OVERRIDE = StreamsConfig.topicPrefix(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG);

    public TopicReplication {
        if (factor < 1 || minInSync < 1 || minInSync > factor) {
            throw new IllegalArgumentException("not a replication: " + factor + " replicas, " + minInSync + " in sync");
        }
    }

    /**
     * The replication of a cluster of {@code brokers} brokers: {@code configuredFactor} replicas, or
     * when it is 0 three (fewer when the cluster has fewer brokers); {@code min.insync.replicas} as
     * {@code overrides} set it ({@link #MIN_IN_SYNC_OVERRIDE}), else two when there are three replicas
     * or more, one otherwise.
     */
    static TopicReplication of(short configuredFactor, Map<String, Object> overrides, int brokers) {
        short factor = configuredFactor > 0 ? configuredFactor : (short) Math.max(1, Math.min(DEFAULT_FACTOR, brokers));
        Object configured = overrides.get(MIN_IN_SYNC_OVERRIDE);
        int minInSync = configured != null ? Integer.parseInt(configured.toString().strip()) : factor >= 3 ? 2 : 1;
        return new TopicReplication(factor, minInSync);
    }

    @Override
    public String toString() {
        return factor + " replica" + (factor == 1 ? "" : "s") + ", " + minInSync + " in sync for a write";
    }
}
