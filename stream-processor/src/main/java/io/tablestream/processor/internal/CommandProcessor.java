package io.tablestream.processor.internal;

import io.tablestream.core.codec.KeyCodec;
import io.tablestream.core.command.AccountCommand;
import io.tablestream.core.command.ChangeEvent;
import io.tablestream.core.command.Command;
import io.tablestream.core.command.CommandHeader;
import io.tablestream.core.command.CommandKey;
import io.tablestream.core.command.EntityChange;
import io.tablestream.core.command.EntityCommand;
import io.tablestream.core.command.Outcome;
import io.tablestream.core.command.TableCommand;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.model.AccountRecord;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.EntityKey;
import io.tablestream.core.model.StoredEntity;
import io.tablestream.core.model.TableRecord;
import io.tablestream.core.rules.CommandRules;
import io.tablestream.processor.ProcessorSettings;
import io.tablestream.processor.decide.AccountDecider;
import io.tablestream.processor.decide.EntityDecider;
import io.tablestream.processor.decide.EntityDecision;
import io.tablestream.processor.decide.TableDecider;
import io.tablestream.processor.decide.TableDecision;
import io.tablestream.processor.store.StoreNames;
import io.tablestream.schemas.LogCodecs;
import io.tablestream.schemas.LogFormatException;
import io.tablestream.schemas.LogPartitioner;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.streams.processor.PunctuationType;
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
 */
final class CommandProcessor implements Processor<byte[], byte[], byte[], byte[]> {
    private static final Logger LOG = LoggerFactory.getLogger(CommandProcessor.class);

    private final ProcessorSettings settings;
    private ProcessorContext<byte[], byte[]> context;
    private Outputs outputs;
    private TaskState taskState;
    private EntityRows rows;
    private KeyValueStore<String, byte[]> tableNames;
    private KeyValueStore<String, byte[]> accounts;
    private RegistryView registry;

    CommandProcessor(ProcessorSettings settings) {
        this.settings = settings;
    }

    @Override
    public void init(ProcessorContext<byte[], byte[]> context) {
        this.context = context;
        this.outputs = new Outputs(context, settings.metrics());
        this.taskState = new TaskState(context.getStateStore(StoreNames.TASK_META));
        this.rows = new EntityRows(context.getStateStore(StoreNames.ENTITIES), context.getStateStore(StoreNames.EXPIRY));
        this.tableNames = context.getStateStore(StoreNames.TABLE_NAMES);
        this.accounts = context.getStateStore(StoreNames.ACCOUNTS);
        this.registry = new RegistryView(context.getStateStore(StoreNames.REGISTRY));
        settings.appliedOffsets().advance(context.taskId().partition(), taskState.appliedOffset());
        context.schedule(settings.expiryInterval(), PunctuationType.WALL_CLOCK_TIME, this::expire);
        context.schedule(settings.sweepInterval(), PunctuationType.WALL_CLOCK_TIME,
                new DeletedTableSweep(registry, rows, settings.sweepBatch())::sweep);
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        RecordMetadata meta = context.recordMetadata().orElseThrow();
        int partition = meta.partition();
        long offset = meta.offset();
        Command command;
        try {
            command = LogCodecs.COMMAND.decode(record.value());
        } catch (LogFormatException e) {
            CommandHeader header = LogCodecs.commandHeaderOf(record.value()).orElse(null);
            reject(record, header, ErrorCode.INVALID_INPUT, "The command cannot be read: " + e.getMessage(), null,
                    partition, offset);
            done(partition, offset);
            commitSoonFor(header);
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
        } else {
            handle(record, (AccountCommand) command, partition, offset);
        }
        done(partition, offset);
        commitSoonFor(command.header());
    }

