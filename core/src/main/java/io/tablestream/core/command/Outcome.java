package io.tablestream.core.command;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.model.EdmDateTime;
import java.util.List;
import java.util.Objects;

/**
 * What became of a command, as the processor decided it. Exactly one outcome is produced per
 * command (none for a record that could not even be decoded).
 *
 * @param commandId the command this answers
 * @param replyTo the instance waiting for it, {@code null} if none
 * @param failure why the command was rejected as a whole, or {@code null} when it was applied
 * @param results one per operation, in order, when applied (empty for a failure)
 * @param operationFailures the operations that failed on their own while the command applied (a
 *     {@link BulkCommand}'s writes), each naming its index; empty for every other command
 * @param table the table a table command created or deleted, {@code null} otherwise
 * @param partition the command's Kafka partition
 * @param offset the command's Kafka offset (with {@code partition}, the write's session token)
 */
public record Outcome(String commandId, String replyTo, Failure failure, List<OperationResult> results,
                      TableInfo table, int partition, long offset, List<Failure> operationFailures) {

    public Outcome {
        Objects.requireNonNull(commandId, "commandId");
        results = List.copyOf(results);
        operationFailures = List.copyOf(operationFailures);
    }

    public Outcome(String commandId, String replyTo, Failure failure, List<OperationResult> results, TableInfo table,
                   int partition, long offset) {
        this(commandId, replyTo, failure, results, table, partition, offset, List.of());
    }

    public boolean succeeded() {
        return failure == null;
    }

    /**
     * A rejected command.
     *
     * @param operationIndex the failing operation of a batch, {@code null} when not attributed
     */
    public record Failure(ErrorCode code, String message, Integer operationIndex) {
        public Failure {
            Objects.requireNonNull(code, "code");
            Objects.requireNonNull(message, "message");
        }
    }

    /**
     * The result of one applied operation.
     *
     * @param timestamp the new version's Timestamp (its ETag derives from it); {@code null} for a delete
     */
    public record OperationResult(EdmDateTime timestamp) {
    }

    /** A table as the registry knows it. */
    public record TableInfo(long tableId, String tableName) {
    }
}
