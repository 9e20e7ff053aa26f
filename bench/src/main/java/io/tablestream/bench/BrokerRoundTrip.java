package io.tablestream.bench;

import io.tablestream.bench.measure.Percentiles;
import io.tablestream.kafka.embedded.EmbeddedKafkaBroker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.LongSerializer;

/**
 * The floor a write through Kafka starts from on this machine: the embedded broker alone, nothing
 * of Tablestream's on top. One producer set up like the command log's (acks=all, idempotent, no
 * linger) sends records one at a time; one consumer set up like a stream thread's (read_committed,
 * polling every 2 ms) reads them. Reports, per quarter of the run (the JIT warms up over the
 * first ones), p50/p99 of:
 * <ul>
 *   <li>send → acknowledged (what a write answered after its append alone would wait), and</li>
 *   <li>send → read by the consumer (what a write decided by a consumer of the log waits at least).</li>
 * </ul>
 * Usage: {@code bench/run-broker-roundtrip.sh [records=40000]}.
 */
public final class BrokerRoundTrip {
    private static final String TOPIC = "round-trip";
    /** How long a record may take to be read before the run gives up (the reader is gone or stuck). */
    private static final long READ_PATIENCE_NANOS = 30_000_000_000L;

    private BrokerRoundTrip() {
    }

    public static void main(String[] args) throws Exception {
        int records = args.length > 0 ? Integer.parseInt(args[0]) : 40_000;
        if (records < 4) {
            throw new IllegalArgumentException("records must be at least 4");
        }
        Path dir = Files.createTempDirectory("tablestream-roundtrip");
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder(dir.resolve("kafka")).start()) {
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()))) {
                admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1))).all().get();
            }
            run(broker.bootstrapServers(), records);
        } finally {
            delete(dir);
        }
    }

    private static void run(String bootstrap, int records) throws Exception {
        Map<Long, Long> readAt = new ConcurrentHashMap<>();
        AtomicBoolean reading = new AtomicBoolean(true);
        Thread reader = new Thread(() -> read(bootstrap, readAt, reading), "round-trip-reader");
        reader.start();
        Thread.sleep(2_000); // the consumer is assigned and polling
        Map<String, Object> p = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                ProducerConfig.LINGER_MS_CONFIG, 0);
        int quarter = records / 4;
        try (KafkaProducer<byte[], Long> producer = new KafkaProducer<>(p, new ByteArraySerializer(), new LongSerializer())) {
            Percentiles acked = new Percentiles();
            Percentiles read = new Percentiles();
            for (long i = 0; i < records; i++) {
                long sent = System.nanoTime();
                producer.send(new ProducerRecord<>(TOPIC, 0, null, i)).get();
                acked.add(System.nanoTime() - sent);
                Long at;
                while ((at = readAt.remove(i)) == null) {
                    if (!reader.isAlive() || System.nanoTime() - sent > READ_PATIENCE_NANOS) {
                        throw new IllegalStateException("record " + i + " was not read within 30 s"
                                + (reader.isAlive() ? "" : " (the reader stopped; see its stack trace above)"));
                    }
                    Thread.onSpinWait();
                }
                read.add(at - sent);
                if ((i + 1) % quarter == 0) {
                    System.out.printf("records %,d-%,d: send -> acknowledged p50 %.3f ms, p99 %.3f ms;"
                                    + " send -> read p50 %.3f ms, p99 %.3f ms%n", i + 2 - quarter, i + 1,
                            acked.millis(50), acked.millis(99), read.millis(50), read.millis(99));
                    acked = new Percentiles();
                    read = new Percentiles();
                }
            }
        } finally {
            reading.set(false);
            reader.join();
        }
    }

    private static void read(String bootstrap, Map<Long, Long> readAt, AtomicBoolean reading) {
        Map<String, Object> c = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed", ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        try (KafkaConsumer<byte[], Long> consumer = new KafkaConsumer<>(c, new ByteArrayDeserializer(), new LongDeserializer())) {
            TopicPartition partition = new TopicPartition(TOPIC, 0);
            consumer.assign(List.of(partition));
            consumer.seekToEnd(List.of(partition));
            while (reading.get()) {
                for (ConsumerRecord<byte[], Long> r : consumer.poll(Duration.ofMillis(2))) {
                    readAt.put(r.value(), System.nanoTime());
                }
            }
        }
    }

    /** Deletes {@code dir} and everything in it (the benchmarks' scratch directories). */
    static void delete(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
