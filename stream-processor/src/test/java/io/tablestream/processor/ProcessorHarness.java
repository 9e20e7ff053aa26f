package io.tablestream.processor;

import io.tablestream.core.command.AccountCommand;
import io.tablestream.core.command.ChangeEvent;
import io.tablestream.core.command.Command;
import io.tablestream.core.command.CommandHeader;
import io.tablestream.core.command.CommandKey;
import io.tablestream.core.command.EntityCommand;
import io.tablestream.core.command.EntityOperation;
import io.tablestream.core.command.Outcome;
import io.tablestream.core.command.TableCommand;
import io.tablestream.core.model.AccessPolicy;
import io.tablestream.core.model.EdmValue;
import io.tablestream.core.model.EntityKey;
import io.tablestream.core.model.RegistryRecord;
import io.tablestream.core.model.ServicePropertiesUpdate;
import io.tablestream.core.model.StoredEntity;
import io.tablestream.core.model.TableName;
import io.tablestream.core.model.TableRecord;
import io.tablestream.core.storekey.KeyCodec;
import io.tablestream.processor.internal.RegistryView;
import io.tablestream.processor.store.StoreNames;
import io.tablestream.schemas.LogCodecs;
import io.tablestream.schemas.StoredEntityCodec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.test.TestRecord;

/** The topology in a {@link TopologyTestDriver}, with a small vocabulary for tests. */
final class ProcessorHarness implements AutoCloseable {
    static final String ACCOUNT = "acct";

    final MutableClock clock = new MutableClock(Instant.parse("2024-05-01T12:00:00Z"));
    final Topics topics = Topics.withPrefix("ts");
    final ProcessorSettings settings;
    final TopologyTestDriver driver;
    final TestInputTopic<String, byte[]> commands;
    final TestOutputTopic<String, Outcome> outcomes;
    final TestOutputTopic<String, ChangeEvent> changes;
    final TestOutputTopic<String, RegistryRecord> tables;
    final TestOutputTopic<byte[], byte[]> deadLetters;
    final TestInputTopic<String, byte[]> registryInput;
    /** Outcomes the tasks handed over at decision, in order. */
    final List<Outcome> handedOff = new ArrayList<>();
    /**
     * Whether a waiter "in this process" takes what is handed over (then no outcome record is
     * written); false by default, so that every outcome can be read from the outcomes topic.
     */
    boolean handOffTaken;
    private final List<Outcome> seenOutcomes = new ArrayList<>();
    private final List<ChangeEvent> seenChanges = new ArrayList<>();
    /** The state directory of the driver's stores: its contents go with the driver, the directory with {@link #close}. */
    private final Path stateDir;

    ProcessorHarness() {
        this(1);
    }

    ProcessorHarness(int commandPartitions) {
        this(commandPartitions, Housekeeping.DEFAULTS.withSweep(Duration.ofSeconds(5), 2));
    }

