package io.tablestream.processor.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablestream.testsupport.KafkaCluster;
import io.tablestream.testsupport.KafkaTest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/**
 * {@link HangingTransactions#fenceDepartedOwners} on a real broker: the open transaction another
 * instance left on a changelog partition this instance now owns is aborted at once; this instance's
 * own transactions, and others' on partitions it does not own, are left alone.
 */
@KafkaTest
class DepartedOwnersIT {
    private static final Duration CALLS = Duration.ofSeconds(30);

    @Test
    void fencesTheTransactionAnotherInstanceLeftOpenOnAChangelogThisInstanceNowOwnsAndNoOther(KafkaCluster kafka)
            throws Exception {
        String app = kafka.uniqueName("departed") + "-processor";
        String changelog = app + "-entities-changelog";
        String shared = app + "-outcomes";
        TopicPartition gained = new TopicPartition(changelog, 0);
        TopicPartition kept = new TopicPartition(changelog, 1);
        TopicPartition outcomes = new TopicPartition(shared, 0);
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(changelog, 2, (short) 1), new NewTopic(shared, 1, (short) 1)))
                    .all().get(30, TimeUnit.SECONDS);
            try (KafkaProducer<byte[], byte[]> departed = openTransaction(kafka, app + "-gone-1", gained, outcomes);
                 KafkaProducer<byte[], byte[]> elsewhere = openTransaction(kafka, app + "-other-1", kept, outcomes);
                 KafkaProducer<byte[], byte[]> own = openTransaction(kafka, app + "-me-1", gained)) {

                Set<String> fenced = new HangingTransactions(admin, CALLS, false).fenceDepartedOwners(
                        app + "-", gained::equals, (app + "-me-1")::equals);

                assertThat(fenced).containsExactly(app + "-gone-1");
                assertThatThrownBy(departed::commitTransaction).isInstanceOf(KafkaException.class);
                elsewhere.commitTransaction();
                own.commitTransaction();
            }
            // nothing holds read_committed readers of the shared partition any more: the fenced transaction
            // was aborted there too
            long deadline = System.nanoTime() + CALLS.toNanos();
            while (stableOffset(admin, outcomes) < endOffset(admin, outcomes)) {
                assertThat(System.nanoTime()).as("the shared partition's open transactions ended").isLessThan(deadline);
                Thread.sleep(50);
            }
        }
    }

    private static KafkaProducer<byte[], byte[]> openTransaction(KafkaCluster kafka, String transactionalId,
                                                                 TopicPartition... partitions) {
        KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId,
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class));
        producer.initTransactions();
        producer.beginTransaction();
        for (TopicPartition p : partitions) {
            producer.send(new ProducerRecord<>(p.topic(), p.partition(), new byte[] {1}, new byte[] {2}));
        }
        producer.flush();
        return producer;
    }

    private static long stableOffset(Admin admin, TopicPartition p) throws Exception {
        return admin.listOffsets(Map.of(p, OffsetSpec.latest()), new ListOffsetsOptions(IsolationLevel.READ_COMMITTED))
                .partitionResult(p).get(30, TimeUnit.SECONDS).offset();
    }

    private static long endOffset(Admin admin, TopicPartition p) throws Exception {
        return admin.listOffsets(Map.of(p, OffsetSpec.latest())).partitionResult(p).get(30, TimeUnit.SECONDS).offset();
    }
}
