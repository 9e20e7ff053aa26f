package io.tablestream.server.writes;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablestream.core.command.CommandHeader;
import io.tablestream.core.command.EntityCommand;
import io.tablestream.core.command.EntityOperation;
import io.tablestream.core.command.Outcome;
import io.tablestream.core.command.TableCommand;
import io.tablestream.core.model.EdmInt32;
import io.tablestream.core.model.TableName;
import io.tablestream.ingest.kafka.KafkaCommandLog;
import io.tablestream.processor.ApplyObserver;
import io.tablestream.processor.StreamProcessor;
import io.tablestream.processor.StreamProcessorConfig;
import io.tablestream.processor.Topics;
import io.tablestream.processor.WriteAnswers;
import io.tablestream.testsupport.KafkaCluster;
import io.tablestream.testsupport.KafkaTest;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A write is answered when it is decided, not when its transaction commits: with a commit interval
 * of a minute, a waiter on another instance (no in-process hand-over: the outcome is read
 * uncommitted from the outcomes topic) and one in the deciding process (handed over) both get their
 * answer at once, while a table change — whose answer needs the commit — still commits right away.
 */
@KafkaTest
class OutcomesBeforeCommitIT {
    private static final Duration A_MINUTE = Duration.ofMinutes(1);

    private static StreamProcessorConfig config(KafkaCluster kafka, String prefix, Path dir) {
        return new StreamProcessorConfig(kafka.bootstrapServers(), prefix, 2, (short) 1, dir, "node-1", null, 1, 0, A_MINUTE,
                Map.of(StreamsConfig.producerPrefix(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG), 180_000),
                Clock.systemUTC());
    }

    private static CommandHeader header(KafkaCommandLog log) {
        return new CommandHeader(UUID.randomUUID().toString(), "acct", System.currentTimeMillis(), log.instanceId(), null);
    }

    @Test
    void answersAWriteOnAnotherInstanceBeforeItsTransactionCommits(KafkaCluster kafka, @TempDir Path dir) throws Exception {
        String prefix = kafka.uniqueName("early");
        try (StreamProcessor processor = StreamProcessor.start(config(kafka, prefix, dir), Duration.ofMinutes(2),
                ApplyObserver.NONE, WriteAnswers.atDecision(WriteAnswers.Handoff.NONE));
             KafkaCommandLog remote = KafkaCommandLog.open(kafka.bootstrapServers(), processor.topics().commands().name(),
                     processor.topics().outcomes().name(), "remote-" + UUID.randomUUID(), Topics.MAX_COMMAND_BYTES,
                     Map.of(), true, null)) {
            long tableId = remote.appendAndAwait(TableCommand.create(header(remote), TableName.of("Orders"), null),
                    Duration.ofSeconds(30)).get(40, TimeUnit.SECONDS).table().tableId();
            visible(processor);

            long begin = System.nanoTime();
            Outcome inserted = remote.appendAndAwait(EntityCommand.single(header(remote), tableId, TableName.of("Orders"),
                    "p", EntityOperation.of(EntityOperation.Type.INSERT, "r", null, Map.of("N", EdmInt32.of(1)))),
                    Duration.ofSeconds(20)).get(30, TimeUnit.SECONDS);
            long millis = (System.nanoTime() - begin) / 1_000_000;

            assertThat(inserted.succeeded()).isTrue();
            assertThat(millis).as("answered before the minute-long commit interval ends").isLessThan(20_000);
            assertThat(committedChanges(kafka, processor.topics())).as("changes committed when the answer came").isZero();
        }
    }

    /**
     * As the API does before answering a Create Table: waits until the registry view shows the
     * table (its creation committed, so every partition has its announcement before any write).
     */
    private static void visible(StreamProcessor processor) throws Exception {
        processor.registry().awaitChange(() -> processor.registry().byName("acct", TableName.of("Orders")).isPresent())
                .get(30, TimeUnit.SECONDS);
    }

    /** How many change events a read-committed consumer sees now. */
    private static int committedChanges(KafkaCluster kafka, Topics topics) {
        Map<String, Object> c = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(c, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            var partitions = consumer.partitionsFor(topics.changes().name()).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            return (int) consumer.endOffsets(partitions).values().stream().mapToLong(Long::longValue).sum();
        }
    }

    @Test
    void handsTheAnswerOverInProcessBeforeItsTransactionCommits(KafkaCluster kafka, @TempDir Path dir) throws Exception {
        String prefix = kafka.uniqueName("handoff");
        java.util.concurrent.atomic.AtomicReference<KafkaCommandLog> local = new java.util.concurrent.atomic.AtomicReference<>();
        java.util.List<String> handedOver = new java.util.concurrent.CopyOnWriteArrayList<>();
        WriteAnswers answers = WriteAnswers.atDecision(outcome -> {
            handedOver.add(Thread.currentThread().getName());
            return local.get().handOff(outcome);
        });
        try (StreamProcessor processor = StreamProcessor.start(config(kafka, prefix, dir), Duration.ofMinutes(2),
                ApplyObserver.NONE, answers);
             KafkaCommandLog log = KafkaCommandLog.open(kafka.bootstrapServers(), processor.topics().commands().name(),
                     processor.topics().outcomes().name(), "local-" + UUID.randomUUID(), Topics.MAX_COMMAND_BYTES,
                     // read committed: only the hand-over can answer before the commit
                     Map.of(), false, null)) {
            local.set(log);
            long tableId = log.appendAndAwait(TableCommand.create(header(log), TableName.of("Orders"), null),
                    Duration.ofSeconds(30)).get(40, TimeUnit.SECONDS).table().tableId();
            visible(processor);

            Outcome inserted = log.appendAndAwait(EntityCommand.single(header(log), tableId, TableName.of("Orders"),
                    "p", EntityOperation.of(EntityOperation.Type.INSERT, "r", null, Map.of())), Duration.ofSeconds(20))
                    .get(30, TimeUnit.SECONDS);
            String answeredOn = Thread.currentThread().getName();

            assertThat(inserted.succeeded()).isTrue();
            assertThat(committedChanges(kafka, processor.topics())).as("changes committed when the answer came").isZero();
            assertThat(handedOver).allSatisfy(t -> assertThat(t).contains("StreamThread"));
            assertThat(answeredOn).doesNotContain("StreamThread");
        }
    }
}
