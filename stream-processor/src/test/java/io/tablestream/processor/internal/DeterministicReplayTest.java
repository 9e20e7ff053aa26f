package io.tablestream.processor.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablestream.core.command.ChangeEvent;
import io.tablestream.core.command.Command;
import io.tablestream.core.command.CommandHeader;
import io.tablestream.core.command.CommandKey;
import io.tablestream.core.command.EntityChange;
import io.tablestream.core.command.EntityCommand;
import io.tablestream.core.command.JobCommand;
import io.tablestream.core.command.JobSpec;
import io.tablestream.core.command.JobStep;
import io.tablestream.core.command.EntityOperation.Type;
import io.tablestream.core.command.EntityOperation;
import io.tablestream.core.command.Outcome;
import io.tablestream.core.command.PartitionDeletion;
import io.tablestream.core.command.TableCommand;
import io.tablestream.core.command.TransactionCommand;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.model.ETag;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.EdmInt32;
import io.tablestream.core.model.EdmString;
import io.tablestream.core.model.EdmValue;
import io.tablestream.core.model.StoredEntity;
import io.tablestream.core.model.TableName;
import io.tablestream.core.rules.IndexRules;
import io.tablestream.processor.ApplyObserver;
import io.tablestream.processor.MutableClock;
import io.tablestream.processor.ProcessorSettings;
import io.tablestream.processor.StreamProcessorMetrics;
import io.tablestream.processor.Topics;
import io.tablestream.processor.WriteAnswers;
import io.tablestream.processor.decide.EntityDecider;
import io.tablestream.processor.store.AppliedOffsets;
import io.tablestream.processor.store.RegistryEvents;
import io.tablestream.processor.store.StoreNames;
import io.tablestream.schemas.LogCodecs;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;

/**
 * A task's decisions are a pure function of its partition's log. One task ("the original") works
 * through a log of writes — tables created and deleted, inserts, conditional updates, batches,
 * entities expiring, clocks that disagree — with punctuators firing as they would. Then, for every
 * point of that log taken as the last commit, another task ("the replay") starts from the stores as
 * they were at that point and replays the rest of the same log, as after a crash: with a wall clock
 * days later, a registry view that already shows the tables deleted and re-created after that
 * point, and every punctuator firing after every record. The replay must decide every command
 * exactly as the original did — status, error, failing index, Timestamps (so ETags), table ids —
 * and emit the same change events; and the stores end equal.
 */
class DeterministicReplayTest {
    private static final String ACCOUNT = "acct";
    private static final Instant T0 = Instant.parse("2024-05-01T12:00:00Z");
    private static final Topics TOPICS = Topics.withPrefix("ts");
    /** The task's own stores and their key types (the global registry store is set apart). */
    private static final Map<String, Serde<?>> STORES = Map.ofEntries(Map.entry(StoreNames.ENTITIES, Serdes.Bytes()),
            Map.entry(StoreNames.EXPIRY, Serdes.Bytes()), Map.entry(StoreNames.TASK_META, Serdes.String()),
            Map.entry(StoreNames.TABLE_NAMES, Serdes.String()), Map.entry(StoreNames.ACCOUNTS, Serdes.String()),
            Map.entry(StoreNames.PARTITION_TABLES, Serdes.String()), Map.entry(StoreNames.HISTORY, Serdes.Bytes()),
            Map.entry(StoreNames.INDEXES, Serdes.Bytes()), Map.entry(StoreNames.INDEX_BUILDS, Serdes.String()),
            Map.entry(StoreNames.TRANSACTIONS, Serdes.String()), Map.entry(StoreNames.JOBS, Serdes.String()));

    /** One record of the partition's log, as Kafka would hold it. */
    private record LogRecord(byte[] key, byte[] value, long timestamp) {
    }

    /** What one task emitted while processing the record at an offset. */
    private record Emitted(List<Outcome> outcomes, List<ChangeEvent> changes) {
    }

