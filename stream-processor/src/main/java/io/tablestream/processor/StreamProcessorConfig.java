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
 * @param replicationFactor replication of every topic Tablestream creates, internal ones included; 0 for
 *                          {@link TopicReplication}'s choice (three, or fewer on a smaller cluster)
 * @param stateDir where RocksDB keeps the local state
 * @param instanceId this instance's stable name: its static group membership, so a restart takes its
 *                   partitions back at once instead of waiting out the session of its former self
 * @param applicationServer this instance's {@code host:port} for routing reads between instances, or null
 * @param streamThreads stream threads of this instance
 * @param standbyReplicas warm copies of each store on other instances, for fast fail-over
 * @param commitInterval the longest a task goes without committing its transaction; a write someone
 *                       waits for is committed right after its round of processing regardless
 * @param overrides further Kafka Streams / client settings, applied last
 * @param housekeeping the tasks' background work between commands (TTL expiry, sweeps, index builds)
 * @param storeMemory the memory all RocksDB stores of the instance share
 * @param lagRefresh how often the lags of this instance's store replicas are measured (a request to the brokers)
 */
public record StreamProcessorConfig(String bootstrapServers, String topicPrefix, int partitions, short replicationFactor,
                                    Path stateDir, String instanceId, String applicationServer, int streamThreads, int standbyReplicas,
                                    Duration commitInterval, Map<String, Object> overrides, Clock clock,
                                    Housekeeping housekeeping, StoreMemory storeMemory, Duration lagRefresh) {
    /** 250 ms: a standby's lag is at most this old when a read asks whether the standby may serve. */
    public static final Duration DEFAULT_LAG_REFRESH = Duration.ofMillis(250);

    public StreamProcessorConfig {
        Objects.requireNonNull(bootstrapServers, "bootstrapServers");
        Objects.requireNonNull(topicPrefix, "topicPrefix");
        Objects.requireNonNull(stateDir, "stateDir");
        Objects.requireNonNull(instanceId, "instanceId");
        Objects.requireNonNull(commitInterval, "commitInterval");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(housekeeping, "housekeeping");
        Objects.requireNonNull(storeMemory, "storeMemory");
        if (Objects.requireNonNull(lagRefresh, "lagRefresh").toMillis() < 1) {
            throw new IllegalArgumentException("the lag refresh interval must be at least 1 ms: " + lagRefresh);
        }
        overrides = Map.copyOf(overrides);
    }

    /** With the default housekeeping, store memory and lag refresh. */
    public StreamProcessorConfig(String bootstrapServers, String topicPrefix, int partitions, short replicationFactor,
                                 Path stateDir, String instanceId, String applicationServer, int streamThreads,
                                 int standbyReplicas, Duration commitInterval, Map<String, Object> overrides, Clock clock) {
        this(bootstrapServers, topicPrefix, partitions, replicationFactor, stateDir, instanceId, applicationServer,
                streamThreads, standbyReplicas, commitInterval, overrides, clock, Housekeeping.DEFAULTS,
                StoreMemory.DEFAULT, DEFAULT_LAG_REFRESH);
    }

    public StreamProcessorConfig withApplicationServer(String hostPort) {
        return new StreamProcessorConfig(bootstrapServers, topicPrefix, partitions, replicationFactor, stateDir, instanceId,
                hostPort, streamThreads, standbyReplicas, commitInterval, overrides, clock, housekeeping, storeMemory, lagRefresh);
    }

    public StreamProcessorConfig withPartitions(int count) {
        return new StreamProcessorConfig(bootstrapServers, topicPrefix, count, replicationFactor, stateDir, instanceId,
                applicationServer, streamThreads, standbyReplicas, commitInterval, overrides, clock, housekeeping, storeMemory,
                lagRefresh);
    }

    public StreamProcessorConfig withOverrides(Map<String, Object> more) {
        Map<String, Object> all = new java.util.HashMap<>(overrides);
        all.putAll(more);
        return new StreamProcessorConfig(bootstrapServers, topicPrefix, partitions, replicationFactor, stateDir,
                instanceId, applicationServer, streamThreads, standbyReplicas, commitInterval, all, clock, housekeeping,
                storeMemory, lagRefresh);
    }

    public StreamProcessorConfig withHousekeeping(Housekeeping value) {
        return new StreamProcessorConfig(bootstrapServers, topicPrefix, partitions, replicationFactor, stateDir,
                instanceId, applicationServer, streamThreads, standbyReplicas, commitInterval, overrides, clock, value,
                storeMemory, lagRefresh);
    }
}
