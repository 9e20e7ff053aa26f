package io.tablestream.core.error;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * The one exception type for a failure a client is told about: an {@link ErrorCode}, a message,
 * and, for an operation inside a batch, the index of the failing operation.
 */
public final class TableServiceException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final ErrorCode errorCode;
    private final int failedIndex;

    private TableServiceException(ErrorCode errorCode, String message, int failedIndex, Throwable cause) {
        super(message, cause);
        this.errorCode = Objects.requireNonNull(errorCode, "errorCode");
        this.failedIndex = failedIndex;
    }

    public static TableServiceException of(ErrorCode code) {
        return new TableServiceException(code, code.defaultMessage(), -1, null);
    }

    public static TableServiceException of(ErrorCode code, String message) {
        return new TableServiceException(code, message, -1, null);
    }

    public static TableServiceException of(ErrorCode code, String message, Throwable cause) {
        return new TableServiceException(code, message, -1, cause);
    }

    /** The same failure, attributed to operation {@code index} of a batch. */
    public TableServiceException atIndex(int index) {
        return new TableServiceException(errorCode, getMessage(), index, getCause());
    }

    public ErrorCode errorCode() {
        return errorCode;
    }

    public int httpStatus() {
        return errorCode.httpStatus();
    }

    public OptionalInt failedIndex() {
        return failedIndex < 0 ? OptionalInt.empty() : OptionalInt.of(failedIndex);
    }
}
