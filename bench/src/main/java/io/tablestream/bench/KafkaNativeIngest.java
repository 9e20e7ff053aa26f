package io.tablestream.bench;

import io.tablestream.core.model.EmulatorAccount;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.TableEntity;
import io.tablestream.bench.measure.Percentiles;
import io.tablestream.bench.measure.ServerCpu;
import io.tablestream.bench.workload.SyntheticEntities;
import io.tablestream.bench.workload.WrongAnswer;
import io.tablestream.core.command.Command;
import io.tablestream.core.command.CommandHeader;
import io.tablestream.core.command.CommandKey;
import io.tablestream.core.command.EntityCommand;
import io.tablestream.core.command.EntityOperation;
import io.tablestream.core.command.Outcome;
import io.tablestream.core.model.RegistryRecord;
import io.tablestream.core.model.TableName;
import io.tablestream.core.model.TableRecord;
import io.tablestream.processor.TopicDescriptor;
import io.tablestream.processor.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

/**
 * Kafka-native ingest against a running server: commands written straight to
 * {@code <prefix>.commands} with a plain {@link KafkaProducer}, as schemas/README.md describes
 * (Avro single-object records through {@code LogCodecs}, key per {@link CommandKey}, nobody waiting:
 * {@code replyTo} null), each a batch of 100 inserts on one PartitionKey, PartitionKeys in turn.
 * The table id comes from the registry topic {@code <prefix>.tables}; a missing table is created
 * through the REST API first.
 *
 * <p>Reports how fast the broker took the commands and how fast the processor applied them:
 * entities over the time from the first send to the last outcome read from
 * {@code <prefix>.outcomes} ({@code read_committed}), and each command's send-to-outcome latency.
 * Every outcome must be a success with 100 results; then the entities are read back through the
 * REST API (all of them, when there are at most 100,000; else a sample) and checked. A failure
 * exits with status 3.
 *
 * <p>Usage: {@code KafkaNativeIngest --bootstrap host:port [--endpoint URL] [--batches 1000]
 * [--partitions 100] [--prefix tablestream] [--table NAME] [--account-name A] [--account-key K]
 * [--server-pid PID]}; the embedded broker's address is in the server's log ("Embedded Kafka broker
 * running at ..."). With {@code --server-pid} (Linux) it also prints the server's CPU time from the
 * first send to the last outcome: {@code CPU kafka-native <entities> applied <cpu_ms> <commands>
 * <cpu_us_per_command> <cpu_us_per_entity>}.
 */
public final class KafkaNativeIngest {
    private static final int BATCH = 100;
    private static final long FULL_CHECK_LIMIT = 100_000;
    private static final Duration QUIET_LIMIT = Duration.ofSeconds(120);

    private final Map<String, String> options;
    private final String account;
    private final Topics topics;
    private final String bootstrap;

    private KafkaNativeIngest(Map<String, String> options) {
        this.options = options;
        this.account = options.getOrDefault("account-name", "devstoreaccount1");
        this.topics = Topics.withPrefix(options.getOrDefault("prefix", "tablestream"));
        this.bootstrap = options.get("bootstrap");
    }

    public static void main(String[] args) {
        Map<String, String> options = new HashMap<>();
        for (int i = 0; i + 1 < args.length && args[i].startsWith("--"); i += 2) {
            options.put(args[i].substring(2), args[i + 1]);
        }
        if (!options.containsKey("bootstrap") || args.length % 2 != 0) {
            System.err.println("Usage: KafkaNativeIngest --bootstrap host:port [--endpoint URL] [--batches 1000]"
                    + " [--partitions 100] [--prefix tablestream] [--table NAME] [--account-name A] [--account-key K]"
                    + " [--server-pid PID]");
            System.exit(2);
        }
        int status = 0;
        try {
            new KafkaNativeIngest(options).run();
        } catch (WrongAnswer e) {
            System.out.println("FAILED kafka-native wrong answer: " + e.getMessage());
            status = 3;
        } catch (Exception e) {
            e.printStackTrace();
            System.out.println("FAILED kafka-native " + e);
            status = 1;
        }
        System.exit(status);
    }