    ProcessorHarness(int commandPartitions, Housekeeping housekeeping) {
        settings = new ProcessorSettings(topics, commandPartitions, housekeeping, clock, new io.tablestream.processor.store.AppliedOffsets(),
                new io.tablestream.processor.store.RegistryEvents(), ApplyObserver.NONE, WriteAnswers.atDecision(this::handOff),
                new io.tablestream.processor.store.TransactionProgress(), new StreamProcessorMetrics(commandPartitions));
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "processor-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        try {
            stateDir = Files.createTempDirectory("ts-ttd");
            props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        driver = new TopologyTestDriver(TablestreamTopology.build(settings), props, clock.instant());
        commands = driver.createInputTopic(topics.commands().name(), new StringSerializer(), new ByteArraySerializer());
        outcomes = driver.createOutputTopic(topics.outcomes().name(), topics.outcomes().keySerde().deserializer(),
                topics.outcomes().valueSerde().deserializer());
        changes = driver.createOutputTopic(topics.changes().name(), topics.changes().keySerde().deserializer(),
                topics.changes().valueSerde().deserializer());
        tables = driver.createOutputTopic(topics.tables().name(), topics.tables().keySerde().deserializer(),
                topics.tables().valueSerde().deserializer());
        registryInput = driver.createInputTopic(topics.tables().name(), new StringSerializer(), new ByteArraySerializer());
        deadLetters = driver.createOutputTopic(topics.deadLetters().name(), new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
    }

    private boolean handOff(Outcome outcome) {
        handedOff.add(outcome);
        return handOffTaken;
    }

    /** Every outcome record written so far and not read yet (for tests of which outcomes are written). */
    List<Outcome> outcomeRecords() {
        drain();
        List<Outcome> all = List.copyOf(seenOutcomes);
        seenOutcomes.clear();
        return all;
    }

    /**
     * A header whose acceptance time is unknown (the far future): the command's time is then its
     * record's timestamp, which the harness sets from its clock.
     */
    static CommandHeader header() {
        return new CommandHeader(UUID.randomUUID().toString(), ACCOUNT, Long.MAX_VALUE, "me", "tester");
    }

    /** Sends a command under its proper key, at the harness clock's time; returns its outcome. */
    Outcome send(Command command) {
        commands.pipeInput(CommandKey.of(command).value(), LogCodecs.COMMAND.encode(command), clock.instant());
        return outcomeOf(command.id()).orElseThrow(() -> new AssertionError("no outcome for " + command));
    }

    /** Sends raw bytes under a key; returns nothing (there may be no outcome). */
    void sendRaw(String key, byte[] value) {
        commands.pipeInput(key, value, clock.instant());
    }

    Optional<Outcome> outcomeOf(String commandId) {
        drain();
        return seenOutcomes.stream().filter(o -> o.commandId().equals(commandId)).reduce((a, b) -> b);
    }

    List<ChangeEvent> changes() {
        drain();
        return seenChanges;
    }

    private void drain() {
        seenOutcomes.addAll(outcomes.readValuesToList());
        seenChanges.addAll(changes.readValuesToList());
    }

    long givenTable(String name) {
        return givenTable(name, null);
    }

    long givenTable(String name, Integer ttl) {
        Outcome o = send(TableCommand.create(header(), TableName.of(name), ttl));
        if (!o.succeeded()) {
            throw new AssertionError("table not created: " + o.failure());
        }
        return o.table().tableId();
    }

    Outcome setAcl(String table, List<AccessPolicy> policies) {
        return send(TableCommand.setAcl(header(), TableName.of(table), policies));
    }

    Outcome setServiceProperties(ServicePropertiesUpdate update) {
        return send(AccountCommand.setServiceProperties(header(), update));
    }

    /** The registry as the global store holds it. */
    RegistryView registry() {
        return new RegistryView(driver.getKeyValueStore(StoreNames.REGISTRY));
    }

    Outcome write(long tableId, String table, String pk, EntityOperation op) {
        return send(EntityCommand.single(header(), tableId, TableName.of(table), pk, op));
    }

    Outcome insert(long tableId, String table, String pk, String rk, Map<String, EdmValue> props) {
        return write(tableId, table, pk, EntityOperation.of(EntityOperation.Type.INSERT, rk, null, props));
    }

    /** The table as the task's partition knows it from announcements. */
    Optional<TableRecord> partitionTable(long tableId) {
        KeyValueStore<String, byte[]> store = driver.getKeyValueStore(StoreNames.PARTITION_TABLES);
        return Optional.ofNullable(store.get("id/" + tableId)).map(LogCodecs.TABLE_RECORD::decode);
    }

    /** Puts a table record straight on the registry topic, as if registered long ago. */
    void register(TableRecord table) {
        registryInput.pipeInput("id/" + table.tableId(), LogCodecs.TABLE_RECORD.encode(table), clock.instant());
    }

    Optional<StoredEntity> stored(long tableId, String pk, String rk) {
        KeyValueStore<Bytes, byte[]> store = driver.getKeyValueStore(StoreNames.ENTITIES);
        byte[] v = store.get(Bytes.wrap(KeyCodec.encode(EntityKey.of(tableId, pk, rk))));
        return Optional.ofNullable(v).map(b -> StoredEntityCodec.decode(pk, rk, b));
    }

    long rowCount() {
        KeyValueStore<Bytes, byte[]> store = driver.getKeyValueStore(StoreNames.ENTITIES);
        long n = 0;
        try (var it = store.all()) {
            while (it.hasNext()) {
                it.next();
                n++;
            }
        }
        return n;
    }

    List<TestRecord<byte[], byte[]>> deadLetters() {
        return deadLetters.readRecordsToList();
    }

    /** Moves both the processor's clock and the driver's wall clock (firing punctuators). */
    void advance(Duration d) {
        clock.advance(d);
        driver.advanceWallClockTime(d);
    }

    @Override
    public void close() {
        driver.close();
        try {
            org.apache.kafka.common.utils.Utils.delete(stateDir.toFile());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