    @Test
    void aReplayFromAnyCommitPointDecidesEveryCommandAsTheOriginalDid() {
        Task original = new Task(new MutableClock(T0), null, true);
        List<LogRecord> log = new ArrayList<>();
        Map<Long, Emitted> originalByOffset = new LinkedHashMap<>();
        List<Map<String, Map<Object, byte[]>>> snapshots = new ArrayList<>(); // stores after each offset
        Workload workload = new Workload(original, log, originalByOffset, snapshots);
        workload.run();
        original.expireAll();

        assertThat(workload.sawEveryKindOfOutcome()).isTrue();
        assertThat(original.handedOff).as("every awaited outcome is handed over as decided")
                .containsExactlyElementsOf(originalByOffset.values().stream().flatMap(e -> e.outcomes().stream())
                        .filter(o -> o.replyTo() != null).toList());

        Map<String, byte[]> laterRegistry = original.registryRecords();
        for (int commit = -1; commit < log.size() - 1; commit++) {
            MutableClock later = new MutableClock(T0.plus(Duration.ofDays(3)));
            Task replay = new Task(later, commit < 0 ? null : snapshots.get(commit), false);
            replay.registry(laterRegistry);
            for (int offset = commit + 1; offset < log.size(); offset++) {
                Emitted e = replay.process(log.get(offset), offset);
                Emitted o = originalByOffset.get((long) offset);
                assertThat(e.outcomes()).as("outcomes of offset %d replayed from commit %d", offset, commit)
                        .isEqualTo(o.outcomes());
                assertThat(withoutExpiries(e.changes())).as("changes of offset %d replayed from commit %d", offset, commit)
                        .isEqualTo(withoutExpiries(o.changes()));
                later.advance(Duration.ofHours(1));
                replay.fireEveryPunctuator();
            }
            replay.expireAll();
            assertThat(replay.dump(StoreNames.ENTITIES)).as("entities replayed from commit %d", commit)
                    .isEqualTo(original.dump(StoreNames.ENTITIES));
            assertThat(replay.dump(StoreNames.INDEXES)).as("index entries replayed from commit %d", commit)
                    .isEqualTo(original.dump(StoreNames.INDEXES));
            assertThat(replay.dump(StoreNames.TRANSACTIONS)).as("transactions replayed from commit %d", commit)
                    .isEqualTo(original.dump(StoreNames.TRANSACTIONS));
            assertThat(replay.dump(StoreNames.JOBS)).as("jobs replayed from commit %d", commit)
                    .isEqualTo(original.dump(StoreNames.JOBS));
        }
        assertThat(workload.copied()).as("a copy of the present, with writes between its steps")
                .isEqualTo(workload.snapshot());
    }

    @Test
    void decidingTheSameCommandTwiceOnTheSameRowsGivesTheSameDecision() {
        EntityCommand command = EntityCommand.batch(header(Long.MAX_VALUE), 7L, TableName.of("Things"), "p", List.of(
                EntityOperation.of(Type.INSERT_OR_MERGE, "a", null, Map.of("V", EdmInt32.of(1))),
                EntityOperation.of(Type.MERGE, "b", "*", Map.of("W", EdmString.of("x"))),
                EntityOperation.delete("c", null)));
        EdmDateTime at = EdmDateTime.of(T0);
        var existing = Map.of(
                "a", new StoredEntity(io.tablestream.core.model.Entity.of("p", "a", Map.of("U", EdmInt32.of(0)))
                        .withVersion(at.plusTicks(-5)), null),
                "b", new StoredEntity(io.tablestream.core.model.Entity.of("p", "b", Map.of()).withVersion(at.plusTicks(-3)),
                        at.plusTicks(100)),
                "c", new StoredEntity(io.tablestream.core.model.Entity.of("p", "c", Map.of()).withVersion(at.plusTicks(-1)),
                        null));

        var first = EntityDecider.decide(command, existing::get, at, 60);
        var second = EntityDecider.decide(command, existing::get, at, 60);

        assertThat(first.succeeded()).isTrue();
        assertThat(second).isEqualTo(first);
    }

