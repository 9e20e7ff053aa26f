package io.tablestream.cli.transfer;

/** A transfer stopped for a reason its user should read (the message says what and where). */
public final class TransferException extends RuntimeException {
    public TransferException(String message) {
        super(message);
    }

    public TransferException(String message, Throwable cause) {
        super(message, cause);
    }
}
