package io.tablestream.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.tablestream.client.TableServiceHttp;
import io.tablestream.cli.transfer.HttpChangeFeed;
import io.tablestream.core.command.ChangeEvent;
import io.tablestream.core.command.EntityChange;
import io.tablestream.core.odata.EntityJsonWriter;
import io.tablestream.localfiles.EmbeddedBrokerAddress;
import io.tablestream.schemas.LogCodecs;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * Follows a table's changes as they are applied — from the server's HTTP change feed
 * ({@code --endpoint}: {@code GET /<table>()/$changes}, long-polled from a cursor, through the account
 * of the connection string), or from the change feed topic ({@code <prefix>.changes}, committed
 * changes only) — one JSON line each: {@code {"change":"inserted|replaced|merged|deleted|expired",
 * "changedAt":...,"principal":...,"entity":{...}}}, the entity as export writes it (only its keys for a
 * deletion or an expiry).
 */
@Command(name = "tail", mixinStandardHelpOptions = true,
        description = {"Prints a table's changes as they happen, one JSON line each, until interrupted: from the"
                + " server's HTTP change feed (--endpoint, through the connection string's account) or from the change"
                + " feed topic on Kafka."})
final class TailCommand implements Callable<Integer> {
    private static final JsonFactory JSON = new JsonFactory();

    @ParentCommand
    Main main;

    @Parameters(index = "0", paramLabel = "TABLE")
    String table;

    @Option(names = "--endpoint", description = "Follow the Table endpoint's HTTP change feed (GET /<table>()/$changes) with"
            + " the connection string's account, instead of reading Kafka.")
    boolean endpoint;

    @Option(names = "--bootstrap-servers", paramLabel = "HOST:PORT",
            description = "The Kafka cluster (default: KAFKA_BOOTSTRAP_SERVERS, else the embedded broker of --data-dir).")
    String bootstrapServers;

    @Option(names = "--data-dir", paramLabel = "DIR", defaultValue = "data",
            description = "A single server's data directory, to find its embedded broker (default: ${DEFAULT-VALUE}).")
    Path dataDir;

    @Option(names = "--topic-prefix", paramLabel = "PREFIX", defaultValue = "tablestream",
            description = "The server's topic-prefix setting (default: ${DEFAULT-VALUE}).")
    String topicPrefix;

    @Option(names = "--from-beginning", description = "Print every change the feed holds first, then follow.")
    boolean fromBeginning;

    @Option(names = "--max", paramLabel = "N", defaultValue = "-1", description = "Stop after N changes.")
    long max;

    @Override
    public Integer call() throws Exception {
        if (endpoint) {
            try (TableServiceHttp http = main.http()) {
                new HttpChangeFeed(http, table, main.messages()).follow(fromBeginning ? "beginning" : "now", max, main.out());
            }
            return 0;
        }
        String account = main.account().name();
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "tablestream-tail");
        PrintStream out = main.out();
        long printed = 0;
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            String topic = topicPrefix + ".changes";
            List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            if (partitions.isEmpty()) {
                throw new IllegalArgumentException("The Kafka cluster has no topic " + topic + " (see --topic-prefix)");
            }
            consumer.assign(partitions);
            if (fromBeginning) {
                consumer.seekToBeginning(partitions);
            } else {
                consumer.seekToEnd(partitions);
            }
            main.messages().printf("Following the changes of %s/%s (%s, Ctrl-C to stop)%n", account, table, topic);
            TableChanges changes = new TableChanges(account, table);
            while (max < 0 || printed < max) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    ChangeEvent event = LogCodecs.CHANGE_EVENT.decode(r.value());
                    if (changes.shows(event)) {
                        out.println(line(event));
                        if (++printed == max) {
                            break;
                        }
                    }
                }
                out.flush();
            }
        }
        return 0;
    }

    /**
     * Which events of the feed are the table's changes, each once. A table's deletion reaches every
     * partition of the log, and each partition's task publishes it there (so that every reader of a
     * partition learns it): shown once, at its first copy, per table id (a re-created table has a new one).
     */
    static final class TableChanges {
        private final String account;
        private final String table;
        private final Set<Long> deletionsShown = new HashSet<>();

        TableChanges(String account, String table) {
            this.account = account;
            this.table = table;
        }

        boolean shows(ChangeEvent event) {
            if (!event.account().equals(account) || !event.tableName().value().equalsIgnoreCase(table)) {
                return false;
            }
            return event.change().type() != EntityChange.Type.TABLE_DELETED
                    || deletionsShown.add(event.change().tableId());
        }
    }

    /** One change as a JSON line. */
    static String line(ChangeEvent event) throws IOException {
        EntityChange change = event.change();
        ByteArrayOutputStream entity = new ByteArrayOutputStream(256);
        if (change.newVersion() != null) {
            EntityJsonWriter.writeSelfDescribing(entity, change.newVersion().entity());
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(entity.size() + 128);
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.writeStartObject();
            g.writeStringField("change", change.type().name().toLowerCase(Locale.ROOT));
            g.writeStringField("changedAt", event.changedAt().toIso());
            if (event.principal() != null) {
                g.writeStringField("principal", event.principal());
            }
            g.writeFieldName("entity");
            if (change.newVersion() != null) {
                g.writeRawValue(entity.toString(StandardCharsets.UTF_8));
            } else {
                g.writeStartObject();
                g.writeStringField("PartitionKey", change.partitionKey());
                g.writeStringField("RowKey", change.rowKey());
                g.writeEndObject();
            }
            g.writeEndObject();
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /**
     * The cluster: the option, else {@code KAFKA_BOOTSTRAP_SERVERS}, else the address the embedded broker of
     * {@code --data-dir} keeps in {@code kafka/} ({@link EmbeddedBrokerAddress}).
     */
    private String bootstrap() throws IOException {
        if (bootstrapServers != null) {
            return bootstrapServers;
        }
        String env = System.getenv("KAFKA_BOOTSTRAP_SERVERS");
        if (env != null && !env.isBlank()) {
            return env;
        }
        Path brokerDir = dataDir.resolve("kafka");
        return EmbeddedBrokerAddress.read(brokerDir).orElseThrow(() -> new IllegalArgumentException(
                "No Kafka cluster named: give --endpoint to follow the Table endpoint's HTTP change feed instead, or"
                        + " --bootstrap-servers, set KAFKA_BOOTSTRAP_SERVERS, or point --data-dir at a server's data"
                        + " directory (no " + brokerDir.resolve(EmbeddedBrokerAddress.FILE_NAME) + ")"))
                .bootstrapServers("127.0.0.1");
    }
}
