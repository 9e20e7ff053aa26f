package io.tablestream.processor.internal;

import io.tablestream.processor.ProcessorSettings;
import io.tablestream.processor.Topics;
import io.tablestream.processor.internal.state.CommittedStoreSupplier;
import io.tablestream.processor.internal.state.KeyPresence;
import io.tablestream.processor.store.StoreNames;
import io.tablestream.core.command.CommandKey;
import io.tablestream.schemas.LogPartitioner;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/** The named steps of the topology and their stores. */
public final class ProcessorNodes {
    static final String COMMANDS_SOURCE = "commands-source";
    static final String APPLY = "apply-commands";
    static final String REGISTRY_SOURCE = "registry-source";
    static final String REGISTRY_APPLY = "registry-apply";

    private ProcessorNodes() {
    }

    public static Topology build(ProcessorSettings settings) {
        Topics topics = settings.topics();
        ByteArraySerializer bytes = new ByteArraySerializer();
        Topology topology = new Topology();
        // Raw bytes in: a record that does not decode reaches the processor, which dead-letters it.
        topology.addSource(COMMANDS_SOURCE, new ByteArrayDeserializer(), new ByteArrayDeserializer(),
                topics.commands().name());
        topology.addProcessor(APPLY, () -> new CommandProcessor(settings), COMMANDS_SOURCE);
        topology.addStateStore(entities(StoreNames.ENTITIES), APPLY);
        topology.addStateStore(entities(StoreNames.EXPIRY), APPLY);
        topology.addStateStore(entities(StoreNames.HISTORY), APPLY);
        topology.addStateStore(entities(StoreNames.INDEXES), APPLY);
        topology.addStateStore(strings(StoreNames.INDEX_BUILDS), APPLY);
        topology.addStateStore(strings(StoreNames.TRANSACTIONS), APPLY);
        topology.addStateStore(strings(StoreNames.JOBS), APPLY);
        topology.addStateStore(strings(StoreNames.TASK_META), APPLY);
        topology.addStateStore(strings(StoreNames.TABLE_NAMES), APPLY);
        topology.addStateStore(strings(StoreNames.ACCOUNTS), APPLY);
        topology.addStateStore(uncached(StoreNames.PARTITION_TABLES, settings.partitionDeletions()), APPLY);
        topology.addSink(Sinks.OUTCOMES, topics.outcomes().name(), bytes, bytes, APPLY);
        topology.addSink(Sinks.CHANGES, topics.changes().name(), bytes, bytes, ProcessorNodes::changePartition, APPLY);
        topology.addSink(Sinks.TABLES, topics.tables().name(), bytes, bytes, APPLY);
        topology.addSink(Sinks.DEAD_LETTERS, topics.deadLetters().name(), bytes, bytes, APPLY);
        // The task's notices to the command log, its own input: read back in order with the commands.
        topology.addSink(Sinks.ANNOUNCEMENTS, topics.commands().name(), bytes, bytes, ProcessorNodes::everyPartition, APPLY);
        topology.addSink(Sinks.MARKERS, topics.commands().name(), bytes, bytes, ProcessorNodes::partitionInKey, APPLY);
        topology.addSink(Sinks.TRANSACTIONS, topics.commands().name(), bytes, bytes, ProcessorNodes::partitionOfKey, APPLY);
        topology.addGlobalStore(
                Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(StoreNames.REGISTRY), Serdes.String(),
                        Serdes.ByteArray()).withLoggingDisabled(),
                REGISTRY_SOURCE, new StringDeserializer(), new ByteArrayDeserializer(), topics.tables().name(),
                REGISTRY_APPLY, () -> new RegistryProcessor(settings.registryEvents()));
        return topology;
    }

    /** A table announcement goes to every partition. */
    private static Optional<Set<Integer>> everyPartition(String topic, byte[] key, byte[] value, int partitions) {
        return Optional.of(IntStream.range(0, partitions).boxed().collect(Collectors.toSet()));
    }

    /** A command the processor writes goes where the log's one partition function puts its key. */
    private static Optional<Set<Integer>> partitionOfKey(String topic, byte[] key, byte[] value, int partitions) {
        return Optional.of(Set.of(LogPartitioner.partitionOf(new String(key, StandardCharsets.UTF_8), partitions)));
    }

    /**
     * A change goes where the log's partition function puts its key (beside its command's
     * partition); a table's {@code TABLE_DELETED} change to the partition its key names (the task's own).
     */
    private static Optional<Set<Integer>> changePartition(String topic, byte[] key, byte[] value, int partitions) {
        String k = new String(key, StandardCharsets.UTF_8);
        int named = CommandKey.tableDeletedEventPartition(k);
        return Optional.of(Set.of(named >= 0 ? named % partitions : LogPartitioner.partitionOf(k, partitions)));
    }

    /** A catch-up marker goes to the partition its key names. */
    private static Optional<Set<Integer>> partitionInKey(String topic, byte[] key, byte[] value, int partitions) {
        return Optional.of(Set.of(Integer.parseInt(new String(key, StandardCharsets.UTF_8))));
    }

    /**
     * Entity rows and the expiry index: no record cache. Rows are mostly written once per commit
     * interval, so the cache would only add a sorted-map insert per write and a flush per commit;
     * RocksDB's own block cache serves the reads.
     */
    private static StoreBuilder<KeyValueStore<org.apache.kafka.common.utils.Bytes, byte[]>> entities(String name) {
        return Stores.keyValueStoreBuilder(new CommittedStoreSupplier(name), Serdes.Bytes(), Serdes.ByteArray())
                .withLoggingEnabled(Map.of(TopicConfig.MAX_MESSAGE_BYTES_CONFIG,
                        Integer.toString(Topics.MAX_ENTITY_RECORD_BYTES)))
                .withCachingDisabled();
    }

    /**
     * Tables and partition deletions as a partition knows them: written rarely (an announcement, a
     * deletion), read on every read of an entity. No record cache, so that {@code presence} learns of
     * each key under its prefix before readers can see it.
     */
    private static StoreBuilder<KeyValueStore<String, byte[]>> uncached(String name, KeyPresence presence) {
        return Stores.keyValueStoreBuilder(new CommittedStoreSupplier(name, presence), Serdes.String(),
                        Serdes.ByteArray())
                .withLoggingEnabled(Map.of())
                .withCachingDisabled();
    }

    /** Small per-task bookkeeping written on every command: the cache folds those writes into one per commit. */
    private static StoreBuilder<KeyValueStore<String, byte[]>> strings(String name) {
        return Stores.keyValueStoreBuilder(new CommittedStoreSupplier(name), Serdes.String(), Serdes.ByteArray())
                .withLoggingEnabled(Map.of())
                .withCachingEnabled();
    }
}