    private static List<ChangeEvent> withoutExpiries(List<ChangeEvent> changes) {
        return changes.stream().filter(c -> c.change().type() != EntityChange.Type.EXPIRED).toList();
    }

    private static CommandHeader header(long acceptedAtMillis) {
        return new CommandHeader(UUID.randomUUID().toString(), ACCOUNT, acceptedAtMillis, "instance-1", "tester");
    }

    /**
     * Drives the original task through writes of every kind, appending each to the log — and,
     * as Kafka would after the task's commit, the notices the task wrote to its own partition.
     */
    private static final class Workload {
        private final Task task;
        private final List<LogRecord> log;
        private final Map<Long, Emitted> byOffset;
        private final List<Map<String, Map<Object, byte[]>>> snapshots;
        private final List<ErrorCode> failures = new ArrayList<>();
        private Instant now = T0;

        Workload(Task task, List<LogRecord> log, Map<Long, Emitted> byOffset,
                 List<Map<String, Map<Object, byte[]>>> snapshots) {
            this.task = task;
            this.log = log;
            this.byOffset = byOffset;
            this.snapshots = snapshots;
        }

        void run() {
            long orders = send(TableCommand.create(header(at()), TableName.of("Orders"), null)).table().tableId();
            long sensors = send(TableCommand.create(header(at()), TableName.of("Sensors"), 30)).table().tableId();
            Outcome a = write(orders, "p", EntityOperation.of(Type.INSERT, "a", null, props(1)));
            write(orders, "p", EntityOperation.of(Type.INSERT, "a", null, props(2)));                 // 409
            String etagA = ETag.forTimestamp(a.results().get(0).timestamp()).value();
            write(orders, "p", EntityOperation.of(Type.MERGE, "a", etagA, Map.of("W", EdmInt32.of(2))));
            write(orders, "p", EntityOperation.of(Type.MERGE, "a", etagA, Map.of("W", EdmInt32.of(3)))); // 412
            write(orders, "p", EntityOperation.of(Type.INSERT_OR_MERGE, "b", null, props(4)));
            batch(orders, "p", EntityOperation.of(Type.INSERT, "c", null, props(5)),
                    EntityOperation.of(Type.REPLACE, "a", "*", props(6)), EntityOperation.delete("b", "*"));
            batch(orders, "p", EntityOperation.of(Type.INSERT, "d", null, props(7)),
                    EntityOperation.of(Type.INSERT, "a", null, props(8)));                              // 409 at 1
            write(orders, "q", EntityOperation.delete("nope", "*"));                                    // 404

            write(sensors, "d", EntityOperation.of(Type.INSERT, "x", null, props(9)));                 // table TTL 30 s
            write(sensors, "d", EntityOperation.of(Type.INSERT, "y", null,
                    Map.of("TTLInSeconds", EdmInt32.of(-1))));
            write(sensors, "d", EntityOperation.of(Type.INSERT, "z", null, Map.of("TTLInSeconds", EdmInt32.of(5))));
            write(sensors, "d", EntityOperation.of(Type.INSERT, "w", null, Map.of("TTLInSeconds", EdmInt32.of(600))));
            // a secondary index (built by a punctuator) and a transaction over both tables, one part failing
            send(TableCommand.createIndex(header(at()), TableName.of("Orders"), IndexRules.requested("ByV", "V")));
            write(orders, "p", EntityOperation.of(Type.INSERT_OR_REPLACE, "c", null, props(40)));
            CommandHeader tx = header(at());
            send(new TransactionCommand(tx, "tx-1", List.of(
                    EntityCommand.part(LogCodecs.partHeader(tx, "tx-1", 0), orders, TableName.of("Orders"), "t",
                            List.of(EntityOperation.of(Type.INSERT, "1", null, props(41))), "tx-1", 0),
                    EntityCommand.part(LogCodecs.partHeader(tx, "tx-1", 1), sensors, TableName.of("Sensors"), "d",
                            List.of(EntityOperation.of(Type.INSERT, "y", null, props(42))), "tx-1", 1))));  // 409
            now = now.plusSeconds(20);
            write(sensors, "d", EntityOperation.of(Type.MERGE, "z", "*", props(10)));                  // 404: expired
            now = now.plusSeconds(30);
            write(sensors, "d", EntityOperation.of(Type.INSERT, "x", null, props(11)));                 // expired: insert again
            write(sensors, "d", EntityOperation.of(Type.MERGE, "w", "*", props(12)));                  // not yet expired
            jobs(orders);
            // a whole partition deleted (its rows swept by a punctuator whenever it runs), then written again
            send(new PartitionDeletion(header(at()), orders, TableName.of("Orders"), "p"));
            write(orders, "p", EntityOperation.of(Type.INSERT, "a", null, props(50)));                 // gone: inserted
            write(orders, "p", EntityOperation.of(Type.MERGE, "c", "*", props(51)));                   // gone: 404
            write(orders, "p", EntityOperation.of(Type.INSERT_OR_MERGE, "d", null, props(52)));
            // A wall-clock punctuation in the original: the idle partition's clock moves by a marker.
            task.clock.advance(Duration.ofMinutes(5));
            task.fireEveryPunctuator();
            appendNotices();
            // Commands whose own time disagrees: in the same millisecond, from a slow clock, from the future.
            long same = now.toEpochMilli();
            sendAt(EntityCommand.single(header(same), orders, TableName.of("Orders"), "r",
                    EntityOperation.of(Type.INSERT, "1", null, props(12))), same);
            sendAt(EntityCommand.single(header(same), orders, TableName.of("Orders"), "r",
                    EntityOperation.of(Type.INSERT, "2", null, props(13))), same);
            sendAt(EntityCommand.single(header(same - 60_000), orders, TableName.of("Orders"), "r",
                    EntityOperation.of(Type.INSERT, "3", null, props(14))), same);
            sendAt(EntityCommand.single(header(same + 86_400_000), orders, TableName.of("Orders"), "r",
                    EntityOperation.of(Type.INSERT, "4", null, props(15))), same + 1);

            send(TableCommand.delete(header(at()), TableName.of("Orders")));
            write(orders, "p", EntityOperation.of(Type.INSERT, "late", null, props(16)));               // table gone
            long again = send(TableCommand.create(header(at()), TableName.of("Orders"), null)).table().tableId();
            write(again, "p", EntityOperation.of(Type.INSERT, "a", null, props(17)));
            task.clock.advance(Duration.ofMinutes(5));
            task.fireEveryPunctuator();
            appendNotices(); // sweeps the deleted table's rows
            write(again, "p", EntityOperation.of(Type.INSERT, "b", null, props(18)));
        }

