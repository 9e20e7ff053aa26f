package io.tablestream.server.tls;

/**
 * A certificate, key or trust file that cannot be used. Its message names the setting and the file
 * and says what is wrong, for an operator.
 */
public class TlsFileException extends IllegalArgumentException {
    public TlsFileException(String message) {
        super(message);
    }

    public TlsFileException(String message, Throwable cause) {
        super(message, cause);
    }
}
