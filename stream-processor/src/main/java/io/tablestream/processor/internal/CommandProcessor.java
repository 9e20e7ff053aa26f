package io.tablestream.processor.internal;

import io.tablestream.core.command.AccountCommand;
import io.tablestream.core.command.BulkCommand;
import io.tablestream.core.command.ChangeEvent;
import io.tablestream.core.command.Command;
import io.tablestream.core.command.CommandHeader;
import io.tablestream.core.command.CommandKey;
import io.tablestream.core.command.EntityChange;
import io.tablestream.core.command.EntityCommand;
import io.tablestream.core.command.JobCommand;
import io.tablestream.core.command.JobReport;
import io.tablestream.core.command.JobStep;
import io.tablestream.core.command.Outcome;
import io.tablestream.core.command.PartitionMarker;
import io.tablestream.core.command.PartitionDeletion;
import io.tablestream.core.command.TableAnnouncement;
import io.tablestream.core.command.TableCommand;
import io.tablestream.core.command.TransactionCommand;
import io.tablestream.core.command.TransactionReport;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.model.AccountRecord;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.EntityKey;
import io.tablestream.core.model.StoredEntity;
import io.tablestream.core.model.TableRecord;
import io.tablestream.core.rules.CommandRules;
import io.tablestream.core.storekey.KeyCodec;
import io.tablestream.processor.Housekeeping;
import io.tablestream.processor.ProcessorSettings;
import io.tablestream.processor.WriteAnswers;
import io.tablestream.processor.decide.AccountDecider;
import io.tablestream.processor.decide.EntityDecider;
import io.tablestream.processor.decide.EntityDecision;
import io.tablestream.processor.decide.TableDecider;
import io.tablestream.processor.decide.TableDecision;
import io.tablestream.processor.store.StoreNames;
import io.tablestream.schemas.LogCodecs;
import io.tablestream.schemas.LogFormatException;
import io.tablestream.schemas.LogPartitioner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.kafka.streams.processor.Cancellable;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.Punctuator;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The single writer of one command partition: decodes each command, checks it again, decides it
 * against the task's stores, applies the changes, and emits change events, registry records and
 * one outcome — all inside the task's exactly-once transaction. A record that cannot be decoded or
 * is invalid is answered with an error outcome (when its header is readable) and dead-lettered;
 * it never stops the partition.
 *
 * <p>Every decision is a pure function of the partition's log: the task's stores (built from it),
 * the command, and the partition's clock ({@link TaskState}), whose time comes from the commands
 * and the task's own markers — never the wall clock, never the registry's global view (tables are
 * known from announcements in the partition, {@link PartitionTables}), never the timing of a
 * punctuator (expiry judges at the partition's clock, the sweep only removes tables the partition
 * has seen deleted). A replay after a crash therefore decides every command exactly as before,
 * which is what lets a write be answered as soon as it is decided ({@link WriteAnswers}).
 *
 * <p>One class, over 400 lines: it is the task's single writer, so the order of its steps per
 * record (decode, admit, decide, apply, answer, emit) is the order of the transaction. The decisions
 * themselves are pure functions elsewhere ({@code processor/decide}), the row keeping in
 * {@link EntityRows}, {@link PartitionIndexes} and {@link TransactionCoordinator}; what stays here is
 * the sequence and the per-kind dispatch.
 */
final class CommandProcessor implements Processor<byte[], byte[], byte[], byte[]> {
    private static final Logger LOG = LoggerFactory.getLogger(CommandProcessor.class);
    private static final String UNREADABLE_ROW = "A stored entity cannot be read.";

