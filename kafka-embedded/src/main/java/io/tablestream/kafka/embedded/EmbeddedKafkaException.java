package io.tablestream.kafka.embedded;

/** The embedded broker could not be formatted, started or reached in time. */
public final class EmbeddedKafkaException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public EmbeddedKafkaException(String message) {
        super(message);
    }

    public EmbeddedKafkaException(String message, Throwable cause) {
        super(message, cause);
    }
}