        /** The rows of the copy of Orders, and of Orders when the copy reached the partition. */
        private Map<String, Map<String, EdmValue>> copiedRows;
        private Map<String, Map<String, EdmValue>> snapshotRows;
        private final List<LogRecord> held = new ArrayList<>();

        /**
         * Two jobs, two rows a step, each step followed by a write to the rows they walk: a copy of
         * Orders' present (it keeps no history: a row about to change is copied first) and a deletion
         * by filter. The copy must hold Orders as it stood when the copy reached the partition.
         */
        private void jobs(long orders) {
            for (int i = 0; i < 8; i++) {
                write(orders, "j", EntityOperation.of(Type.INSERT, "j" + i, null, props(60 + i)));
            }
            hold(new JobCommand(header(at()), new JobSpec.Restore(orders, TableName.of("Orders"),
                    TableName.of("OrdersCopy"), null)));
            interleave(orders);
            copiedRows = rowsOf(task.tableIdOf("OrdersCopy"));
            hold(new JobCommand(header(at()), new JobSpec.DeleteEntities(orders, TableName.of("Orders"),
                    "V lt 68 and PartitionKey eq 'j'")));
            interleave(orders);
        }

        /** Releases the held records one by one, a write to Orders after each. */
        private void interleave(long orders) {
            for (int k = 0; !held.isEmpty(); k++) {
                LogRecord next = held.remove(0);
                if (snapshotRows == null && LogCodecs.COMMAND.decode(next.value()) instanceof JobStep step
                        && step.seq() == 0) {
                    snapshotRows = rowsOf(orders);
                }
                held.addAll(append(next));
                switch (k % 3) {
                    case 0 -> write(orders, "j", EntityOperation.of(Type.INSERT_OR_MERGE, "j" + k % 8, null,
                            props(90 + k)));
                    case 1 -> write(orders, "j", EntityOperation.delete("j" + (k + 3) % 8, "*"));
                    default -> write(orders, "j", EntityOperation.of(Type.INSERT_OR_REPLACE, "n" + k, null,
                            props(50 + k)));
                }
            }
        }

