package io.tablestream.kafka.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

class EmbeddedKafkaBrokerIT {
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafkaBrokerIT.class);
    private static final Duration POLL_LIMIT = Duration.ofSeconds(20);

    @TempDir
    Path dataDirectory;

    @Test
    void deliversOnlyCommittedTransactionsToReadCommittedConsumers() throws Exception {
        try (EmbeddedKafkaBroker broker = timedStart(EmbeddedKafkaBroker.builder(dataDirectory))) {
            createTopic(broker, "commands", 3);

            try (KafkaProducer<String, String> producer = transactionalProducer(broker, "round-trip")) {
                producer.initTransactions();
                producer.beginTransaction();
                producer.send(new ProducerRecord<>("commands", "a", "committed-1"));
                producer.send(new ProducerRecord<>("commands", "b", "committed-2"));
                producer.commitTransaction();

                producer.beginTransaction();
                producer.send(new ProducerRecord<>("commands", "c", "aborted"));
                producer.flush();
                producer.abortTransaction();

                producer.beginTransaction();
                producer.send(new ProducerRecord<>("commands", "d", "committed-3"));
                producer.commitTransaction();
            }

            assertThat(readAll(broker, "commands", 3))
                    .containsExactlyInAnyOrder("committed-1", "committed-2", "committed-3");
        }
    }

    @Test
    void comesBackOnTheAddressOfItsFirstStartWithTopicsRecordsAndClusterId() throws Exception {
        String clusterId;
        String address;
        try (EmbeddedKafkaBroker broker = timedStart(EmbeddedKafkaBroker.builder(dataDirectory))) {
            clusterId = broker.clusterId();
            address = broker.bootstrapServers();
            createTopic(broker, "events", 2);
            try (KafkaProducer<String, String> producer = transactionalProducer(broker, "before-restart")) {
                producer.initTransactions();
                producer.beginTransaction();
                producer.send(new ProducerRecord<>("events", "k1", "v1"));
                producer.send(new ProducerRecord<>("events", "k2", "v2"));
                producer.commitTransaction();
            }
        }

        try (EmbeddedKafkaBroker broker = timedStart(EmbeddedKafkaBroker.builder(dataDirectory))) {
            assertThat(broker.bootstrapServers()).isEqualTo(address);
            assertThat(broker.clusterId()).isEqualTo(clusterId);
            try (Admin admin = admin(broker)) {
                assertThat(admin.listTopics().names().get()).contains("events");
                assertThat(admin.describeCluster().clusterId().get()).isEqualTo(clusterId);
            }
            assertThat(readAll(broker, "events", 2)).containsExactlyInAnyOrder("v1", "v2");
            try (KafkaProducer<String, String> producer = transactionalProducer(broker, "before-restart")) {
                producer.initTransactions();
                producer.beginTransaction();
                producer.send(new ProducerRecord<>("events", "k3", "v3"));
                producer.commitTransaction();
            }
            assertThat(readAll(broker, "events", 3)).containsExactlyInAnyOrder("v1", "v2", "v3");
        }
    }

    @Test
    void movesToOtherPortsOnlyWhenToldToAndKeepsThemFromThenOn() throws Exception {
        String first;
        try (EmbeddedKafkaBroker broker = timedStart(EmbeddedKafkaBroker.builder(dataDirectory))) {
            first = broker.bootstrapServers();
            createTopic(broker, "events", 1);
        }
        int brokerPort = FreePorts.pick("127.0.0.1");
        int controllerPort = FreePorts.pick("127.0.0.1", brokerPort);
        try (EmbeddedKafkaBroker moved = timedStart(EmbeddedKafkaBroker.builder(dataDirectory)
                .brokerPort(brokerPort).controllerPort(controllerPort));
             Admin admin = admin(moved)) {
            assertThat(moved.bootstrapServers()).isEqualTo("127.0.0.1:" + brokerPort).isNotEqualTo(first);
            assertThat(admin.listTopics().names().get()).contains("events");
        }
        try (EmbeddedKafkaBroker again = timedStart(EmbeddedKafkaBroker.builder(dataDirectory))) {
            assertThat(again.bootstrapServers()).isEqualTo("127.0.0.1:" + brokerPort);
        }
    }

    @Test
    void refusesToMoveWhenItsKeptPortIsTaken() throws Exception {
        String address;
        try (EmbeddedKafkaBroker broker = timedStart(EmbeddedKafkaBroker.builder(dataDirectory))) {
            address = broker.bootstrapServers();
        }
        try (ServerSocket taken = occupy(address)) {
            assertThatThrownBy(() -> EmbeddedKafkaBroker.builder(dataDirectory).start())
                    .isInstanceOf(EmbeddedKafkaException.class)
                    .hasMessageContaining(address)
                    .hasMessageContaining(io.tablestream.localfiles.EmbeddedBrokerAddress.FILE_NAME);
        }
        try (EmbeddedKafkaBroker broker = timedStart(EmbeddedKafkaBroker.builder(dataDirectory))) {
            assertThat(broker.bootstrapServers()).isEqualTo(address);
        }
    }

    @Test
    void closeIsIdempotentAndFreesThePortsForARestartOnTheSamePorts() throws Exception {
        int brokerPort = FreePorts.pick("127.0.0.1");
        int controllerPort = FreePorts.pick("127.0.0.1", brokerPort);
        EmbeddedKafkaBroker.Builder onFixedPorts = EmbeddedKafkaBroker.builder(dataDirectory)
                .brokerPort(brokerPort)
                .controllerPort(controllerPort);
        EmbeddedKafkaBroker broker = timedStart(onFixedPorts);
        assertThat(broker.bootstrapServers()).isEqualTo("127.0.0.1:" + brokerPort);
        createTopic(broker, "kept", 1);

        timedClose(broker);
        broker.close();

        try (ServerSocket client = occupy("127.0.0.1:" + brokerPort);
             ServerSocket controller = occupy("127.0.0.1:" + controllerPort)) {
            assertThat(client.isBound()).isTrue();
            assertThat(controller.isBound()).isTrue();
        }
        try (EmbeddedKafkaBroker restarted = timedStart(onFixedPorts);
             Admin admin = admin(restarted)) {
            assertThat(restarted.bootstrapServers()).isEqualTo("127.0.0.1:" + brokerPort);
            assertThat(admin.listTopics().names().get()).contains("kept");
        }
    }

    @Test
    void reportsATakenPortAndLeavesTheDirectoryUsable() throws Exception {
        int takenPort;
        try (ServerSocket taken = occupy("127.0.0.1:0")) {
            takenPort = taken.getLocalPort();
            assertThatThrownBy(() -> EmbeddedKafkaBroker.builder(dataDirectory).brokerPort(takenPort).start())
                    .isInstanceOf(EmbeddedKafkaException.class)
                    .hasMessageContaining("127.0.0.1:" + takenPort)
                    .hasMessageContaining(dataDirectory.toString());
        }
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder(dataDirectory).start()) {
            assertThat(broker.bootstrapServers()).isNotBlank();
        }
    }

    @Test
    void createsNoTopicImplicitly() throws Exception {
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder(dataDirectory).start();
             KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                     ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                     ProducerConfig.MAX_BLOCK_MS_CONFIG, 1_000),
                     new StringSerializer(), new StringSerializer())) {
            assertThatThrownBy(() -> producer.send(new ProducerRecord<>("nobody-created-me", "v")).get())
                    .isInstanceOf(ExecutionException.class)
                    .hasRootCauseInstanceOf(UnknownTopicOrPartitionException.class);
            try (Admin admin = admin(broker)) {
                assertThatThrownBy(() -> admin.describeTopics(Set.of("nobody-created-me")).allTopicNames().get())
                        .isInstanceOf(ExecutionException.class)
                        .hasCauseInstanceOf(UnknownTopicOrPartitionException.class);
            }
        }
    }

    @Test
    void refusesASecondBrokerOnADirectoryInUse() {
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder(dataDirectory).start()) {
            assertThatThrownBy(() -> EmbeddedKafkaBroker.builder(dataDirectory)
                    .startupTimeout(Duration.ofSeconds(10)).start())
                    .isInstanceOf(EmbeddedKafkaException.class)
                    .hasMessageContaining(dataDirectory.toString())
                    .hasMessageContaining("in use");
            assertThat(broker.bootstrapServers()).isNotBlank();
        }
    }

    private static EmbeddedKafkaBroker timedStart(EmbeddedKafkaBroker.Builder builder) {
        long begin = System.nanoTime();
        EmbeddedKafkaBroker broker = builder.start();
        LOG.info("TIMING start-to-ready {} ms", Duration.ofNanos(System.nanoTime() - begin).toMillis());
        return broker;
    }

    private static void timedClose(EmbeddedKafkaBroker broker) {
        long begin = System.nanoTime();
        broker.close();
        LOG.info("TIMING close {} ms", Duration.ofNanos(System.nanoTime() - begin).toMillis());
    }

    private static ServerSocket occupy(String hostAndPort) throws IOException {
        int colon = hostAndPort.lastIndexOf(':');
        ServerSocket socket = new ServerSocket();
        socket.bind(new InetSocketAddress(InetAddress.getByName(hostAndPort.substring(0, colon)),
                Integer.parseInt(hostAndPort.substring(colon + 1))));
        return socket;
    }

    private static Admin admin(EmbeddedKafkaBroker broker) {
        return Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()));
    }

    private static void createTopic(EmbeddedKafkaBroker broker, String name, int partitions) throws Exception {
        try (Admin admin = admin(broker)) {
            admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1))).all().get();
        }
    }

    private static KafkaProducer<String, String> transactionalProducer(EmbeddedKafkaBroker broker, String id) {
        return new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                ProducerConfig.TRANSACTIONAL_ID_CONFIG, id,
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                ProducerConfig.ACKS_CONFIG, "all"),
                new StringSerializer(), new StringSerializer());
    }

    /** Reads a topic from the beginning, read_committed, until {@code expected} records or a time limit. */
    private static List<String> readAll(EmbeddedKafkaBroker broker, String topic, int expected) {
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, "reader-" + UUID.randomUUID(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
                new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + POLL_LIMIT.toNanos();
            while (values.size() < expected && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    values.add(record.value());
                }
            }
            // One more poll: anything beyond the expected records (an aborted one) would show up here.
            consumer.poll(Duration.ofMillis(300)).forEach(record -> values.add(record.value()));
        }
        return values;
    }
}