    private final ProcessorSettings settings;
    private ProcessorContext<byte[], byte[]> context;
    private Outputs outputs;
    private TaskState taskState;
    private EntityRows rows;
    private HistoryRows history;
    private KeyValueStore<String, byte[]> tableNames;
    private KeyValueStore<String, byte[]> accounts;
    private RegistryView registry;
    private PartitionTables tables;
    private PartitionIndexes indexes;
    private TransactionCoordinator transactions;
    private JobCoordinator jobs;
    private PartitionJobs jobShares;
    /** The transaction's part being decided, if the command being decided is one. */
    private EntityCommand part;
    /** The job's write (a restore's copies) being decided, if the command being decided is one. */
    private EntityCommand jobWrite;
    /** The entity command being handled is a single write (no change set's, transaction's, bulk write's or job's): timed. */
    private boolean timedSingleWrite;
    private int ownPartition;
    /** This incarnation of the task: its partition markers carry it. */
    private String incarnation;
    /** When this incarnation started ({@link System#nanoTime()}), until its marker is back (then -1). */
    private long replayingSince;
    private Cancellable startMarker;
    /** The index builds' punctuation, scheduled only while a build or sweep is pending here (else null). */
    private Cancellable indexBuilds;
    /** The expiry's punctuation, scheduled only while the task holds an entity with a time to live (else null). */
    private Cancellable expiry;
    /** What this incarnation handed over to readers ({@link ActiveTaskStores#started}). */
    private Object readersHold;
    /** A marker this incarnation wrote to move an idle partition's clock is not yet back. */
    private boolean tickPending;
    /**
     * The change events of the command being processed, applied to the stores already: they go out
     * after its answer ({@link #publishDecidedChanges}), in the order they were decided.
     */
    private final List<ChangeEvent> decidedChanges = new ArrayList<>();

    CommandProcessor(ProcessorSettings settings) {
        this.settings = settings;
    }

    @Override
    public void init(ProcessorContext<byte[], byte[]> context) {
        this.context = context;
        this.outputs = new Outputs(context, settings.metrics());
        this.taskState = new TaskState(context.getStateStore(StoreNames.TASK_META));
        this.history = new HistoryRows(context.getStateStore(StoreNames.HISTORY));
        this.tableNames = context.getStateStore(StoreNames.TABLE_NAMES);
        this.accounts = context.getStateStore(StoreNames.ACCOUNTS);
        this.registry = new RegistryView(context.getStateStore(StoreNames.REGISTRY));
        this.tables = new PartitionTables(context.getStateStore(StoreNames.PARTITION_TABLES), registry);
        this.indexes = new PartitionIndexes(context.getStateStore(StoreNames.INDEXES),
                context.getStateStore(StoreNames.INDEX_BUILDS), context.getStateStore(StoreNames.ENTITIES),
                tables::indexes);
        this.transactions = new TransactionCoordinator(context.getStateStore(StoreNames.TRANSACTIONS), outputs,
                this::answer, settings.transactions());
        this.rows = new EntityRows(context.getStateStore(StoreNames.ENTITIES), context.getStateStore(StoreNames.EXPIRY),
                indexes, tables::indexes);
        this.ownPartition = context.taskId().partition();
        this.jobs = new JobCoordinator(context.getStateStore(StoreNames.JOBS), outputs, tables, this::answer,
                settings.commandPartitions(), settings.clock());
        this.jobShares = new PartitionJobs(context.getStateStore(StoreNames.JOBS),
                context.getStateStore(StoreNames.ENTITIES), context.getStateStore(StoreNames.HISTORY), rows, history,
                tables, taskState, outputs, settings.observer(), ownPartition, settings.housekeeping().jobStepBatch(),
                settings.clock());
        rows.watch(jobShares::beforeChange);
        this.incarnation = UUID.randomUUID().toString();
        this.replayingSince = System.nanoTime();
        this.tickPending = false;
        // The store holds what the last commit held; answered writes after it come back with the replay.
        settings.appliedOffsets().restored(ownPartition, taskState.appliedOffset());
        this.startMarker = context.schedule(Duration.ofMillis(1), PunctuationType.WALL_CLOCK_TIME, this::markStart);
        Housekeeping housekeeping = settings.housekeeping();
        rows.whenExpiring(this::scheduleExpiry);
        if (rows.anyExpiring()) {
            scheduleExpiry();
        }
        DeletedRowsSweep deletedRows = new DeletedRowsSweep(tables, rows, housekeeping.sweepBatch(),
                settings.metrics()::swept);
        scheduleOnTheClock(housekeeping.sweepInterval(), wallClockMillis -> {
            deletedRows.sweep(wallClockMillis);
            history.sweep(EdmDateTime.of(settings.clock().instant()), tables::byId, jobShares::readsHistoryOf,
                    housekeeping.sweepBatch());
        });
        scheduleIndexBuildsIfPending();
        // last: readers read this task's stores only once it has started without failing
        this.readersHold = settings.activeStores().started(ownPartition, context::getStateStore);
    }

