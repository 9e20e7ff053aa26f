package io.tablestream.core.command;

import io.tablestream.core.model.EdmDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Where a cross-partition transaction stands, as its coordinator knows it: per part (one change set
 * on one table's PartitionKey) whether its owner applied it, or why not.
 *
 * @param acceptedAt when the transaction was accepted
 */
public record TransactionStatus(String transactionId, String account, EdmDateTime acceptedAt, List<Part> parts) {
    public enum PartState { PENDING, APPLIED, FAILED }

    /** The transaction as a whole: Pending until every part is reported, then what they came to. */
    public enum State { PENDING, APPLIED, PARTIALLY_APPLIED, FAILED }

    /**
     * @param operations how many operations the part holds
     * @param failure why the part was not applied (none of it was), else null
     * @param reports how many reports of its owner arrived (exactly one once it is done)
     */
    public record Part(String table, String partitionKey, int operations, PartState state, Outcome.Failure failure,
                       int reports) {
        public Part {
            Objects.requireNonNull(table, "table");
            Objects.requireNonNull(partitionKey, "partitionKey");
            Objects.requireNonNull(state, "state");
        }
    }

    public TransactionStatus {
        Objects.requireNonNull(transactionId, "transactionId");
        Objects.requireNonNull(account, "account");
        Objects.requireNonNull(acceptedAt, "acceptedAt");
        parts = List.copyOf(parts);
    }

    public State state() {
        int applied = 0;
        int failed = 0;
        for (Part p : parts) {
            switch (p.state()) {
                case PENDING -> {
                    return State.PENDING;
                }
                case APPLIED -> applied++;
                case FAILED -> failed++;
            }
        }
        return failed == 0 ? State.APPLIED : applied == 0 ? State.FAILED : State.PARTIALLY_APPLIED;
    }

    /** This status with part {@code index} reported: applied, or failed with {@code failure}. */
    public TransactionStatus reported(int index, Outcome.Failure failure) {
        List<Part> next = new ArrayList<>(parts);
        Part p = parts.get(index);
        next.set(index, new Part(p.table(), p.partitionKey(), p.operations(),
                failure == null ? PartState.APPLIED : PartState.FAILED, failure, p.reports() + 1));
        return new TransactionStatus(transactionId, account, acceptedAt, next);
    }
}
