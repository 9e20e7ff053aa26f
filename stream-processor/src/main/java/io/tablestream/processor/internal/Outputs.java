package io.tablestream.processor.internal;

import io.tablestream.core.command.PartitionMarker;
import io.tablestream.core.command.ChangeEvent;
import io.tablestream.core.command.Command;
import io.tablestream.core.command.CommandKey;
import io.tablestream.core.command.JobStep;
import io.tablestream.core.command.Outcome;
import io.tablestream.core.command.TableAnnouncement;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.model.AccountRecord;
import io.tablestream.core.model.TableRecord;
import io.tablestream.processor.StreamProcessorMetrics;
import io.tablestream.schemas.LogCodecs;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * What a task writes besides its stores: outcomes, change events, registry records, dead letters,
 * and its notices to the command log (table announcements, partition markers). All of it goes out
 * in the task's transaction, with the store changes.
 */
final class Outputs {
    /** Dead-letter headers: why the record was rejected and where it came from. */
    static final String ERROR_CODE_HEADER = "tablestream.error.code";
    static final String ERROR_MESSAGE_HEADER = "tablestream.error.message";
    static final String SOURCE_PARTITION_HEADER = "tablestream.source.partition";
    static final String SOURCE_OFFSET_HEADER = "tablestream.source.offset";

    private final ProcessorContext<byte[], byte[]> context;
    private final StreamProcessorMetrics metrics;

    Outputs(ProcessorContext<byte[], byte[]> context, StreamProcessorMetrics metrics) {
        this.context = context;
        this.metrics = metrics;
    }

    /**
     * Counts a decided outcome and writes it to the outcomes topic, unless a waiter in this process
     * took it already ({@code handedOver}: nobody needs the record then).
     */
    void outcome(Outcome outcome, long timestamp, boolean handedOver) {
        metrics.decided(outcome.partition(), outcome.succeeded(), timestamp);
        if (handedOver) {
            return;
        }
        String key = outcome.replyTo() != null ? outcome.replyTo() : outcome.commandId();
        context.forward(new Record<>(utf8(key), LogCodecs.OUTCOME.encode(outcome), timestamp), Sinks.OUTCOMES);
    }

    void change(ChangeEvent event, long timestamp) {
        metrics.changed(event.change().type());
        String key = CommandKey.forEntity(event.account(), event.change().tableId(), event.change().partitionKey()).value();
        context.forward(new Record<>(utf8(key), LogCodecs.CHANGE_EVENT.encode(event), timestamp), Sinks.CHANGES);
    }

    /**
     * Publishes a {@code TABLE_DELETED} change on partition {@code partition} of the changes topic
     * (this task's own, after every change of the table it published), under the key
     * {@link CommandKey#forTableDeletedEvent}, which the changes sink routes there.
     */
    void tableDeleted(ChangeEvent event, int partition, long timestamp) {
        metrics.changed(event.change().type());
        String key = CommandKey.forTableDeletedEvent(event.account(), event.change().tableId(), partition).value();
        context.forward(new Record<>(utf8(key), LogCodecs.CHANGE_EVENT.encode(event), timestamp), Sinks.CHANGES);
    }

    /** Publishes a registry record under its id key, and under its name key (a tombstone once deleted). */
    void table(TableRecord record, long timestamp) {
        byte[] value = LogCodecs.TABLE_RECORD.encode(record);
        context.forward(new Record<>(utf8(RegistryKey.byName(record.account(), record.name())),
                record.isActive() ? value : null, timestamp), Sinks.TABLES);
        context.forward(new Record<>(utf8(RegistryKey.byId(record.tableId())), value, timestamp), Sinks.TABLES);
    }

    /**
     * Writes a command of the processor's own — a transaction's part, a part's report to the
     * coordinator, a job's report, a restore's table creation or copies of entities — to the
     * partition of the commands topic its key belongs on.
     */
    void command(Command command, long timestamp) {
        context.forward(new Record<>(utf8(CommandKey.of(command).value()), LogCodecs.COMMAND.encode(command),
                timestamp), Sinks.TRANSACTIONS);
    }

    /** Publishes an account's settings under its account key. */
    void account(AccountRecord record, long timestamp) {
        context.forward(new Record<>(utf8(RegistryKey.forAccount(record.account())),
                LogCodecs.ACCOUNT_RECORD.encode(record), timestamp), Sinks.TABLES);
    }

    /** Announces a table's creation or deletion to every partition of the command log. */
    void announce(TableAnnouncement announcement, long timestamp) {
        context.forward(new Record<>(utf8(CommandKey.of(announcement).value()), LogCodecs.COMMAND.encode(announcement),
                timestamp), Sinks.ANNOUNCEMENTS);
    }

    /** Writes a job's step (or fence) to the end of the partition of the command log it names. */
    void step(JobStep step, long timestamp) {
        context.forward(new Record<>(utf8(CommandKey.of(step).value()), LogCodecs.COMMAND.encode(step), timestamp),
                Sinks.MARKERS);
    }

    /** Writes a partition marker to the end of its partition of the command log. */
    void marker(PartitionMarker marker, long timestamp) {
        context.forward(new Record<>(utf8(CommandKey.of(marker).value()), LogCodecs.COMMAND.encode(marker), timestamp),
                Sinks.MARKERS);
    }

    void deadLetter(byte[] key, byte[] value, ErrorCode code, String message, int partition, long offset,
                    long timestamp) {
        metrics.deadLettered(code);
        RecordHeaders headers = new RecordHeaders();
        headers.add(ERROR_CODE_HEADER, utf8(code.code()));
        headers.add(ERROR_MESSAGE_HEADER, utf8(message == null ? code.defaultMessage() : message));
        headers.add(SOURCE_PARTITION_HEADER, utf8(Integer.toString(partition)));
        headers.add(SOURCE_OFFSET_HEADER, utf8(Long.toString(offset)));
        context.forward(new Record<>(key, value, timestamp, headers), Sinks.DEAD_LETTERS);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