    /**
     * Schedules the expiry's punctuation, if it is not scheduled: while the task holds an entity with a
     * time to live, and only then (see {@link #scheduleIndexBuildsIfPending} for why).
     */
    private void scheduleExpiry() {
        if (expiry == null) {
            expiry = context.schedule(settings.housekeeping().expiryInterval(), PunctuationType.WALL_CLOCK_TIME,
                    this::expire);
        }
    }

    /**
     * Schedules {@code punctuator} every {@code interval} from the wall clock's next multiple of it, when
     * it runs first: the tasks of a stream thread then run it in the same pass of the thread's loop, and
     * dirty one commit together instead of one each.
     */
    private void scheduleOnTheClock(Duration interval, Punctuator punctuator) {
        long every = interval.toMillis();
        long delay = every - Math.floorMod(settings.clock().millis(), every);
        Cancellable[] first = new Cancellable[1];
        first[0] = context.schedule(Duration.ofMillis(delay), PunctuationType.WALL_CLOCK_TIME, wallClockMillis -> {
            first[0].cancel();
            punctuator.punctuate(wallClockMillis);
            context.schedule(interval, PunctuationType.WALL_CLOCK_TIME, punctuator);
        });
    }

    /**
     * Schedules the index builds' punctuation while a build or sweep is pending, and only then: every
     * punctuation that runs marks the task as needing a commit, and under exactly-once each commit is a
     * transaction (its offsets, its markers), so a punctuation every 20 ms had an idle server commit two
     * transactions a second per stream thread with nothing written.
     */
    private void scheduleIndexBuildsIfPending() {
        if (indexBuilds == null && indexes.hasPendingBuilds()) {
            Housekeeping housekeeping = settings.housekeeping();
            indexBuilds = context.schedule(housekeeping.indexBuildInterval(), PunctuationType.WALL_CLOCK_TIME, t -> {
                indexes.work(housekeeping.indexBuildBatch());
                if (!indexes.hasPendingBuilds()) {
                    indexBuilds.cancel();
                    indexBuilds = null;
                }
            });
        }
    }

    /** Writes this incarnation's marker at the end of the partition: reads are served once it is reached. */
    private void markStart(long wallClockMillis) {
        startMarker.cancel();
        mark();
    }

    /**
     * Writes a marker of this incarnation, at the wall clock's time, to the end of the partition,
     * and commits soon so that it comes back without waiting out the commit interval.
     */
    private void mark() {
        long now = settings.clock().millis();
        outputs.marker(PartitionMarker.of(incarnation, ownPartition, now), now);
        context.commit();
    }

