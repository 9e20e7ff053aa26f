package io.tablestream.ingest.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablestream.core.command.CommandHeader;
import io.tablestream.core.command.CommandKey;
import io.tablestream.core.command.EntityCommand;
import io.tablestream.core.command.EntityOperation;
import io.tablestream.core.command.Outcome;
import io.tablestream.core.command.SessionToken;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.TableName;
import io.tablestream.schemas.LogCodecs;
import io.tablestream.schemas.LogPartitioner;
import io.tablestream.testsupport.KafkaCluster;
import io.tablestream.testsupport.KafkaTest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;

/**
 * The command log on a real broker with no processor behind it: where each command lands, how an
 * outcome handed over in-process reaches its request (this instance's or another's), and what a sync write whose outcome does not
 * arrive is told (each 503 says whether the write may still be applied).
 */
@KafkaTest
class KafkaCommandLogIT {

    @Test
    void aWriteOnTheLogWithoutAnOutcomeMayStillBeApplied(KafkaCluster kafka) throws Exception {
        String commands = createTopic(kafka, "commands");
        String outcomes = createTopic(kafka, "outcomes");
        try (KafkaCommandLog log = KafkaCommandLog.open(kafka.bootstrapServers(), commands, outcomes,
                "node-" + UUID.randomUUID(), 1024 * 1024, Map.of())) {

            assertThatThrownBy(() -> log.appendAndAwait(insert(log.instanceId()), Duration.ofMillis(500)).join())
                    .isInstanceOf(CompletionException.class).cause()
                    .isInstanceOfSatisfying(TableServiceException.class, e -> {
                        assertThat(e.errorCode()).isEqualTo(ErrorCode.SERVER_BUSY);
                        assertThat(e.getMessage()).contains("is on the command log (x-ms-session-token 0:0)",
                                "may still be applied", "409 EntityAlreadyExists").doesNotContain("accepted");
                    });
        }
    }

    @Test
    void aWriteTheLogNeverTookWasNotApplied(KafkaCluster kafka) throws Exception {
        String outcomes = createTopic(kafka, "outcomes");
        String missing = kafka.uniqueName("no-such-commands-topic");
        try (KafkaCommandLog log = KafkaCommandLog.open(kafka.bootstrapServers(), missing, outcomes,
                "node-" + UUID.randomUUID(), 1024 * 1024, Map.of(ProducerConfig.MAX_BLOCK_MS_CONFIG, 300))) {

            assertThatThrownBy(() -> log.appendAndAwait(insert(log.instanceId()), Duration.ofSeconds(30)).join())
                    .isInstanceOf(CompletionException.class).cause()
                    .isInstanceOfSatisfying(TableServiceException.class, e -> {
                        assertThat(e.errorCode()).isEqualTo(ErrorCode.SERVER_BUSY);
                        assertThat(e.getMessage()).contains("was not applied").doesNotContain("may still");
                    });
        }
    }

    @Test
    void eachCommandGoesToThePartitionItsKeyNamesInTheOrderAppended(KafkaCluster kafka) throws Exception {
        String commands = createTopic(kafka, "commands", 4);
        String outcomes = createTopic(kafka, "outcomes");
        try (KafkaCommandLog log = KafkaCommandLog.open(kafka.bootstrapServers(), commands, outcomes,
                "node-" + UUID.randomUUID(), 1024 * 1024, Map.of());
             KafkaConsumer<String, byte[]> reader = new KafkaConsumer<>(Map.of(
                     ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()),
                     new StringDeserializer(), new ByteArrayDeserializer())) {
            List<EntityCommand> sent = new ArrayList<>();
            List<SessionToken.Position> positions = new ArrayList<>();
            for (String partitionKey : List.of("p", "q", "p", "r", "p")) {
                EntityCommand command = insert(null, partitionKey);
                sent.add(command);
                positions.add(log.append(command).get(30, TimeUnit.SECONDS));
            }

            for (int i = 0; i < sent.size(); i++) {
                CommandKey key = CommandKey.of(sent.get(i));
                assertThat(positions.get(i).partition()).isEqualTo(LogPartitioner.partitionOf(key, 4));
                TopicPartition partition = new TopicPartition(commands, positions.get(i).partition());
                reader.assign(List.of(partition));
                reader.seek(partition, positions.get(i).offset());
                ConsumerRecord<String, byte[]> record = poll(reader);
                assertThat(record.key()).isEqualTo(key.value());
                assertThat(LogCodecs.COMMAND.decode(record.value())).isEqualTo(sent.get(i));
            }
            // one PartitionKey, one partition, in the order appended
            assertThat(positions.get(2).partition()).isEqualTo(positions.get(0).partition());
            assertThat(positions.get(2).offset()).isGreaterThan(positions.get(0).offset());
            assertThat(positions.get(4).offset()).isGreaterThan(positions.get(2).offset());
        }
    }