    private void handle(Record<byte[], byte[]> record, EntityCommand command, int partition, long offset) {
        try {
            CommandRules.validate(command);
        } catch (TableServiceException e) {
            reject(record, command.header(), e.errorCode(), e.getMessage(),
                    e.failedIndex().isPresent() ? e.failedIndex().getAsInt() : null, partition, offset);
            return;
        }
        Optional<TableRecord> table = registry.byId(command.tableId())
                .filter(t -> t.isActive() && t.account().equals(command.account()));
        if (table.isEmpty()) {
            outputs.outcome(failure(command.header(), ErrorCode.TABLE_NOT_FOUND, ErrorCode.TABLE_NOT_FOUND.defaultMessage(),
                    null, partition, offset), record.timestamp());
            return;
        }
        EdmDateTime now = EdmDateTime.of(settings.clock().instant());
        EdmDateTime timestamp = taskState.nextTimestamp(now);
        EntityDecision decision;
        Map<String, StoredEntity> stored = new HashMap<>();
        try {
            decision = EntityDecider.decide(command, rowKey -> {
                StoredEntity s = rows.stored(EntityKey.of(command.tableId(), command.partitionKey(), rowKey));
                stored.put(rowKey, s);
                return s == null || s.isExpiredAt(now) ? null : s;
            }, timestamp, table.get().defaultTtlSeconds());
        } catch (LogFormatException e) {
            // A stored row that cannot be read is a fault of this store, not of the command.
            LOG.error("Command {} at partition {} offset {} met an unreadable stored entity", command.id(),
                    partition, offset, e);
            reject(record, command.header(), ErrorCode.INTERNAL_ERROR, "A stored entity cannot be read.", null,
                    partition, offset);
            return;
        }
        if (!decision.succeeded()) {
            outputs.outcome(new Outcome(command.id(), command.header().replyTo(), decision.failure(), List.of(), null,
                    partition, offset), record.timestamp());
            return;
        }
        for (EntityChange change : decision.changes()) {
            rows.apply(change, stored.get(change.rowKey()));
            settings.observer().applied(change);
            outputs.change(new ChangeEvent(command.account(), command.tableName(), change, command.id(),
                    command.header().principal(), timestamp), record.timestamp());
        }
        outputs.outcome(new Outcome(command.id(), command.header().replyTo(), null, decision.results(), null,
                partition, offset), record.timestamp());
    }

    private void handle(Record<byte[], byte[]> record, TableCommand command, int partition, long offset) {
        try {
            CommandRules.validate(command);
        } catch (TableServiceException e) {
            reject(record, command.header(), e.errorCode(), e.getMessage(), null, partition, offset);
            return;
        }
        String nameKey = RegistryKey.byName(command.account(), command.tableName());
        byte[] activeBytes = tableNames.get(nameKey);
        TableRecord active = activeBytes == null ? null : LogCodecs.TABLE_RECORD.decode(activeBytes);
        EdmDateTime now = EdmDateTime.of(settings.clock().instant());
        TableDecision decision = TableDecider.decide(command, active, tableIdFor(partition, offset), now);
        if (!decision.succeeded()) {
            outputs.outcome(new Outcome(command.id(), command.header().replyTo(), decision.failure(), List.of(), null,
                    partition, offset), record.timestamp());
            return;
        }
        TableRecord changed = decision.record();
        if (changed.isActive()) {
            tableNames.put(nameKey, LogCodecs.TABLE_RECORD.encode(changed));
        } else {
            tableNames.delete(nameKey);
        }
        outputs.table(changed, record.timestamp());
        outputs.outcome(new Outcome(command.id(), command.header().replyTo(), null, List.of(),
                new Outcome.TableInfo(changed.tableId(), changed.name().value()), partition, offset), record.timestamp());
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
        outputs.outcome(new Outcome(command.id(), command.header().replyTo(), null, List.of(), null, partition, offset),
                record.timestamp());
    }

    /** Deletes this task's expired entities, through the change feed. */
    private void expire(long wallClockMillis) {
        EdmDateTime now = EdmDateTime.of(settings.clock().instant());
        for (EntityKey key : rows.expiredAt(now, settings.expiryBatch())) {
            var table = registry.byId(key.tableId());
            EntityChange change = new EntityChange(EntityChange.Type.EXPIRED, key.tableId(), key.partitionKey(),
                    key.rowKey(), null);
            rows.apply(change);
            if (table.isPresent() && table.get().isActive()) {
                outputs.change(new ChangeEvent(table.get().account(), table.get().name(), change, null, null, now),
                        wallClockMillis);
            }
        }
    }

    private void reject(Record<byte[], byte[]> record, CommandHeader header, ErrorCode code, String message,
                        Integer operationIndex, int partition, long offset) {
        LOG.warn("Rejected command at partition {} offset {} ({}): {}", partition, offset, code.code(), message);
        outputs.deadLetter(record.key(), record.value(), code, message, partition, offset, record.timestamp());
        if (header != null) {
            outputs.outcome(failure(header, code, message, operationIndex, partition, offset), record.timestamp());
        }
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
     * Someone waits for this command's outcome: ask Streams to commit right after this round of
     * processing instead of at the end of the commit interval. Under load a round holds many
     * commands, so this is a group commit; idle, it answers a lone write at once.
     */
    private void commitSoonFor(CommandHeader header) {
        if (header != null && header.replyTo() != null) {
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