    @Override
    public void close() {
        // first: readers stop reading this task's stores before anything else can fail
        settings.activeStores().stopped(ownPartition, readersHold);
        settings.appliedOffsets().released(ownPartition);
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        RecordMetadata meta = context.recordMetadata().orElseThrow();
        int partition = meta.partition();
        long offset = meta.offset();
        decidedChanges.clear(); // left over only when an earlier record failed the task's transaction
        Command command;
        try {
            command = LogCodecs.COMMAND.decode(record.value());
        } catch (LogFormatException e) {
            CommandHeader header = LogCodecs.commandHeaderOf(record.value()).orElse(null);
            reject(record, header, ErrorCode.INVALID_INPUT, "The command cannot be read: " + e.getMessage(), null,
                    partition, offset);
            done(partition, offset);
            commitSoonFor(null, header);
            return;
        }
        if (command instanceof PartitionMarker marker) {
            taskState.advanceClockTo(TaskState.commandTime(marker.header().acceptedAtMillis(), record.timestamp()));
            done(partition, offset);
            if (marker.incarnation().equals(incarnation)) {
                settings.appliedOffsets().caughtUp(partition);
                if (replayingSince != -1) {
                    // once per task start: when its reads stopped answering ServerBusy, for a post-mortem
                    LOG.info("Partition {} readable: replayed up to offset {} in {} ms after its task started", partition,
                            offset, (System.nanoTime() - replayingSince) / 1_000_000);
                    replayingSince = -1;
                }
                if (tickPending) {
                    tickPending = false;
                    expireAtClock(record.timestamp());
                }
            }
            return;
        }
        if (command instanceof JobStep step) {
            // keyed by its partition's number, like a marker: a notice, not a command of a key
            jobShares.step(step, timeOf(step, record), record.timestamp());
            done(partition, offset);
            context.commit(); // its next step (or its report) goes out with this commit
            return;
        }
        if (command instanceof TableAnnouncement announcement) {
            TableRecord before = tables.byId(announcement.table().tableId()).orElse(null);
            tables.learn(announcement.table());
            indexes.learn(before, announcement.table());
            scheduleIndexBuildsIfPending();
            if (before != null && before.isActive() && !announcement.table().isActive()) {
                tableDeleted(announcement, record);
            }
            done(partition, offset);
            return;
        }
        int expected = partitionFor(CommandKey.of(command));
        if (expected != partition) {
            reject(record, command.header(), ErrorCode.INVALID_INPUT, "The command belongs on partition " + expected
                    + " of its topic, not " + partition + ": produce it with its key '" + CommandKey.of(command)
                    + "' and the default partitioner.", null, partition, offset);
        } else if (command instanceof EntityCommand entityCommand) {
            handle(record, entityCommand, partition, offset);
        } else if (command instanceof TableCommand tableCommand) {
            handle(record, tableCommand, partition, offset);
        } else if (command instanceof PartitionDeletion deletion) {
            handle(record, deletion, partition, offset);
        } else if (command instanceof BulkCommand bulk) {
            handle(record, bulk, partition, offset);
        } else if (command instanceof TransactionCommand transaction) {
            transactions.accept(record, transaction, partition, offset);
        } else if (command instanceof TransactionReport report) {
            transactions.report(report, partition, offset);
        } else if (command instanceof JobCommand job) {
            jobs.accept(record, job, timeOf(job, record), partition, offset);
        } else if (command instanceof JobReport report) {
            jobs.report(report, timeOf(report, record));
        } else {
            handle(record, (AccountCommand) command, partition, offset);
        }
        publishDecidedChanges(record);
        done(partition, offset);
        commitSoonFor(command, command.header());
        commitSoonForTransaction(command);
    }

    private void handle(Record<byte[], byte[]> record, EntityCommand command, int partition, long offset) {
        part = command.transaction() == null ? null : command;
        jobWrite = command.job() == null ? null : command;
        timedSingleWrite = !command.batch() && part == null && jobWrite == null;
        long start = timedSingleWrite ? System.nanoTime() : 0;
        try {
            decide(record, command, partition, offset);
            if (timedSingleWrite) {
                settings.metrics().singleWriteDecided(System.nanoTime() - start);
            }
        } finally {
            part = null;
            jobWrite = null;
            timedSingleWrite = false;
        }
    }

    /** A command on a table's rows, admitted: the live table it writes and the Timestamp it applies at. */
    private record Admitted(TableRecord table, EdmDateTime timestamp) {
    }

    /**
     * Admits a command on the rows of table {@code tableId}: held to its {@code rules} (else rejected), given
     * its Timestamp from the partition's clock (the same on every replay), its table still live (else
     * {@code TableNotFound}). Empty, with the refusal answered, when it is not admitted.
     */
    private Optional<Admitted> admit(Record<byte[], byte[]> record, Command command, long tableId, Runnable rules,
                                     int partition, long offset) {
        return admit(record, command, tableId, rules, 1, partition, offset);
    }

    /** {@link #admit}, reserving {@code timestamps} consecutive Timestamps: the admitted one is the first. */
    private Optional<Admitted> admit(Record<byte[], byte[]> record, Command command, long tableId, Runnable rules,
                                     int timestamps, int partition, long offset) {
        try {
            rules.run();
        } catch (TableServiceException e) {
            reject(record, command.header(), e.errorCode(), e.getMessage(),
                    e.failedIndex().isPresent() ? e.failedIndex().getAsInt() : null, partition, offset);
            return Optional.empty();
        }
        EdmDateTime timestamp = taskState.nextTimestamps(timeOf(command, record), timestamps);
        Optional<TableRecord> table = tables.live(tableId, command.account());
        if (table.isEmpty()) {
            answer(failure(command.header(), ErrorCode.TABLE_NOT_FOUND, ErrorCode.TABLE_NOT_FOUND.defaultMessage(),
                    null, partition, offset), record);
            return Optional.empty();
        }
        return Optional.of(new Admitted(table.get(), timestamp));
    }