        /** Appends a command, processes it, and holds what it wrote to the log instead of processing that. */
        private void hold(Command command) {
            held.addAll(append(new LogRecord(CommandKey.of(command).value().getBytes(StandardCharsets.UTF_8),
                    LogCodecs.COMMAND.encode(command), command.header().acceptedAtMillis())));
        }

        /** Appends one record and processes it; returns the notices it wrote. */
        private List<LogRecord> append(LogRecord record) {
            task.clock.advance(Duration.ofSeconds(1));
            long offset = log.size();
            log.add(record);
            byOffset.put(offset, task.process(record, offset));
            snapshots.add(task.snapshot());
            return task.notices();
        }

        private Map<String, Map<String, EdmValue>> rowsOf(long tableId) {
            return task.rows(tableId);
        }

        Map<String, Map<String, EdmValue>> copied() {
            return copiedRows;
        }

        Map<String, Map<String, EdmValue>> snapshot() {
            return snapshotRows;
        }

        boolean sawEveryKindOfOutcome() {
            return failures.containsAll(List.of(ErrorCode.ENTITY_ALREADY_EXISTS, ErrorCode.UPDATE_CONDITION_NOT_SATISFIED,
                    ErrorCode.RESOURCE_NOT_FOUND, ErrorCode.TABLE_NOT_FOUND));
        }

        private long at() {
            now = now.plusSeconds(1);
            return now.toEpochMilli();
        }

        private Outcome write(long tableId, String pk, EntityOperation op) {
            String name = "Things";
            return send(EntityCommand.single(header(at()), tableId, TableName.of(name), pk, op));
        }

        private Outcome batch(long tableId, String pk, EntityOperation... ops) {
            return send(EntityCommand.batch(header(at()), tableId, TableName.of("Things"), pk, List.of(ops)));
        }

        private Outcome send(Command command) {
            return sendAt(command, command.header().acceptedAtMillis());
        }

        /** Appends the command at {@code recordTimestamp}, processes it and whatever it wrote to the log. */
        private Outcome sendAt(Command command, long recordTimestamp) {
            task.clock.advance(Duration.ofSeconds(1));
            Outcome outcome = null;
            List<LogRecord> pending = new ArrayList<>(List.of(new LogRecord(
                    CommandKey.of(command).value().getBytes(StandardCharsets.UTF_8), LogCodecs.COMMAND.encode(command),
                    recordTimestamp)));
            while (!pending.isEmpty()) {
                LogRecord record = pending.remove(0);
                long offset = log.size();
                log.add(record);
                Emitted emitted = task.process(record, offset);
                byOffset.put(offset, emitted);
                snapshots.add(task.snapshot());
                for (Outcome o : emitted.outcomes()) {
                    if (o.commandId().equals(command.id())) {
                        outcome = o;
                        if (!o.succeeded()) {
                            failures.add(o.failure().code());
                        }
                    }
                }
                pending.addAll(task.notices());
            }
            return outcome;
        }