    private void run() throws Exception {
        int batches = Integer.parseInt(options.getOrDefault("batches", "1000"));
        int partitions = Integer.parseInt(options.getOrDefault("partitions", "100"));
        long serverPid = Long.parseLong(options.getOrDefault("server-pid", "0"));
        String endpoint = options.getOrDefault("endpoint", "http://127.0.0.1:10002/devstoreaccount1");
        TableName tableName = TableName.of(options.getOrDefault("table",
                "KafkaIngest" + Long.toString(System.currentTimeMillis(), 36)));
        TableServiceClient service = new TableServiceClientBuilder().connectionString(
                "DefaultEndpointsProtocol=http;AccountName=" + account + ";AccountKey="
                        + options.getOrDefault("account-key", EmulatorAccount.KEY) + ";TableEndpoint=" + endpoint + ";")
                .buildClient();

        long tableId = tableId(service, tableName);
        System.err.printf("table %s has id %d; sending %,d commands of %d inserts over %d PartitionKeys to %s%n",
                tableName.value(), tableId, batches, BATCH, partitions, topics.commands().name());

        String run = "kni-" + UUID.randomUUID();
        long[] sentAt = new long[batches];
        Percentiles latency = new Percentiles();
        AtomicReference<Exception> sendFailure = new AtomicReference<>();
        try (KafkaConsumer<String, Outcome> outcomes = outcomeConsumer();
             KafkaProducer<String, Command> producer = new KafkaProducer<>(producerConfig(),
                     topics.commands().keySerde().serializer(), topics.commands().valueSerde().serializer())) {
            long cpuFrom = serverPid > 0 ? ServerCpu.millis(serverPid) : 0;
            long start = System.nanoTime();
            for (int b = 0; b < batches; b++) {
                EntityCommand command = command(run + "/" + b, tableId, tableName, b, partitions);
                String key = CommandKey.of(command).value();
                sentAt[b] = System.nanoTime();
                producer.send(new ProducerRecord<>(topics.commands().name(), key, command), (metadata, e) -> {
                    if (e != null) {
                        sendFailure.compareAndSet(null, e);
                    }
                });
            }
            producer.flush();
            long acked = System.nanoTime();
            if (sendFailure.get() != null) {
                throw sendFailure.get();
            }
            long lastOutcome = awaitOutcomes(outcomes, run, sentAt, latency);
            long cpu = serverPid > 0 ? ServerCpu.millis(serverPid) - cpuFrom : -1;
            double sendSeconds = (acked - start) / 1e9;
            double applySeconds = (lastOutcome - start) / 1e9;
            long entities = (long) batches * BATCH;
            System.out.printf(Locale.ROOT, "RESULT kafka-native %d send %.1f - - entities/s %d %.2f%n", entities,
                    entities / sendSeconds, batches, sendSeconds);
            System.out.printf(Locale.ROOT, "RESULT kafka-native %d applied %.1f %.3f %.3f entities/s %d %.2f%n",
                    entities, entities / applySeconds, latency.millis(50), latency.millis(99), batches, applySeconds);
            if (cpu >= 0) {
                System.out.printf(Locale.ROOT, "CPU kafka-native %d applied %d %d %.1f %.1f%n", entities, cpu, batches,
                        cpu * 1000.0 / batches, cpu * 1000.0 / entities);
            }
            System.out.printf(Locale.ROOT, "%nKafka-native ingest: %,d entities in %,d commands of %d; the broker took"
                            + " them in %.2f s (%.0f entities/s); applied in %.2f s (%.0f entities/s); command to"
                            + " outcome p50 %.1f ms, p99 %.1f ms%n",
                    entities, batches, BATCH, sendSeconds, entities / sendSeconds, applySeconds,
                    entities / applySeconds, latency.millis(50), latency.millis(99));
        }
        verify(service.getTableClient(tableName.value()), batches, partitions);
    }

