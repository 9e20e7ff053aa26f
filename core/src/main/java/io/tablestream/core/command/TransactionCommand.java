package io.tablestream.core.command;

import java.util.List;
import java.util.Objects;

/**
 * A cross-partition transaction (an extension, the design guide's eventually consistent
 * transaction done by the server): change sets on several PartitionKeys, of one or more tables,
 * accepted as one command. It is keyed by {@link CommandKey#forTransaction}; the task that owns that
 * key (the coordinator) records the transaction and writes each part to its PartitionKey's
 * partition, whose owner applies it (all or none within the part) and reports back.
 *
 * @param parts the change sets, one per (table, PartitionKey), in the order the request named them;
 *     each marked with its {@link TransactionRef}
 */
public record TransactionCommand(CommandHeader header, String transactionId, List<EntityCommand> parts)
        implements Command {
    /** Operations of one transaction at most, over all its parts (as a {@code $batch}). */
    public static final int MAX_OPERATIONS = 100;

    public TransactionCommand {
        Objects.requireNonNull(header, "header");
        Objects.requireNonNull(transactionId, "transactionId");
        parts = List.copyOf(parts);
        for (int i = 0; i < parts.size(); i++) {
            TransactionRef ref = parts.get(i).transaction();
            if (ref == null || !ref.transactionId().equals(transactionId) || ref.part() != i) {
                throw new IllegalArgumentException("part " + i + " is not marked as part " + i + " of " + transactionId);
            }
        }
    }
}
