package io.tablestream.query.feed;

import static io.tablestream.testsupport.Eventually.eventually;
import static io.tablestream.testsupport.Eventually.holdsThroughout;
import static org.assertj.core.api.Assertions.assertThat;

import io.tablestream.testsupport.KafkaCluster;
import io.tablestream.testsupport.KafkaTest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/**
 * The change feed's tail on a real broker: a long poll waits until something arrives on its partition,
 * and is not woken before, also while the other partitions of the topic were never waited on; with
 * nobody waiting, the tail's thread sleeps without polling.
 */
@KafkaTest
class ChangeFeedTailIT {

    @Test
    void aWaiterSleepsUntilItsPartitionGrows(KafkaCluster kafka) throws Exception {
        String topic = topic(kafka, 4);
        try (ChangeFeed feed = ChangeFeed.open(kafka.bootstrapServers(), topic, Map.of(), 1);
             KafkaProducer<byte[], byte[]> producer = producer(kafka)) {
            FeedCursor cursor = feed.cursorAt(1L, List.of(2), new FeedStart.Now()).get(30, TimeUnit.SECONDS);

            CompletableFuture<Void> grown = feed.grown(cursor, Duration.ofSeconds(30));
            holdsThroughout(() -> !grown.isDone(), Duration.ofMillis(1_500)); // not woken with nothing arrived

            producer.send(new ProducerRecord<>(topic, 3, new byte[] {1}, new byte[] {1})).get(30, TimeUnit.SECONDS);
            holdsThroughout(() -> !grown.isDone(), Duration.ofSeconds(1)); // not woken by another partition's record

            long sent = System.nanoTime();
            producer.send(new ProducerRecord<>(topic, 2, new byte[] {1}, new byte[] {1})).get(30, TimeUnit.SECONDS);
            grown.get(10, TimeUnit.SECONDS);
            assertThat(Duration.ofNanos(System.nanoTime() - sent)).isLessThan(Duration.ofSeconds(5));
        }
    }

    @Test
    void theTailSleepsWithoutPollingWhileNobodyWaits(KafkaCluster kafka) throws Exception {
        String topic = topic(kafka, 2);
        try (ChangeFeed feed = ChangeFeed.open(kafka.bootstrapServers(), topic, Map.of(), 1);
             KafkaProducer<byte[], byte[]> producer = producer(kafka)) {
            Thread tail = tailThread();
            // parked (no timeout), not in a poll (the consumer's selector: runnable in a native wait)
            eventually(() -> tail.getState() == Thread.State.WAITING, Duration.ofSeconds(10));
            holdsThroughout(() -> tail.getState() == Thread.State.WAITING, Duration.ofMillis(1_500));

            FeedCursor cursor = feed.cursorAt(1L, List.of(1), new FeedStart.Now()).get(30, TimeUnit.SECONDS);
            CompletableFuture<Void> grown = feed.grown(cursor, Duration.ofSeconds(30));
            producer.send(new ProducerRecord<>(topic, 1, new byte[] {1}, new byte[] {1})).get(30, TimeUnit.SECONDS);
            grown.get(10, TimeUnit.SECONDS); // a waiter wakes it, and is told

            eventually(() -> tail.getState() == Thread.State.WAITING, Duration.ofSeconds(10)); // asleep again
            holdsThroughout(() -> tail.getState() == Thread.State.WAITING, Duration.ofMillis(1_000));
        }
    }

    /** A new topic of {@code partitions} partitions. */
    private static String topic(KafkaCluster kafka, int partitions) throws Exception {
        String topic = kafka.uniqueName("changes");
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        return topic;
    }

    private static KafkaProducer<byte[], byte[]> producer(KafkaCluster kafka) {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class));
    }

    /** The tail thread of the one change feed open. */
    private static Thread tailThread() {
        List<Thread> tails = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("change-feed-tail") && t.isAlive()).toList();
        assertThat(tails).hasSize(1);
        return tails.get(0);
    }
}