        private void appendNotices() {
            List<LogRecord> pending = new ArrayList<>(task.notices());
            while (!pending.isEmpty()) {
                LogRecord record = pending.remove(0);
                long offset = log.size();
                log.add(record);
                byOffset.put(offset, task.process(record, offset));
                snapshots.add(task.snapshot());
                pending.addAll(task.notices());
            }
        }

        private static Map<String, EdmValue> props(int v) {
            return Map.of("V", EdmInt32.of(v), "S", EdmString.of("s" + v));
        }
    }

    /** One task over in-memory stores, fed record by record, its punctuators fired by hand. */
    private static final class Task {
        final MutableClock clock;
        final List<Outcome> handedOff = new ArrayList<>();
        private final MockProcessorContext<byte[], byte[]> context = new MockProcessorContext<>();
        private final CommandProcessor processor;
        private final List<LogRecord> notices = new ArrayList<>();
        private final Map<String, byte[]> published = new LinkedHashMap<>();
        private final boolean feedsOwnRegistry;

        /**
         * @param restoredFrom the stores as of the last commit, or null for empty ones
         * @param feedsOwnRegistry whether the task's registry view shows its own registry records at
         *     once, as a prompt global thread would (the original); else the view is set by hand
         */
        Task(MutableClock clock, Map<String, Map<Object, byte[]>> restoredFrom, boolean feedsOwnRegistry) {
            this.clock = clock;
            this.feedsOwnRegistry = feedsOwnRegistry;
            STORES.forEach((name, keySerde) -> {
                KeyValueStore<Object, byte[]> store = store(name, keySerde);
                if (restoredFrom != null) {
                    restoredFrom.get(name).forEach(store::put);
                }
            });
            store(StoreNames.REGISTRY, Serdes.String());
            ProcessorSettings settings = new ProcessorSettings(TOPICS, 1,
                    io.tablestream.processor.Housekeeping.DEFAULTS.withSweep(Duration.ofSeconds(5), 1000).withJobSteps(2),
                    clock, new AppliedOffsets(), new RegistryEvents(), ApplyObserver.NONE,
                    WriteAnswers.atDecision(outcome -> {
                        handedOff.add(outcome);
                        return false; // the outcome is written too: the test compares every output
                    }), new io.tablestream.processor.store.TransactionProgress(),
                    new StreamProcessorMetrics(1));
            processor = new CommandProcessor(settings);
            processor.init(context);
        }

        @SuppressWarnings("unchecked")
        private <K> KeyValueStore<K, byte[]> store(String name, Serde<?> keySerde) {
            KeyValueStore<K, byte[]> store = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(name),
                    (Serde<K>) keySerde, Serdes.ByteArray()).withLoggingDisabled().build();
            store.init(context.getStateStoreContext(), store);
            context.addStateStore(store);
            return store;
        }

        /** Fills the global registry store: the view a later moment would have. */
        void registry(Map<String, byte[]> records) {
            records.forEach(this::registry);
        }

        private void registry(String key, byte[] value) {
            KeyValueStore<String, byte[]> registry = context.getStateStore(StoreNames.REGISTRY);
            if (value == null) {
                registry.delete(key);
            } else {
                registry.put(key, value);
            }
        }

        /** The registry records this task published, latest per key (a tombstone as null). */
        Map<String, byte[]> registryRecords() {
            return published;
        }

        Emitted process(LogRecord r, long offset) {
            context.resetForwards();
            context.setRecordMetadata(TOPICS.commands().name(), 0, offset);
            processor.process(new Record<>(r.key(), r.value(), r.timestamp()));
            return collect();
        }

