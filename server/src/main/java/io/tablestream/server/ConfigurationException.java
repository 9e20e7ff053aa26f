package io.tablestream.server;

/**
 * A setting, or a file a setting names, that the server cannot run with. Its message says which
 * setting (and file) and what is wrong, for an operator: {@link Main} prints it alone, without a
 * stack trace.
 */
public class ConfigurationException extends IllegalArgumentException {
    public ConfigurationException(String message) {
        super(message);
    }

    public ConfigurationException(String message, Throwable cause) {
        super(message, cause);
    }
}
