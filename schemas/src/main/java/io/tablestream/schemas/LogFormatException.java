package io.tablestream.schemas;

/** Bytes that are not a valid record of the expected kind. */
public final class LogFormatException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public LogFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