        /** Fires every punctuator once, at the wall clock's time. */
        void fireEveryPunctuator() {
            context.resetForwards();
            for (var p : context.scheduledPunctuators()) {
                if (!p.cancelled() && p.getType() == PunctuationType.WALL_CLOCK_TIME) {
                    p.getPunctuator().punctuate(clock.millis());
                }
            }
            collect();
        }

        /** Runs the expiry until nothing is left expired at the partition's clock. */
        void expireAll() {
            for (int i = 0; i < 10; i++) {
                fireEveryPunctuator();
            }
        }

        /** The notices (announcements, markers) the last step wrote to the partition, now taken. */
        List<LogRecord> notices() {
            List<LogRecord> taken = new ArrayList<>(notices);
            notices.clear();
            return taken;
        }

        private Emitted collect() {
            List<Outcome> outcomes = new ArrayList<>();
            List<ChangeEvent> changes = new ArrayList<>();
            for (var f : context.forwarded()) {
                String sink = f.childName().orElseThrow();
                byte[] key = (byte[]) f.record().key();
                byte[] value = (byte[]) f.record().value();
                switch (sink) {
                    case Sinks.OUTCOMES -> outcomes.add(LogCodecs.OUTCOME.decode(value));
                    case Sinks.CHANGES -> changes.add(LogCodecs.CHANGE_EVENT.decode(value));
                    case Sinks.ANNOUNCEMENTS, Sinks.MARKERS, Sinks.TRANSACTIONS -> notices.add(new LogRecord(key, value, f.record().timestamp()));
                    case Sinks.TABLES -> {
                        published.put(new String(key, StandardCharsets.UTF_8), value);
                        if (feedsOwnRegistry) {
                            registry(new String(key, StandardCharsets.UTF_8), value);
                        }
                    }
                    default -> { }
                }
            }
            return new Emitted(outcomes, changes);
        }

        Map<String, Map<Object, byte[]>> snapshot() {
            Map<String, Map<Object, byte[]>> copy = new LinkedHashMap<>();
            for (String name : STORES.keySet()) {
                copy.put(name, dump(name, v -> v));
            }
            return copy;
        }

        /** A store's content, values mapped by {@code value}. */
        private <V> Map<Object, V> dump(String name, java.util.function.Function<byte[], V> value) {
            Map<Object, V> out = new LinkedHashMap<>();
            KeyValueStore<Object, byte[]> store = context.getStateStore(name);
            try (KeyValueIterator<Object, byte[]> it = store.all()) {
                while (it.hasNext()) {
                    KeyValue<Object, byte[]> kv = it.next();
                    out.put(kv.key, value.apply(kv.value));
                }
            }
            return out;
        }

        /** The rows of table {@code tableId}, "pk/rk" to properties. */
        Map<String, Map<String, EdmValue>> rows(long tableId) {
            Map<String, Map<String, EdmValue>> out = new java.util.TreeMap<>();
            dump(StoreNames.ENTITIES, v -> v).forEach((k, v) -> {
                byte[] key = ((Bytes) k).get();
                if (io.tablestream.core.storekey.KeyCodec.tableId(key) == tableId) {
                    var entityKey = io.tablestream.core.storekey.KeyCodec.decode(key);
                    out.put(entityKey.partitionKey() + "/" + entityKey.rowKey(), io.tablestream.schemas.StoredEntityCodec
                            .decode(entityKey.partitionKey(), entityKey.rowKey(), v).entity().properties());
                }
            });
            return out;
        }

        /** The id of the live table {@code name} this task published. */
        long tableIdOf(String name) {
            byte[] record = published.get(RegistryKey.byName(ACCOUNT, TableName.of(name)));
            return LogCodecs.TABLE_RECORD.decode(record).tableId();
        }

        /** A store's content with values as comparable strings. */
        Map<Object, String> dump(String name) {
            return dump(name, v -> java.util.HexFormat.of().formatHex(v));
        }
    }
}
