package io.tablestream.protocol.batch;

import io.tablestream.core.error.TableServiceException;
import java.util.List;
import java.util.Objects;

/**
 * A {@code $batch} request body, taken apart: either one change set of up to 100 operations, or one
 * lone query.
 *
 * @param kind       what the batch holds
 * @param operations the operations in the order written; a query batch holds exactly one GET
 */
public record BatchRequest(Kind kind, List<BatchOperation> operations) {

    /** What a batch holds: the Table service accepts one change set, or one query on its own. */
    public enum Kind {
        /** A change set: inserts, updates, merges and deletes, applied atomically. */
        CHANGE_SET,
        /** A single {@code GET}, written directly in the batch without a change set. */
        QUERY
    }

    public BatchRequest {
        Objects.requireNonNull(kind, "kind");
        operations = List.copyOf(operations);
        if (operations.isEmpty()) {
            throw new IllegalArgumentException("A batch holds at least one operation");
        }
        if (kind == Kind.QUERY && operations.size() != 1) {
            throw new IllegalArgumentException("A query batch holds exactly one operation");
        }
    }

    /**
     * Parses a {@code $batch} body sent with the request header {@code Content-Type: contentType}.
     * Checks the structure only (see {@link io.tablestream.protocol.batch the package documentation}
     * for what is accepted and rejected); what the operations ask for is checked elsewhere.
     *
     * @throws TableServiceException for a body that is not a well-formed batch. When the failure is
     *         that of one operation (or the change set's operation count), the exception carries that
     *         operation's index and is answered inside a {@code 202} batch response; otherwise it has no
     *         index and is answered as a plain error response.
     */
    public static BatchRequest parse(byte[] body, String contentType) {
        return BatchRequestParser.parse(body, contentType);
    }

    public boolean isQuery() {
        return kind == Kind.QUERY;
    }
}