    private void decide(Record<byte[], byte[]> record, EntityCommand command, int partition, long offset) {
        Optional<Admitted> admitted = admit(record, command, command.tableId(), () -> CommandRules.validate(command),
                partition, offset);
        if (admitted.isEmpty()) {
            return;
        }
        EntityDecision decision;
        try {
            decision = decideAndApply(record, command, command.id(), admitted.get());
        } catch (LogFormatException e) {
            // A stored row that cannot be read is a fault of this store, not of the command.
            LOG.error("Command {} at partition {} offset {} met an unreadable stored entity", command.id(),
                    partition, offset, e);
            reject(record, command.header(), ErrorCode.INTERNAL_ERROR, UNREADABLE_ROW, null, partition, offset);
            return;
        }
        answer(new Outcome(command.id(), command.header().replyTo(), decision.failure(), decision.results(), null,
                partition, offset), record);
    }

    /**
     * Decides {@code command}'s operations (of one PartitionKey) against its rows at the admitted
     * Timestamp and, when they succeed, applies their changes: the store and the table's history;
     * their change events (each naming {@code commandId}) go out after the answer.
     *
     * @throws LogFormatException when a stored row cannot be read (nothing is applied then)
     */
    private EntityDecision decideAndApply(Record<byte[], byte[]> record, EntityCommand command, String commandId,
                                          Admitted admitted) {
        EdmDateTime timestamp = admitted.timestamp();
        TableRecord table = admitted.table();
        Map<String, StoredEntity> stored = new HashMap<>();
        // Expiry is judged at the command's own Timestamp: the same on every replay.
        boolean timed = timedSingleWrite;
        EntityDecision decision = EntityDecider.decide(command, rowKey -> {
            long start = timed ? System.nanoTime() : 0;
            StoredEntity s = rows.stored(EntityKey.of(command.tableId(), command.partitionKey(), rowKey));
            if (timed) {
                settings.metrics().rowLookedUp(s != null, System.nanoTime() - start);
            }
            stored.put(rowKey, s);
            return s == null || s.isExpiredAt(timestamp) || tables.deletedWithPartition(command.tableId(), s)
                    ? null : s;
        }, timestamp, table.defaultTtlSeconds());
        if (!decision.succeeded()) {
            return decision;
        }
        for (EntityChange change : decision.changes()) {
            rows.apply(change, stored.get(change.rowKey()));
            settings.observer().applied(change);
            ChangeEvent event = new ChangeEvent(command.account(), command.tableName(), change, commandId,
                    command.header().principal(), timestamp);
            decidedChanges.add(event);
            if (table.keepsHistory()) {
                history.record(event);
            }
        }
        return decision;
    }

