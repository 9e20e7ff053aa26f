package io.tablestream.processor;

import java.util.Map;
import java.util.Objects;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.Serde;

/**
 * A topic, declared once: its name, how its keys and values are (de)serialized, its partition
 * count (null: the cluster-wide setting Tablestream is configured with) and its topic configs.
 */
public record TopicDescriptor<K, V>(String name, Serde<K> keySerde, Serde<V> valueSerde, Integer partitions,
                                    Map<String, String> config) {
    public TopicDescriptor {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(keySerde, "keySerde");
        Objects.requireNonNull(valueSerde, "valueSerde");
        config = Map.copyOf(config);
    }

    /**
     * The topic as it should be created, with {@code defaultPartitions} unless it fixes its own, and
     * replicated as {@code replication} says (its own configs may still name a {@code min.insync.replicas}).
     */
    public NewTopic newTopic(int defaultPartitions, TopicReplication replication) {
        Map<String, String> configs = new java.util.HashMap<>(config);
        configs.putIfAbsent(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, Integer.toString(replication.minInSync()));
        return new NewTopic(name, partitions == null ? defaultPartitions : partitions, replication.factor())
                .configs(configs);
    }
}