    @Test
    void anOutcomeHandedOverInProcessCompletesTheWaitingRequestWhenItIsThisInstances(KafkaCluster kafka)
            throws Exception {
        String commands = createTopic(kafka, "commands");
        String outcomes = createTopic(kafka, "outcomes");
        try (KafkaCommandLog log = KafkaCommandLog.open(kafka.bootstrapServers(), commands, outcomes,
                "node-" + UUID.randomUUID(), 1024 * 1024, Map.of())) {
            EntityCommand command = insert(log.instanceId(), "p");
            CompletableFuture<Outcome> waiting = log.appendAndAwait(command, Duration.ofSeconds(30));

            Outcome othersCopy = new Outcome(command.header().id(), "node-other",
                    new Outcome.Failure(ErrorCode.ENTITY_ALREADY_EXISTS, "not ours", null), List.of(), null, 0, 1);
            log.handOff(othersCopy);
            Outcome ours = new Outcome(command.header().id(), log.instanceId(), null,
                    List.of(new Outcome.OperationResult(EdmDateTime.of(Instant.parse("2024-01-02T03:04:05Z")))), null,
                    0, 0);
            log.handOff(ours);

            assertThat(waiting.get(30, TimeUnit.SECONDS)).isEqualTo(ours);
        }
    }

    @Test
    void anOutcomeDecidedHereForAnotherInstancesWriteReachesItOutsideTheDecidingTransaction(KafkaCluster kafka)
            throws Exception {
        String commands = createTopic(kafka, "commands");
        String outcomes = createTopic(kafka, "outcomes", 4);
        try (KafkaCommandLog deciding = KafkaCommandLog.open(kafka.bootstrapServers(), commands, outcomes,
                "deciding-" + UUID.randomUUID(), 1024 * 1024, Map.of());
             KafkaCommandLog afterCommit = KafkaCommandLog.open(kafka.bootstrapServers(), commands, outcomes,
                     "after-commit-" + UUID.randomUUID(), 1024 * 1024, Map.of(), false, null);
             KafkaCommandLog waiting = KafkaCommandLog.open(kafka.bootstrapServers(), commands, outcomes,
                     "waiting-" + UUID.randomUUID(), 1024 * 1024, Map.of())) {
            EntityCommand command = insert(waiting.instanceId(), "p");
            CompletableFuture<Outcome> answer = waiting.appendAndAwait(command, Duration.ofSeconds(30));
            Outcome decided = new Outcome(command.header().id(), waiting.instanceId(), null,
                    List.of(new Outcome.OperationResult(EdmDateTime.of(Instant.parse("2024-01-02T03:04:05Z")))), null,
                    0, 0);

            assertThat(afterCommit.handOff(decided)).as("answered after commit: only the committed record may answer")
                    .isFalse();
            assertThat(deciding.handOff(decided)).as("the deciding task need not write it in its transaction").isTrue();
            assertThat(answer.get(30, TimeUnit.SECONDS)).isEqualTo(decided);
        }
    }

    private static ConsumerRecord<String, byte[]> poll(KafkaConsumer<String, byte[]> reader) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            for (ConsumerRecord<String, byte[]> record : reader.poll(Duration.ofMillis(200))) {
                return record;
            }
        }
        throw new AssertionError("no record within 30 s");
    }

    private static EntityCommand insert(String replyTo) {
        return insert(replyTo, "p");
    }

    private static EntityCommand insert(String replyTo, String partitionKey) {
        return EntityCommand.single(new CommandHeader(UUID.randomUUID().toString(), "devstoreaccount1",
                        System.currentTimeMillis(), replyTo, "devstoreaccount1"), 1, TableName.of("Orders"), partitionKey,
                EntityOperation.of(EntityOperation.Type.INSERT, "r", null, Map.of()));
    }

    private static String createTopic(KafkaCluster kafka, String base) throws Exception {
        return createTopic(kafka, base, 1);
    }

    private static String createTopic(KafkaCluster kafka, String base, int partitions) throws Exception {
        String name = kafka.uniqueName(base);
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1))).all().get();
        }
        return name;
    }
}
