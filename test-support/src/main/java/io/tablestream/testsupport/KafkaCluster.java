package io.tablestream.testsupport;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The Kafka broker integration tests share: its address, and names no other test (of this run or,
 * on an external cluster, of another run) uses. Tests create the topics they need themselves.
 */
public final class KafkaCluster {
    /** Kafka allows 249 characters in a topic name; the suffix needs at most 29. */
    private static final int MAX_BASE_LENGTH = 200;

    /** Where the broker comes from. */
    public enum Origin {
        /** A cluster someone else runs, named by {@code KAFKA_BOOTSTRAP_SERVERS}. */
        EXTERNAL,
        /** A Kafka container started through Testcontainers. */
        TESTCONTAINERS,
        /** A broker in this JVM, with its data in a temporary directory. */
        EMBEDDED
    }

    private final Origin origin;
    private final String bootstrapServers;
    private final String runId;
    private final AtomicLong sequence = new AtomicLong();

    KafkaCluster(Origin origin, String bootstrapServers, String runId) {
        this.origin = Objects.requireNonNull(origin, "origin");
        this.bootstrapServers = Objects.requireNonNull(bootstrapServers, "bootstrapServers");
        this.runId = Objects.requireNonNull(runId, "runId");
    }

    /** The value for the clients' {@code bootstrap.servers}. */
    public String bootstrapServers() {
        return bootstrapServers;
    }

    public Origin origin() {
        return origin;
    }

    /**
     * A name no other call returns, for a topic, a consumer group, a transactional id or a prefix:
     * {@code base} (characters Kafka does not allow in topic names become {@code -}), then this test
     * run's id and a sequence number, for example {@code commands-k3v9q2-7}.
     */
    public String uniqueName(String base) {
        if (base == null || base.isBlank()) {
            throw new IllegalArgumentException("base name must not be blank");
        }
        String safe = base.replaceAll("[^A-Za-z0-9._-]", "-");
        if (safe.length() > MAX_BASE_LENGTH) {
            safe = safe.substring(0, MAX_BASE_LENGTH);
        }
        return safe + "-" + runId + "-" + sequence.incrementAndGet();
    }

    @Override
    public String toString() {
        return "KafkaCluster[" + origin + " " + bootstrapServers + "]";
    }
}
