package io.tablestream.core.command;

import java.util.Objects;

/**
 * What the owner of a transaction's part did with it, written by the processor into the
 * coordinator's partition (keyed like the {@link TransactionCommand}) in the same Kafka transaction
 * as the part's changes: a notice, not a client's write, with no outcome.
 *
 * @param failure why the part was not applied (nothing of it was), or null when it was applied
 */
public record TransactionReport(CommandHeader header, String transactionId, int part, Outcome.Failure failure)
        implements Command {
    public TransactionReport {
        Objects.requireNonNull(header, "header");
        Objects.requireNonNull(transactionId, "transactionId");
    }
}
