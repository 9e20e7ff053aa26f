package io.tablestream.server;

import io.tablestream.core.command.ChangeEvent;
import io.tablestream.core.command.EntityChange;
import io.tablestream.core.model.ETag;
import io.tablestream.schemas.LogCodecs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The change feed as a Kafka consumer reads it: every committed record of the changes topic
 * ({@code read_committed}, from the beginning to the end it has now), those of one table, decoded.
 */
public final class ChangeFeedRecords {
    /** One entity's change: its keys, what happened, and the ETag of the version it wrote. */
    public record Change(String partitionKey, String rowKey, EntityChange.Type type, String etag) {
        /** {@code PartitionKey/RowKey}. */
        public String key() {
            return partitionKey + "/" + rowKey;
        }
    }

    private ChangeFeedRecords() {
    }

    /** The entity changes of table {@code table} on {@code topic} at {@code bootstrapServers}, in the feed's order per partition. */
    public static List<Change> read(String bootstrapServers, String topic, String table, Duration timeout) {
        Map<String, Object> config = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        List<Change> changes = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            long deadline = System.nanoTime() + timeout.toNanos();
            while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("The change feed was not read to its end within " + timeout);
                }
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    ChangeEvent event = LogCodecs.CHANGE_EVENT.decode(r.value());
                    if (event.tableName().value().equals(table)) {
                        EntityChange c = event.change();
                        changes.add(new Change(c.partitionKey(), c.rowKey(), c.type(),
                                ETag.forTimestamp(event.changedAt()).value()));
                    }
                }
            }
        }
        return changes;
    }
}