    /** The table's id from the registry topic; creates the table through REST when it is not there. */
    private long tableId(TableServiceClient service, TableName name) throws InterruptedException {
        String key = "name/" + account + "/" + name.key();
        TableRecord found = readRegistry().get(key);
        if (found == null) {
            System.err.printf("table %s is not in %s: creating it through the REST API%n", name.value(),
                    topics.tables().name());
            service.createTable(name.value());
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (found == null && System.nanoTime() < deadline) {
                Thread.sleep(100);
                found = readRegistry().get(key);
            }
        }
        if (found == null || !found.isActive()) {
            throw new IllegalStateException("table " + name.value() + " is not active in " + topics.tables().name());
        }
        return found.tableId();
    }

    /** The compacted registry, read from the beginning to its end; tombstones remove names. */
    private Map<String, TableRecord> readRegistry() {
        TopicDescriptor<String, RegistryRecord> t = topics.tables();
        Map<String, TableRecord> records = new HashMap<>();
        try (KafkaConsumer<String, RegistryRecord> consumer = new KafkaConsumer<>(consumerConfig(),
                t.keySerde().deserializer(), t.valueSerde().deserializer())) {
            List<TopicPartition> parts = partitionsOf(consumer, t.name());
            consumer.assign(parts);
            consumer.seekToBeginning(parts);
            Map<TopicPartition, Long> end = consumer.endOffsets(parts);
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (parts.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("could not read " + t.name() + " to its end in 30 s");
                }
                for (ConsumerRecord<String, RegistryRecord> r : consumer.poll(Duration.ofMillis(200))) {
                    if (r.value() == null) {
                        records.remove(r.key());
                    } else if (r.value() instanceof TableRecord table) {
                        records.put(r.key(), table); // account records share the topic
                    }
                }
            }
        }
        return records;
    }

    private KafkaConsumer<String, Outcome> outcomeConsumer() {
        TopicDescriptor<String, Outcome> t = topics.outcomes();
        KafkaConsumer<String, Outcome> consumer = new KafkaConsumer<>(consumerConfig(), t.keySerde().deserializer(),
                t.valueSerde().deserializer());
        List<TopicPartition> parts = partitionsOf(consumer, t.name());
        consumer.assign(parts);
        consumer.seekToEnd(parts);
        parts.forEach(consumer::position); // fix the start before the first command is sent
        return consumer;
    }

    /** Reads outcomes until every command of this run has one; returns when the last came. */
    private long awaitOutcomes(KafkaConsumer<String, Outcome> consumer, String run, long[] sentAt,
                               Percentiles latency) {
        boolean[] seen = new boolean[sentAt.length];
        int remaining = sentAt.length;
        long last = System.nanoTime();
        String prefix = run + "/";
        while (remaining > 0) {
            if (System.nanoTime() - last > QUIET_LIMIT.toNanos()) {
                throw new IllegalStateException("no outcome for " + QUIET_LIMIT.toSeconds() + " s; " + remaining
                        + " commands still unanswered");
            }
            for (ConsumerRecord<String, Outcome> r : consumer.poll(Duration.ofMillis(100))) {
                Outcome o = r.value();
                if (o == null || !o.commandId().startsWith(prefix)) {
                    continue;
                }
                int b = Integer.parseInt(o.commandId().substring(prefix.length()));
                long now = System.nanoTime();
                if (seen[b]) {
                    throw new WrongAnswer("two outcomes for command " + o.commandId());
                }
                if (!o.succeeded()) {
                    throw new WrongAnswer("command " + o.commandId() + " failed: " + o.failure());
                }
                if (o.results().size() != BATCH || o.results().stream().anyMatch(x -> x.timestamp() == null)) {
                    throw new WrongAnswer("command " + o.commandId() + " has " + o.results().size()
                            + " results, expected " + BATCH + " with timestamps");
                }
                seen[b] = true;
                remaining--;
                latency.add(now - sentAt[b]);
                last = now;
            }
        }
        return last;
    }

    private EntityCommand command(String id, long tableId, TableName table, int batch, int partitions) {
        String pk = partitionKey(batch % partitions);
        long first = (long) (batch / partitions) * BATCH;
        List<EntityOperation> ops = new ArrayList<>(BATCH);
        for (long r = first; r < first + BATCH; r++) {
            String rk = rowKey(r);
            ops.add(EntityOperation.of(EntityOperation.Type.INSERT, rk, null, SyntheticEntities.edmProperties(pk, rk)));
        }
        CommandHeader header = new CommandHeader(id, account, System.currentTimeMillis(), null, "kafka-native-ingest");
        return EntityCommand.batch(header, tableId, table, pk, ops);
    }

    /** Reads what was written back through REST: every entity when few enough, else a sample. */
    private void verify(TableClient table, int batches, int partitions) {
        long total = (long) batches * BATCH;
        if (total <= FULL_CHECK_LIMIT) {
            long count = 0;
            for (int p = 0; p < Math.min(partitions, batches); p++) {
                String pk = partitionKey(p);
                long batchesHere = batches / partitions + (p < batches % partitions ? 1 : 0);
                List<TableEntity> rows = table.listEntities(new ListEntitiesOptions()
                        .setFilter("PartitionKey eq '" + pk + "'"), Duration.ofSeconds(120), null).stream().toList();
                if (rows.size() != batchesHere * BATCH) {
                    throw new WrongAnswer("partition " + pk + " holds " + rows.size() + " entities, expected "
                            + batchesHere * BATCH);
                }
                for (int i = 0; i < rows.size(); i++) {
                    String rk = rowKey(i);
                    SyntheticEntities.check("kafka-native read back", rows.get(i), pk, rk,
                            SyntheticEntities.properties(pk, rk));
                }
                count += rows.size();
            }
            System.out.printf("read back all %,d entities through the REST API: all there, all as written%n", count);
        } else {
            SplittableRandom random = new SplittableRandom(42);
            for (int i = 0; i < 200; i++) {
                int b = random.nextInt(batches);
                String pk = partitionKey(b % partitions);
                String rk = rowKey((long) (b / partitions) * BATCH + random.nextInt(BATCH));
                SyntheticEntities.check("kafka-native read back", table.getEntity(pk, rk), pk, rk,
                        SyntheticEntities.properties(pk, rk));
            }
            System.out.println("read back 200 sampled entities through the REST API: all as written");
        }
    }

    private static String partitionKey(int index) {
        return String.format("kafka-%04d", index);
    }

    private static String rowKey(long index) {
        return String.format("r%08d", index);
    }

    private static List<TopicPartition> partitionsOf(KafkaConsumer<?, ?> consumer, String topic) {
        List<TopicPartition> parts = new ArrayList<>();
        for (PartitionInfo p : consumer.partitionsFor(topic, Duration.ofSeconds(30))) {
            parts.add(new TopicPartition(topic, p.partition()));
        }
        if (parts.isEmpty()) {
            throw new IllegalStateException("topic " + topic + " does not exist: is the server running with this"
                    + " --prefix?");
        }
        return parts;
    }

    private Map<String, Object> consumerConfig() {
        Map<String, Object> c = new HashMap<>();
        c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        c.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 50);
        return c;
    }

    private Map<String, Object> producerConfig() {
        Map<String, Object> c = new HashMap<>();
        c.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        c.put(ProducerConfig.ACKS_CONFIG, "all");
        c.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        c.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        c.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        c.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, Topics.MAX_COMMAND_BYTES);
        return c;
    }
}
