package io.tablestream.processor.internal;

import io.tablestream.core.command.CommandHeader;
import io.tablestream.core.command.EntityCommand;
import io.tablestream.core.command.Outcome;
import io.tablestream.core.command.TransactionCommand;
import io.tablestream.core.command.TransactionReport;
import io.tablestream.core.command.TransactionStatus;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.rules.CommandRules;
import io.tablestream.processor.store.TransactionKeys;
import io.tablestream.processor.store.TransactionProgress;
import io.tablestream.schemas.LogCodecs;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The coordinator of the cross-partition transactions keyed to a task's partition (the design
 * guide's queue and worker, done by the processor): records each transaction, writes its parts to
 * their partitions — in the task's Kafka transaction, so exactly once — and records each part's
 * report. A part is a change set on one PartitionKey, applied all or none by its owner in the order
 * of its own partition's log, independently of the other parts: when one part's precondition
 * fails, the others are still applied, and the status says which part failed and why.
 *
 * <p>A transaction that breaks a rule (an invalid operation, too many operations) is recorded with
 * every part failed and nothing written. A report for a transaction this task does not know (a
 * producer writing notices it should not) is logged and ignored.
 */
final class TransactionCoordinator {
    private static final Logger LOG = LoggerFactory.getLogger(TransactionCoordinator.class);

    private final KeyValueStore<String, byte[]> store;
    private final Outputs outputs;
    private final BiConsumer<Outcome, Record<byte[], byte[]>> answer;
    private final TransactionProgress progress;

    TransactionCoordinator(KeyValueStore<String, byte[]> store, Outputs outputs,
                           BiConsumer<Outcome, Record<byte[], byte[]>> answer, TransactionProgress progress) {
        this.store = store;
        this.outputs = outputs;
        this.answer = answer;
        this.progress = progress;
    }

    /** The report the owner of {@code part} writes for its coordinator. */
    static TransactionReport report(EntityCommand part, Outcome.Failure failure) {
        CommandHeader h = part.header();
        return new TransactionReport(new CommandHeader(h.id() + "/report", h.account(), h.acceptedAtMillis(), null,
                h.principal()), part.transaction().transactionId(), part.transaction().part(), failure);
    }

    void accept(Record<byte[], byte[]> record, TransactionCommand command, int partition, long offset) {
        String key = TransactionKeys.of(command.account(), command.transactionId());
        if (store.get(key) != null) {
            // the same id again (a producer's retry): the first one counts
            answer.accept(new Outcome(command.id(), command.header().replyTo(), null, List.of(), null, partition,
                    offset), record);
            return;
        }
        Outcome.Failure invalid = validate(command);
        List<TransactionStatus.Part> parts = new ArrayList<>(command.parts().size());
        for (EntityCommand p : command.parts()) {
            parts.add(new TransactionStatus.Part(p.tableName().value(), p.partitionKey(), p.operations().size(),
                    invalid == null ? TransactionStatus.PartState.PENDING : TransactionStatus.PartState.FAILED,
                    invalid, 0));
        }
        TransactionStatus status = new TransactionStatus(command.transactionId(), command.account(),
                EdmDateTime.ofEpochTicks(command.header().acceptedAtMillis() * 10_000L), parts);
        store.put(key, LogCodecs.TRANSACTION_STATUS.encode(status));
        if (invalid == null) {
            for (EntityCommand p : command.parts()) {
                outputs.command(p, record.timestamp());
            }
        }
        answer.accept(new Outcome(command.id(), command.header().replyTo(), invalid, List.of(), null, partition, offset),
                record);
    }

    void report(TransactionReport report, int partition, long offset) {
        String key = TransactionKeys.of(report.account(), report.transactionId());
        byte[] bytes = store.get(key);
        if (bytes == null) {
            LOG.warn("A report for unknown transaction {} at partition {} offset {} is ignored",
                    report.transactionId(), partition, offset);
            return;
        }
        TransactionStatus status = LogCodecs.TRANSACTION_STATUS.decode(bytes);
        if (report.part() >= status.parts().size()) {
            LOG.warn("A report for part {} of transaction {}, which has {} parts, is ignored", report.part(),
                    report.transactionId(), status.parts().size());
            return;
        }
        store.put(key, LogCodecs.TRANSACTION_STATUS.encode(status.reported(report.part(), report.failure())));
        progress.recorded(report.account(), report.transactionId(), report.part());
    }

    private static Outcome.Failure validate(TransactionCommand command) {
        int operations = 0;
        for (EntityCommand p : command.parts()) {
            operations += p.operations().size();
        }
        if (command.parts().isEmpty() || operations > TransactionCommand.MAX_OPERATIONS) {
            return new Outcome.Failure(io.tablestream.core.error.ErrorCode.INVALID_INPUT, "A transaction holds 1 to "
                    + TransactionCommand.MAX_OPERATIONS + " operations.", null);
        }
        for (EntityCommand p : command.parts()) {
            try {
                if (!p.account().equals(command.account())) {
                    throw TableServiceException.of(io.tablestream.core.error.ErrorCode.INVALID_INPUT,
                            "A transaction's parts belong to its account.");
                }
                CommandRules.validate(p);
            } catch (TableServiceException e) {
                return new Outcome.Failure(e.errorCode(), e.getMessage(),
                        e.failedIndex().isPresent() ? e.failedIndex().getAsInt() : null);
            }
        }
        return null;
    }
}
