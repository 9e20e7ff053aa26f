package io.tablestream.bench;

import io.tablestream.bench.measure.Percentiles;
import io.tablestream.bench.measure.ThreadCpu;
import io.tablestream.kafka.embedded.EmbeddedKafkaBroker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.FinalizedVersionRange;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The CPU a single write's trip through Kafka costs at the least, with nothing of Tablestream's on
 * top: the embedded broker (as the server configures it) and Kafka's clients in one JVM, writers
 * keeping {@code inFlight} writes going, each waiting for its own before sending the next, as HTTP
 * clients do. Stages, each a floor under a design of the write path:
 * <ul>
 *   <li>{@code ack}: a write is one record, sent by one producer set up like the command log's
 *   (acks=all, idempotent, no linger) and done when the broker acknowledges it (a write decided
 *   before its append and answered at the acknowledgement, which is not safe: see {@code owner});</li>
 *   <li>{@code read}: done when one of two consumers set up like the stream threads' (read_committed,
 *   each owning half of the partitions) has read it and handed it back in-process (a write decided by
 *   a consumer of the log, as today);</li>
 *   <li>{@code outputs}: as {@code read}, and the consumer also sends two records per write (a
 *   changelog record and a change event, ~300 bytes each) through a transactional producer of its own,
 *   committed with the consumed offsets every 500 ms (as today's tasks do);</li>
 *   <li>{@code batch}: as {@code outputs} for a write of {@value #BATCH} entities (one 20 KB record, two
 *   output records per entity: a transaction of 100 or a {@code respond-async} command); its CPU is
 *   also given per entity;</li>
 *   <li>{@code owner}: a write decided by the partition's owner before its append and answered once
 *   durable ({@link GroupCommittedLog}): one record sent to a random partition by that partition's
 *   transactional producer, done when the transaction holding it has committed, commits grouped per
 *   partition (the stage also prints the commits per second, the writes per commit, how long
 *   commitTransaction took and how many records the producers sent again);</li>
 *   <li>{@code owner-follow}: as {@code owner}, with one read_committed consumer following every
 *   partition off the write's path (a standby or the change feed), and checking at the end that it
 *   read every committed write.</li>
 * </ul>
 * Prints, per stage, the writes per second, p50/p99, and the process's CPU per write by group of
 * threads ({@link ThreadCpu}; the writers are the group {@code other}, standing in for the request
 * threads' own share of sending).
 * Stages run one after the other in one JVM, each on topics of its own; a stage may be named twice
 * (the first run of the JVM is the least warm).
 * Usage: {@code bench/run-kafka-floor.sh [inFlight=16] [seconds=15] [warmSeconds=20] [stages=ack,read,outputs]}
 * (and {@code batch}, {@code owner}, {@code owner-follow}).
 */
public final class KafkaFloor {
    private static final String COMMANDS = "floor-commands";
    private static final String CHANGELOG = "floor-changelog";
    private static final String CHANGES = "floor-changes";
    private static final int PARTITIONS = 8;
    private static final int CONSUMERS = 2;
    private static final int RECORD_BYTES = 250;
    /** Entities per write of the {@code batch} stage, and the bytes of each in its record. */
    private static final int BATCH = 100;
    private static final int ENTITY_BYTES = 200;
    private static final int OUTPUT_BYTES = 300;
    private static final long COMMIT_MS = 500;
    private static final List<String> STAGES = List.of("ack", "read", "outputs", "batch", "owner", "owner-follow");

    private KafkaFloor() {
    }

    public static void main(String[] args) throws Exception {
        int inFlight = args.length > 0 ? Integer.parseInt(args[0]) : 16;
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 15;
        int warmSeconds = args.length > 2 ? Integer.parseInt(args[2]) : 20;
        List<String> stages = List.of((args.length > 3 ? args[3] : "ack,read,outputs").split(","));
        Path dir = Files.createTempDirectory("tablestream-kafka-floor");
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder(dir.resolve("kafka")).start()) {
            for (int i = 0; i < stages.size(); i++) {
                String stage = stages.get(i);
                String bootstrap = broker.bootstrapServers();
                String suffix = "-" + stage + "-" + i;
                try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
                    admin.createTopics(Stream.of(COMMANDS, CHANGELOG, CHANGES)
                            .map(t -> new NewTopic(t + suffix, PARTITIONS, (short) 1)).toList()).all().get();
                    awaitLeaders(admin, suffix);
                    if (i == 0) {
                        FinalizedVersionRange tv = admin.describeFeatures().featureMetadata().get()
                                .finalizedFeatures().get("transaction.version");
                        System.out.println("broker's transaction.version: " + (tv == null ? "none" : tv.maxVersionLevel()));
                    }
                }
                new KafkaFloor.Stage(bootstrap, suffix, stage, inFlight).run(seconds, warmSeconds);
            }
        } finally {
            BrokerRoundTrip.delete(dir);
        }
    }

    /**
     * Waits until the broker has taken on every partition of the stage's topics. They exist once the
     * controller has them, but a partition takes produces only once its leader has it: a first batch
     * refused before then, with a second appended behind it, leaves an idempotent producer (Kafka 4.3)
     * retrying the first out of order until it expires. A leader answers ListOffsets once it has the
     * partition; before the broker knows the topic, the admin client fails it at once, so it is asked again.
     */
    private static void awaitLeaders(Admin admin, String suffix) throws Exception {
        Map<TopicPartition, OffsetSpec> partitions = Stream.of(COMMANDS, CHANGELOG, CHANGES)
                .flatMap(t -> IntStream.range(0, PARTITIONS).mapToObj(n -> new TopicPartition(t + suffix, n)))
                .collect(Collectors.toMap(tp -> tp, tp -> OffsetSpec.latest()));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try {
                admin.listOffsets(partitions).all().get();
                return;
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException) || System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(20); // the broker learns of the topics from the controller's log; nothing to wait on
            }
        }
    }

    /** One stage: its own topics, producer, consumers and writers. */
    private static final class Stage {
        private final String bootstrap;
        private final String suffix;
        private final String name;
        private final int inFlight;
        private final Map<Long, CompletableFuture<Void>> waiting = new ConcurrentHashMap<>();
        /** Writers stop first, then the consumers (a writer may be waiting for its record to be read). */
        private final AtomicBoolean writing = new AtomicBoolean(true);
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final AtomicLong done = new AtomicLong();
        private final AtomicLong nextId = new AtomicLong();
        /** Records the consumers have read (for {@code owner-follow}: the follower), notified on each poll. */
        private final AtomicLong followed = new AtomicLong();
        private volatile Percentiles latency = new Percentiles();

        Stage(String bootstrap, String suffix, String name, int inFlight) {
            this.bootstrap = bootstrap;
            this.suffix = suffix;
            this.name = name;
            this.inFlight = inFlight;
        }

        void run(int seconds, int warmSeconds) throws Exception {
            if (!STAGES.contains(name)) {
                throw new IllegalArgumentException("unknown stage " + name + " (one of " + STAGES + ")");
            }
            boolean owner = name.startsWith("owner");
            boolean read = !owner && !name.equals("ack");
            boolean follow = name.equals("owner-follow");
            int entities = name.equals("batch") ? BATCH : 1;
            int outputs = name.equals("outputs") || name.equals("batch") ? entities : 0;
            List<Thread> consumers = new ArrayList<>();
            int consumerCount = read ? CONSUMERS : follow ? 1 : 0;
            for (int c = 0; c < consumerCount; c++) {
                int index = c;
                Thread t = new Thread(() -> consume(index, consumerCount, outputs), "floor-StreamThread-" + (c + 1));
                t.start();
                consumers.add(t);
            }
            if (!consumers.isEmpty()) {
                Thread.sleep(2_000); // assigned and polling
            }
            String clientId = "tablestream-ingest-floor" + suffix;
            Map<String, Object> p = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                    ProducerConfig.CLIENT_ID_CONFIG, clientId,
                    ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                    ProducerConfig.LINGER_MS_CONFIG, 0);
            List<Thread> writers = new ArrayList<>();
            try {
                try (KafkaProducer<byte[], byte[]> producer = owner ? null
                        : new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
                     GroupCommittedLog log = owner ? new GroupCommittedLog(bootstrap, COMMANDS + suffix, PARTITIONS, clientId)
                             : null) {
                    Append append = owner ? (id, key, value) -> log.append(
                                    ThreadLocalRandom.current().nextInt(PARTITIONS), key, value).get(30, TimeUnit.SECONDS)
                            : read ? (id, key, value) -> sendAndAwaitRead(producer, id, key, value)
                            : (id, key, value) -> producer.send(new ProducerRecord<>(COMMANDS + suffix, key, value)).get();
                    try {
                        for (int w = 0; w < inFlight; w++) {
                            Thread t = new Thread(() -> write(append, entities), "floor-writer-" + w);
                            t.start();
                            writers.add(t);
                        }
                        Thread.sleep(warmSeconds * 1000L);
                        long before = done.get();
                        long commitsBefore = owner ? log.commits() : 0;
                        long committedBefore = owner ? log.committedRecords() : 0;
                        long retriesBefore = owner ? log.retries() : 0;
                        Percentiles commitTimes = owner ? log.restartCommitTimes() : null;
                        latency = new Percentiles();
                        ThreadCpu cpu = ThreadCpu.now();
                        long start = System.nanoTime();
                        Thread.sleep(seconds * 1000L);
                        long writes = done.get() - before;
                        double elapsed = (System.nanoTime() - start) / 1e9;
                        ThreadCpu after = ThreadCpu.now();
                        String perWrite = after.perOperationSince(cpu, writes);
                        Percentiles measured = latency;
                        System.out.printf("%s, %d in flight: %,.0f writes/s, p50 %.2f ms, p99 %.2f ms; CPU per write: %s%n",
                                name, inFlight, writes / elapsed, measured.millis(50), measured.millis(99), perWrite);
                        if (entities > 1) {
                            System.out.printf("%s: %,.0f entities/s; CPU per entity: %s%n", name,
                                    writes * entities / elapsed, after.perOperationSince(cpu, writes * entities));
                        }
                        if (owner) {
                            long commits = log.commits() - commitsBefore;
                            System.out.printf("%s: %,.0f commits/s, %.2f writes per commit, commitTransaction p50 %.2f ms,"
                                    + " p99 %.2f ms; %d records sent again%n", name, commits / elapsed,
                                    (log.committedRecords() - committedBefore) / (double) commits, commitTimes.millis(50),
                                    commitTimes.millis(99), log.retries() - retriesBefore);
                        }
                    } finally {
                        writing.set(false);
                        for (Thread t : writers) {
                            t.join();
                        }
                    }
                    if (follow) {
                        log.close(); // every write sent is committed
                        awaitFollower(log.committedRecords());
                    }
                }
            } finally {
                running.set(false);
                for (Thread t : consumers) {
                    t.join();
                }
            }
        }

        /** One write's trip, from its send until it is done (acknowledged, read, or committed). */
        private interface Append {
            void write(long id, byte[] key, byte[] value) throws Exception;
        }

        private void sendAndAwaitRead(KafkaProducer<byte[], byte[]> producer, long id, byte[] key, byte[] value)
                throws Exception {
            CompletableFuture<Void> decided = new CompletableFuture<>();
            waiting.put(id, decided);
            producer.send(new ProducerRecord<>(COMMANDS + suffix, key, value)).get();
            decided.get(30, TimeUnit.SECONDS);
        }

        private void write(Append append, int entities) {
            byte[] value = new byte[entities > 1 ? entities * ENTITY_BYTES : RECORD_BYTES];
            while (writing.get()) {
                long id = nextId.getAndIncrement();
                byte[] key = Long.toString(ThreadLocalRandom.current().nextLong()).getBytes();
                long sent = System.nanoTime();
                try {
                    append.write(id, key, idValue(value, id));
                } catch (Exception e) {
                    throw new IllegalStateException("write " + id + " failed", e);
                }
                latency.add(System.nanoTime() - sent);
                done.incrementAndGet();
            }
        }

        /** Waits until the follower has read {@code committed} records, or fails. */
        private void awaitFollower(long committed) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            synchronized (followed) {
                while (followed.get() < committed && System.nanoTime() < deadline) {
                    followed.wait(100);
                }
            }
            if (followed.get() != committed) {
                throw new IllegalStateException("the follower read " + followed.get() + " records of " + committed + " committed");
            }
            System.out.printf("%s: the follower read all %,d committed writes%n", name, committed);
        }

        private static byte[] idValue(byte[] template, long id) {
            byte[] v = template.clone();
            for (int i = 0; i < 8; i++) {
                v[i] = (byte) (id >>> (8 * i));
            }
            return v;
        }

        private static long idOf(byte[] value) {
            long id = 0;
            for (int i = 0; i < 8; i++) {
                id |= (value[i] & 0xFFL) << (8 * i);
            }
            return id;
        }

        /**
         * Reads its partitions (those whose number is {@code index} modulo {@code of}); for each record sends
         * {@code outputs} pairs of records in its transactions, and completes the write waiting for it.
         */
        private void consume(int index, int of, int outputs) {
            Map<String, Object> c = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                    ConsumerConfig.GROUP_ID_CONFIG, "floor" + suffix,
                    ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                    ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
            Map<String, Object> p = new HashMap<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                    ProducerConfig.CLIENT_ID_CONFIG, "floor" + suffix + "-StreamThread-" + (index + 1) + "-producer",
                    ProducerConfig.TRANSACTIONAL_ID_CONFIG, "floor" + suffix + "-" + index,
                    ProducerConfig.LINGER_MS_CONFIG, 2));
            List<TopicPartition> mine = IntStream.range(0, PARTITIONS).filter(i -> i % of == index)
                    .mapToObj(i -> new TopicPartition(COMMANDS + suffix, i)).toList();
            try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(c, new ByteArrayDeserializer(),
                    new ByteArrayDeserializer());
                 KafkaProducer<byte[], byte[]> producer = outputs > 0
                         ? new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer()) : null) {
                consumer.assign(mine);
                consumer.seekToEnd(mine);
                if (producer != null) {
                    producer.initTransactions();
                    producer.beginTransaction();
                }
                Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
                long lastCommit = System.nanoTime();
                byte[] output = new byte[OUTPUT_BYTES];
                while (running.get()) {
                    ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(100));
                    for (ConsumerRecord<byte[], byte[]> r : records) {
                        if (producer != null) {
                            for (int e = 0; e < outputs; e++) {
                                producer.send(new ProducerRecord<>(CHANGELOG + suffix, r.partition(), r.key(), output));
                                producer.send(new ProducerRecord<>(CHANGES + suffix, r.partition(), r.key(), output));
                            }
                            offsets.put(new TopicPartition(r.topic(), r.partition()), new OffsetAndMetadata(r.offset() + 1));
                        }
                        CompletableFuture<Void> w = waiting.remove(idOf(r.value()));
                        if (w != null) {
                            w.complete(null);
                        }
                    }
                    if (!records.isEmpty()) {
                        synchronized (followed) {
                            followed.addAndGet(records.count());
                            followed.notifyAll();
                        }
                    }
                    if (producer != null && System.nanoTime() - lastCommit > COMMIT_MS * 1_000_000) {
                        producer.sendOffsetsToTransaction(offsets, consumer.groupMetadata());
                        producer.commitTransaction();
                        producer.beginTransaction();
                        offsets.clear();
                        lastCommit = System.nanoTime();
                    }
                }
                if (producer != null) {
                    producer.abortTransaction();
                }
            }
        }
    }
}
