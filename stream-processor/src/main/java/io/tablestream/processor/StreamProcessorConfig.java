package io.tablestream.processor;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * How to run the processor.
 *
 * @param bootstrapServers the Kafka cluster
 * @param topicPrefix prefix of every topic (and of the Streams application id)
 * @param partitions partitions of the commands, outcomes and changes topics when they are created
 * @param replicationFactor replication of every topic Tablestream creates, internal ones included
 * @param stateDir where RocksDB keeps the local state
 * @param instanceId this instance's stable name: its static group membership, so a restart takes its
 *                   partitions back at once instead of waiting out the session of its former self
 * @param applicationServer this instance's {@code host:port} for routing reads between instances, or null
 * @param streamThreads stream threads of this instance
 * @param standbyReplicas warm copies of each store on other instances, for fast fail-over
 * @param commitInterval the longest a task goes without committing its transaction; a write someone
 *                       waits for is committed right after its round of processing regardless
 * @param overrides further Kafka Streams / client settings, applied last
 */
public record StreamProcessorConfig(String bootstrapServers, String topicPrefix, int partitions, short replicationFactor,
                                    Path stateDir, String instanceId, String applicationServer, int streamThreads, int standbyReplicas,
                                    Duration commitInterval, Map<String, Object> overrides, Clock clock) {
    public StreamProcessorConfig {
        Objects.requireNonNull(bootstrapServers, "bootstrapServers");
        Objects.requireNonNull(topicPrefix, "topicPrefix");
        Objects.requireNonNull(stateDir, "stateDir");
        Objects.requireNonNull(instanceId, "instanceId");
        Objects.requireNonNull(commitInterval, "commitInterval");
        Objects.requireNonNull(clock, "clock");
        overrides = Map.copyOf(overrides);
    }

    /**
     * Defaults for a single node: 8 partitions, replication 1, two stream threads (one processes
     * while the other waits for its transaction to commit), commits at least every 100 ms (and
     * right away for a write someone waits for).
     */
    public static StreamProcessorConfig singleNode(String bootstrapServers, String topicPrefix, Path stateDir) {
        return new StreamProcessorConfig(bootstrapServers, topicPrefix, 8, (short) 1, stateDir, "node-1", null, 2, 0,
                Duration.ofMillis(100), Map.of(), Clock.systemUTC());
    }

    public StreamProcessorConfig withApplicationServer(String hostPort) {
        return new StreamProcessorConfig(bootstrapServers, topicPrefix, partitions, replicationFactor, stateDir, instanceId,
                hostPort, streamThreads, standbyReplicas, commitInterval, overrides, clock);
    }

    public StreamProcessorConfig withPartitions(int count) {
        return new StreamProcessorConfig(bootstrapServers, topicPrefix, count, replicationFactor, stateDir, instanceId,
                applicationServer, streamThreads, standbyReplicas, commitInterval, overrides, clock);
    }

    public StreamProcessorConfig withOverrides(Map<String, Object> more) {
        Map<String, Object> all = new java.util.HashMap<>(overrides);
        all.putAll(more);
        return new StreamProcessorConfig(bootstrapServers, topicPrefix, partitions, replicationFactor, stateDir,
                instanceId, applicationServer, streamThreads, standbyReplicas, commitInterval, all, clock);
    }
}
