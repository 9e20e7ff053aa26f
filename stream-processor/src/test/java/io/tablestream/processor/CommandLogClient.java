package io.tablestream.processor;

import io.tablestream.core.command.ChangeEvent;
import io.tablestream.core.command.Command;
import io.tablestream.core.command.CommandKey;
import io.tablestream.core.command.Outcome;
import io.tablestream.schemas.LogCodecs;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** Test client of the command log on a real broker: produce commands, read outcomes and changes (read_committed). */
final class CommandLogClient implements AutoCloseable {
    private final Topics topics;
    private final KafkaProducer<String, byte[]> producer;
    private final KafkaConsumer<String, byte[]> outcomes;
    private final Map<String, Outcome> seen = new HashMap<>();

    CommandLogClient(String bootstrapServers, Topics topics) {
        this.topics = topics;
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        producer = new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
        outcomes = consumer(bootstrapServers);
        List<TopicPartition> parts = partitions(outcomes, topics.outcomes().name());
        outcomes.assign(parts);
        outcomes.seekToBeginning(parts);
    }

    static KafkaConsumer<String, byte[]> consumer(String bootstrapServers) {
        Properties c = new Properties();
        c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        c.put(ConsumerConfig.GROUP_ID_CONFIG, "test-" + UUID.randomUUID());
        return new KafkaConsumer<>(c, new StringDeserializer(), new ByteArrayDeserializer());
    }

    static List<TopicPartition> partitions(KafkaConsumer<?, ?> consumer, String topic) {
        List<TopicPartition> parts = new ArrayList<>();
        consumer.partitionsFor(topic).forEach(p -> parts.add(new TopicPartition(topic, p.partition())));
        return parts;
    }

    void produce(Command command) {
        try {
            producer.send(new ProducerRecord<>(topics.commands().name(), CommandKey.of(command).value(),
                    LogCodecs.COMMAND.encode(command))).get(30, TimeUnit.SECONDS);
        } catch (InterruptedException | ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new AssertionError("could not produce " + command, e);
        }
    }

    Outcome send(Command command) {
        produce(command);
        return awaitOutcome(command.id(), Duration.ofSeconds(60));
    }

    Outcome awaitOutcome(String commandId, Duration timeout) {
        Instant deadline = Instant.now().plus(timeout);
        while (!seen.containsKey(commandId)) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("no outcome for command " + commandId + " within " + timeout);
            }
            for (ConsumerRecord<String, byte[]> r : outcomes.poll(Duration.ofMillis(100))) {
                Outcome o = LogCodecs.OUTCOME.decode(r.value());
                if (seen.put(o.commandId(), o) != null) {
                    throw new AssertionError("two outcomes for command " + o.commandId());
                }
            }
        }
        return seen.get(commandId);
    }

    /** Every committed outcome (reads on for {@code settle} to catch duplicates). */
    Map<String, Outcome> allOutcomes(Duration settle) {
        Instant until = Instant.now().plus(settle);
        while (Instant.now().isBefore(until)) {
            for (ConsumerRecord<String, byte[]> r : outcomes.poll(Duration.ofMillis(100))) {
                Outcome o = LogCodecs.OUTCOME.decode(r.value());
                if (seen.put(o.commandId(), o) != null) {
                    throw new AssertionError("two outcomes for command " + o.commandId());
                }
            }
        }
        return Map.copyOf(seen);
    }

    /** Every committed change event on the changes topic. */
    List<ChangeEvent> allChanges(String bootstrapServers, Duration settle) {
        try (KafkaConsumer<String, byte[]> c = consumer(bootstrapServers)) {
            List<TopicPartition> parts = partitions(c, topics.changes().name());
            c.assign(parts);
            c.seekToBeginning(parts);
            List<ChangeEvent> events = new ArrayList<>();
            Instant until = Instant.now().plus(settle);
            while (Instant.now().isBefore(until)) {
                for (ConsumerRecord<String, byte[]> r : c.poll(Duration.ofMillis(100))) {
                    events.add(LogCodecs.CHANGE_EVENT.decode(r.value()));
                }
            }
            return events;
        }
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(5));
        outcomes.close(Duration.ofSeconds(5));
    }
}
