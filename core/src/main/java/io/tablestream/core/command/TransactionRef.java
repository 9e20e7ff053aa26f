package io.tablestream.core.command;

import java.util.Objects;

/**
 * Marks an entity command as part {@code part} (from 0) of the cross-partition transaction
 * {@code transactionId}: its owner applies it like a change set and reports the result to the
 * transaction's coordinator ({@link TransactionReport}) instead of answering a client.
 */
public record TransactionRef(String transactionId, int part) {
    public TransactionRef {
        Objects.requireNonNull(transactionId, "transactionId");
        if (part < 0) {
            throw new IllegalArgumentException("part must not be negative");
        }
    }
}