    /**
     * A bulk command: each write decided and applied on its own, in order, at a Timestamp of its
     * own (consecutive ticks of the partition's clock). A write that breaks the rules of a write of
     * its own, whose PartitionKey belongs on another partition, or that fails against its row (an
     * insert of an entity that exists) fails alone; the outcome names each failed write.
     */
    private void handle(Record<byte[], byte[]> record, BulkCommand command, int partition, long offset) {
        int count = command.writes().size();
        Optional<Admitted> admitted = admit(record, command, command.tableId(), () -> CommandRules.validate(command),
                count, partition, offset);
        if (admitted.isEmpty()) {
            return;
        }
        long firstTicks = admitted.get().timestamp().epochTicks();
        List<Outcome.Failure> failures = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            EntityCommand write = command.single(i);
            try {
                int expected = partitionFor(CommandKey.of(write));
                if (expected != partition) {
                    throw TableServiceException.of(ErrorCode.INVALID_INPUT, "The PartitionKey belongs on partition "
                            + expected + " of the commands topic, not " + partition + ".");
                }
                CommandRules.validate(write);
                EntityDecision decision = decideAndApply(record, write, command.id(),
                        new Admitted(admitted.get().table(), EdmDateTime.ofEpochTicks(firstTicks + i)));
                if (!decision.succeeded()) {
                    failures.add(new Outcome.Failure(decision.failure().code(), decision.failure().message(), i));
                }
            } catch (TableServiceException e) {
                failures.add(new Outcome.Failure(e.errorCode(), e.getMessage(), i));
            } catch (LogFormatException e) {
                LOG.error("Write {} of command {} at partition {} offset {} met an unreadable stored entity", i,
                        command.id(), partition, offset, e);
                failures.add(new Outcome.Failure(ErrorCode.INTERNAL_ERROR, UNREADABLE_ROW, i));
            }
        }
        answer(new Outcome(command.id(), command.header().replyTo(), null, List.of(), null, partition, offset,
                failures), record);
    }

    /**
     * Deletes a whole PartitionKey: records the deletion's Timestamp (from here on every row of the
     * partition written at or before it is gone, for commands and reads alike), publishes one
     * {@code PARTITION_DELETED} change and answers. The rows themselves are swept in the
     * background ({@link DeletedRowsSweep}).
     */
    private void handle(Record<byte[], byte[]> record, PartitionDeletion command, int partition, long offset) {
        Optional<Admitted> admitted = admit(record, command, command.tableId(), () -> CommandRules.validate(command),
                partition, offset);
        if (admitted.isEmpty()) {
            return;
        }
        EdmDateTime timestamp = admitted.get().timestamp();
        TableRecord table = admitted.get().table();
        ChangeEvent event = new ChangeEvent(command.account(), command.tableName(),
                EntityChange.partitionDeleted(command.tableId(), command.partitionKey()), command.id(),
                command.header().principal(), timestamp);
        // a copy of the present judges rows at its cut: it needs every deletion since, not only the newest
        tables.deletePartition(event, table.keepsHistory() || jobShares.copiesPresentOf(command.tableId()));
        decidedChanges.add(event);
        answer(new Outcome(command.id(), command.header().replyTo(), null,
                List.of(new Outcome.OperationResult(timestamp)), null, partition, offset), record);
    }

    /**
     * The table's deletion reached this partition's log: one {@code TABLE_DELETED} change on this
     * task's own partition of the changes topic, after every change of the table it published.
     */
    private void tableDeleted(TableAnnouncement announcement, Record<byte[], byte[]> record) {
        TableRecord table = announcement.table();
        EdmDateTime at = table.deletedAt() != null ? table.deletedAt()
                : TaskState.commandTime(announcement.header().acceptedAtMillis(), record.timestamp());
        outputs.tableDeleted(new ChangeEvent(table.account(), table.name(), EntityChange.tableDeleted(table.tableId()),
                announcement.decidedBy(), announcement.header().principal(), at), ownPartition, record.timestamp());
    }

    private void handle(Record<byte[], byte[]> record, TableCommand command, int partition, long offset) {
        Outcome outcome = decide(record, command, partition, offset);
        if (command.job() != null) {
            // a restore's target: its job's coordinator hears whether it was created
            CommandHeader h = command.header();
            outputs.command(new JobReport(new CommandHeader(command.job() + "/created", h.account(),
                    h.acceptedAtMillis(), null, h.principal()), command.job(), JobReport.Kind.TABLE_CREATED, ownPartition,
                    0, outcome.succeeded() ? outcome.table().tableId() : 0, outcome.failure()), record.timestamp());
        }
    }

    /** Decides a table command and answers it; returns the outcome answered. */
    private Outcome decide(Record<byte[], byte[]> record, TableCommand command, int partition, long offset) {
        try {
            CommandRules.validate(command);
        } catch (TableServiceException e) {
            reject(record, command.header(), e.errorCode(), e.getMessage(), null, partition, offset);
            return failure(command.header(), e.errorCode(), e.getMessage(), null, partition, offset);
        }
        String nameKey = RegistryKey.byName(command.account(), command.tableName());
        byte[] activeBytes = tableNames.get(nameKey);
        TableRecord active = activeBytes == null ? null : LogCodecs.TABLE_RECORD.decode(activeBytes);
        EdmDateTime now = taskState.nextTimestamp(timeOf(command, record));
        TableDecision decision = TableDecider.decide(command, active, tableIdFor(partition, offset), now);
        if (!decision.succeeded()) {
            Outcome refused = new Outcome(command.id(), command.header().replyTo(), decision.failure(), List.of(), null,
                    partition, offset);
            answer(refused, record);
            return refused;
        }
        TableRecord changed = decision.record();
        if (changed.isActive()) {
            tableNames.put(nameKey, LogCodecs.TABLE_RECORD.encode(changed));
        } else {
            tableNames.delete(nameKey);
        }
        outputs.table(changed, record.timestamp());
        if (command.operation() != TableCommand.Operation.SET_ACL) {
            // Every partition learns of the creation or deletion at one point of its own log.
            outputs.announce(TableAnnouncement.of(command.header(), changed), record.timestamp());
        }
        Outcome applied = new Outcome(command.id(), command.header().replyTo(), null, List.of(),
                new Outcome.TableInfo(changed.tableId(), changed.name().value()), partition, offset);
        answer(applied, record);
        return applied;
    }

    /**
     * Merges the account's new settings into those this task holds for it (the task decides every
     * command of the account, so its store is current), and publishes the result to the registry.
     */
    private void handle(Record<byte[], byte[]> record, AccountCommand command, int partition, long offset) {
        String key = RegistryKey.forAccount(command.account());
        byte[] currentBytes = accounts.get(key);
        AccountRecord current = currentBytes == null ? null : LogCodecs.ACCOUNT_RECORD.decode(currentBytes);
        AccountRecord changed = AccountDecider.decide(command, current);
        accounts.put(key, LogCodecs.ACCOUNT_RECORD.encode(changed));
        outputs.account(changed, record.timestamp());
        answer(new Outcome(command.id(), command.header().replyTo(), null, List.of(), null, partition, offset), record);
    }

    /**
     * Deletes this task's expired entities, through the change feed: those expired at the
     * partition's clock. Every command still to come has a later Timestamp and finds them expired
     * anyway, so when this runs changes no decision. When the wall clock says more are due than
     * the partition's clock (a partition no command moved lately), a marker moves the clock, at a
     * point of the log.
     */
    private void expire(long wallClockMillis) {
        if (expireAtClock(wallClockMillis) == 0 && !tickPending
                && !rows.expiredAt(EdmDateTime.of(settings.clock().instant()), 1).isEmpty()) {
            tickPending = true;
            mark();
        }
        if (!tickPending && !rows.anyExpiring()) {
            expiry.cancel();
            expiry = null;
        }
    }

    /** Deletes up to a batch of the entities expired at the partition's clock; returns how many. */
    private int expireAtClock(long recordTimestamp) {
        EdmDateTime clock = taskState.clock();
        List<EntityKey> due = clock == null ? List.of() : rows.expiredAt(clock, settings.housekeeping().expiryBatch());
        for (EntityKey key : due) {
            EntityChange change = new EntityChange(EntityChange.Type.EXPIRED, key.tableId(), key.partitionKey(),
                    key.rowKey(), null);
            StoredEntity previous = rows.stored(key);
            rows.apply(change, previous);
            if (tables.deletedWithPartition(key.tableId(), previous)) {
                continue; // gone with its partition already: its deletion was the change
            }
            tables.byId(key.tableId()).filter(TableRecord::isActive).ifPresent(table -> {
                ChangeEvent event = new ChangeEvent(table.account(), table.name(), change, null, null, clock);
                outputs.change(event, recordTimestamp);
                if (table.keepsHistory()) {
                    history.record(event);
                }
            });
        }
        return due.size();
    }

    private void reject(Record<byte[], byte[]> record, CommandHeader header, ErrorCode code, String message,
                        Integer operationIndex, int partition, long offset) {
        LOG.warn("Rejected command at partition {} offset {} ({}): {}", partition, offset, code.code(), message);
        outputs.deadLetter(record.key(), record.value(), code, message, partition, offset, record.timestamp());
        if (header != null) {
            answer(failure(header, code, message, operationIndex, partition, offset), record);
        }
    }

    /**
     * Delivers a command's outcome: when answers go out at decision, to whoever in this process
     * waits for it; otherwise (or when nobody here waits) on the outcomes topic. The stores already
     * hold the command's changes, so a read on this instance after the answer sees them. Whether
     * the record is written changes no state: a replay decides the same outcome either way.
     */
    private void answer(Outcome outcome, Record<byte[], byte[]> record) {
        if (jobWrite != null) {
            // a job's write: nobody waits for it; a failure is the job's (its coordinator hears of it)
            outputs.outcome(outcome, record.timestamp(), true);
            if (!outcome.succeeded()) {
                CommandHeader h = jobWrite.header();
                outputs.command(new JobReport(new CommandHeader(h.id() + "/failed/" + outcome.partition() + "/"
                        + outcome.offset(), h.account(), h.acceptedAtMillis(), null, h.principal()), jobWrite.job(),
                        JobReport.Kind.WRITE_FAILED, ownPartition, 0, 0, outcome.failure()), record.timestamp());
            }
            return;
        }
        boolean handedOver = outcome.replyTo() != null && settings.answers().atDecision()
                && settings.answers().handoff().decided(outcome);
        outputs.outcome(outcome, record.timestamp(), handedOver);
        if (part != null) {
            // a transaction's part: its coordinator hears the result, in this same Kafka transaction
            outputs.command(TransactionCoordinator.report(part, outcome.failure()), record.timestamp());
            settings.transactions().decided(part.account(), part.transaction().transactionId(),
                    part.transaction().part(), outcome.failure());
        }
    }

    /**
     * Sends the change events of the command just answered, in the order decided, in the task's
     * transaction like everything else it writes. They come after the answer because nothing waits
     * for them: the stores hold the changes already (a read after the answer sees them), and the
     * change feed reads committed records only, which a commit between records never splits from
     * the command's other outputs. A crash before they are sent loses them with the transaction,
     * and the replay, deciding the same changes, sends them again.
     */
    private void publishDecidedChanges(Record<byte[], byte[]> record) {
        for (ChangeEvent event : decidedChanges) {
            outputs.change(event, record.timestamp());
        }
        decidedChanges.clear();
    }

    /** A command's own time (see {@link TaskState#commandTime}). */
    private static EdmDateTime timeOf(Command command, Record<byte[], byte[]> record) {
        return TaskState.commandTime(command.header().acceptedAtMillis(), record.timestamp());
    }

    private static Outcome failure(CommandHeader header, ErrorCode code, String message, Integer operationIndex,
                                   int partition, long offset) {
        return new Outcome(header.id(), header.replyTo(), new Outcome.Failure(code, message, operationIndex),
                List.of(), null, partition, offset);
    }

    private void done(int partition, long offset) {
        taskState.applied(offset);
        settings.appliedOffsets().advance(partition, offset);
    }

    /**
     * Someone waits for this command's answer, and the answer needs the commit: ask Streams to
     * commit right after this round of processing instead of at the end of the commit interval
     * (under load a round holds many commands, so this is a group commit). Entity writes answered
     * at decision need no commit; table and account changes do (their answer waits until this
     * instance's registry view, read committed, shows them), and every awaited command when
     * answers wait for commits.
     */
    private void commitSoonFor(Command command, CommandHeader header) {
        if (header == null || header.replyTo() == null) {
            return;
        }
        if (!settings.answers().atDecision() || !(command instanceof EntityCommand || command instanceof BulkCommand)) {
            context.commit();
        }
    }

    /**
     * A transaction's parts, a part's report, and what a job's report sets off (its first steps,
     * its fences) reach their partitions only once this task's transaction commits: commit right
     * after this round rather than at the end of the interval.
     */
    private void commitSoonForTransaction(Command command) {
        if (command instanceof TransactionCommand || command instanceof EntityCommand e && e.transaction() != null
                || command instanceof JobReport) {
            context.commit();
        }
    }

    private int partitionFor(CommandKey key) {
        return LogPartitioner.partitionOf(key, settings.commandPartitions());
    }

    /**
     * A new table's id: its create command's partition and offset, which no other command has, so
     * ids are unique without coordination and a replay gives the same id.
     */
    static long tableIdFor(int partition, long offset) {
        if (offset >= (1L << 47) || partition >= (1 << 16)) {
            throw new IllegalStateException("offset or partition out of the table-id range");
        }
        return ((long) partition << 47) | offset;
    }
}
