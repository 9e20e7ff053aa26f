package io.tablestream.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

@KafkaTest
class KafkaExtensionIT {
    private static String topic;

    private final KafkaCluster injectedIntoConstructor;

    KafkaExtensionIT(KafkaCluster cluster) {
        this.injectedIntoConstructor = cluster;
    }

    @BeforeAll
    static void createTopic(KafkaCluster cluster) throws Exception {
        topic = cluster.uniqueName("extension-it");
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", cluster.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1))).all().get();
        }
    }

    @Test
    void givesTestsABrokerThatCarriesRecords(KafkaCluster cluster) {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers()),
                new StringSerializer(), new StringSerializer())) {
            producer.send(new ProducerRecord<>(topic, "k", "hello"));
        }

        List<String> values = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, cluster.uniqueName("reader"),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
                new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (values.isEmpty() && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(record -> values.add(record.value()));
            }
        }
        assertThat(values).containsExactly("hello");
    }

    @Test
    void injectsTheSameClusterEverywhere(KafkaCluster cluster) {
        assertThat(cluster).isSameAs(injectedIntoConstructor);
    }

    @Test
    void leavesTestcontainersUnloadedUnlessAskedFor(KafkaCluster cluster) throws Exception {
        assertThat(cluster.origin()).isNotEqualTo(KafkaCluster.Origin.TESTCONTAINERS);

        Method findLoadedClass = ClassLoader.class.getDeclaredMethod("findLoadedClass", String.class);
        findLoadedClass.setAccessible(true);
        ClassLoader loader = KafkaExtension.class.getClassLoader();
        // Positive control: the lookup does see classes this test run has loaded.
        assertThat(findLoadedClass.invoke(loader, KafkaCluster.class.getName())).isNotNull();
        assertThat(findLoadedClass.invoke(loader, "io.tablestream.testsupport.TestcontainersKafka")).isNull();
        assertThat(findLoadedClass.invoke(loader, "org.testcontainers.DockerClientFactory")).isNull();
        assertThat(findLoadedClass.invoke(loader, "org.testcontainers.kafka.KafkaContainer")).isNull();
    }
}
