package io.tablestream.ingest.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablestream.core.command.CommandHeader;
import io.tablestream.core.command.EntityCommand;
import io.tablestream.core.command.EntityOperation;
import io.tablestream.core.command.Outcome;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.TableName;
import io.tablestream.schemas.LogCodecs;
import io.tablestream.testsupport.KafkaCluster;
import io.tablestream.testsupport.KafkaTest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * How outcomes find the request that waits for them, on a real broker with no processor: this test
 * writes the outcomes the processor would, keyed by the instance id, to a one-partition outcomes
 * topic that several instances share.
 */
@KafkaTest
class OutcomeRoutingIT {
    private static final Duration WAIT = Duration.ofSeconds(20);

    private KafkaCluster kafka;
    private String outcomes;
    private KafkaCommandLog log;
    private KafkaProducer<String, byte[]> processor;

    @BeforeEach
    void open(KafkaCluster kafka) throws Exception {
        this.kafka = kafka;
        String commands = createTopic("commands");
        outcomes = createTopic("outcomes");
        processor = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()),
                new StringSerializer(), new ByteArraySerializer());
        log = KafkaCommandLog.open(kafka.bootstrapServers(), commands, outcomes, "node-" + UUID.randomUUID(),
                1024 * 1024, Map.of());
    }

    @AfterEach
    void close() {
        log.close();
        processor.close();
    }

    @Test
    void anOutcomeCompletesTheRequestWaitingForItsCommand() throws Exception {
        EntityCommand command = insert();
        CompletableFuture<Outcome> waiting = log.appendAndAwait(command, WAIT);

        Outcome applied = applied(command, 0, 7);
        publish(log.instanceId(), LogCodecs.OUTCOME.encode(applied));

        assertThat(waiting.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isEqualTo(applied);
    }

    @Test
    void eachOfManyWaitingRequestsGetsItsOwnOutcomeInWhateverOrderTheyArrive() throws Exception {
        List<EntityCommand> commands = List.of(insert(), insert(), insert());
        List<CompletableFuture<Outcome>> waiting = commands.stream().map(c -> log.appendAndAwait(c, WAIT)).toList();

        for (int i = commands.size() - 1; i >= 0; i--) {
            publish(log.instanceId(), LogCodecs.OUTCOME.encode(applied(commands.get(i), 0, i)));
        }

        for (int i = 0; i < commands.size(); i++) {
            Outcome o = waiting.get(i).get(WAIT.toSeconds(), TimeUnit.SECONDS);
            assertThat(o.commandId()).isEqualTo(commands.get(i).header().id());
            assertThat(o.offset()).isEqualTo(i);
        }
    }

    @Test
    void anotherInstancesOutcomeOnTheSamePartitionIsNotTaken() throws Exception {
        EntityCommand command = insert();
        CompletableFuture<Outcome> waiting = log.appendAndAwait(command, WAIT);

        // the same command id, keyed by another instance: not ours, even if the id matches
        publish("node-other", LogCodecs.OUTCOME.encode(rejected(command)));
        publish(log.instanceId(), LogCodecs.OUTCOME.encode(applied(command, 0, 3)));

        Outcome o = waiting.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertThat(o.succeeded()).isTrue();
        assertThat(o.offset()).isEqualTo(3);
    }

    @Test
    void anUnreadableOutcomeIsSkippedAndTheNextOneStillArrives() throws Exception {
        EntityCommand command = insert();
        CompletableFuture<Outcome> waiting = log.appendAndAwait(command, WAIT);

        publish(log.instanceId(), new byte[] {1, 2, 3, 4});
        publish(log.instanceId(), LogCodecs.OUTCOME.encode(applied(command, 0, 1)));

        assertThat(waiting.get(WAIT.toSeconds(), TimeUnit.SECONDS).offset()).isEqualTo(1);
    }

    @Test
    void aRejectionReachesTheWaitingRequestAsItsOutcome() throws Exception {
        EntityCommand command = insert();
        CompletableFuture<Outcome> waiting = log.appendAndAwait(command, WAIT);

        publish(log.instanceId(), LogCodecs.OUTCOME.encode(rejected(command)));

        Outcome o = waiting.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertThat(o.succeeded()).isFalse();
        assertThat(o.failure().code()).isEqualTo(ErrorCode.ENTITY_ALREADY_EXISTS);
    }

    private void publish(String key, byte[] value) throws Exception {
        processor.send(new ProducerRecord<>(outcomes, 0, key, value)).get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }

    private EntityCommand insert() {
        return EntityCommand.single(new CommandHeader(UUID.randomUUID().toString(), "devstoreaccount1",
                        System.currentTimeMillis(), log == null ? null : log.instanceId(), "devstoreaccount1"), 1,
                TableName.of("Orders"), "p", EntityOperation.of(EntityOperation.Type.INSERT, "r", null, Map.of()));
    }

    private Outcome applied(EntityCommand command, int partition, long offset) {
        return new Outcome(command.header().id(), command.header().replyTo(), null,
                List.of(new Outcome.OperationResult(EdmDateTime.of(Instant.parse("2024-01-02T03:04:05Z")))), null,
                partition, offset);
    }

    private Outcome rejected(EntityCommand command) {
        return new Outcome(command.header().id(), command.header().replyTo(),
                new Outcome.Failure(ErrorCode.ENTITY_ALREADY_EXISTS, "The specified entity already exists.", null),
                List.of(), null, 0, 5);
    }

    private String createTopic(String base) throws Exception {
        String name = kafka.uniqueName(base);
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(name, 1, (short) 1))).all().get();
        }
        return name;
    }
}
