package io.tablestream.testsupport;

import io.tablestream.kafka.embedded.EmbeddedKafkaBroker;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker of this test JVM, once started: what tests see of it, and how to stop it. The extension
 * keeps one in JUnit's root store, which closes it when the test run ends.
 */
final class RunningKafka implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RunningKafka.class);

    private final KafkaCluster cluster;
    private final AutoCloseable stop;

    RunningKafka(KafkaCluster cluster, AutoCloseable stop) {
        this.cluster = cluster;
        this.stop = stop;
    }

    KafkaCluster cluster() {
        return cluster;
    }

    /** Starts (or, for an external cluster, just names) the broker {@code choice} asks for. */
    static RunningKafka start(BrokerChoice choice) {
        String runId = newRunId();
        return switch (choice.origin()) {
            case EXTERNAL -> external(choice.externalBootstrapServers(), runId);
            case TESTCONTAINERS -> startContainer(choice, runId).orElseGet(() -> {
                LOG.warn("Testcontainers Kafka was asked for but Docker is not available; "
                        + "tests use the embedded broker instead");
                return startEmbedded(runId);
            });
            case EMBEDDED -> startEmbedded(runId);
        };
    }

    private static RunningKafka external(String bootstrapServers, String runId) {
        LOG.info("Tests use the external Kafka cluster at {}", bootstrapServers);
        return new RunningKafka(new KafkaCluster(KafkaCluster.Origin.EXTERNAL, bootstrapServers, runId), () -> { });
    }

    /** Kept apart so that Testcontainers' classes are loaded only when it is asked for. */
    private static Optional<RunningKafka> startContainer(BrokerChoice choice, String runId) {
        try {
            return TestcontainersKafka.startIfDockerAvailable(choice.containerImage(), runId);
        } catch (LinkageError e) {
            LOG.warn("Testcontainers is not on the test classpath ({})", e.toString());
            return Optional.empty();
        }
    }

    private static RunningKafka startEmbedded(String runId) {
        Path directory;
        try {
            directory = Files.createTempDirectory("tablestream-test-kafka-");
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create a directory for the test broker", e);
        }
        EmbeddedKafkaBroker broker;
        try {
            broker = EmbeddedKafkaBroker.builder(directory).start();
        } catch (RuntimeException e) {
            TestDirectories.delete(directory);
            throw e;
        }
        LOG.info("Tests use the embedded Kafka broker at {}", broker.bootstrapServers());
        return new RunningKafka(new KafkaCluster(KafkaCluster.Origin.EMBEDDED, broker.bootstrapServers(), runId),
                () -> {
                    try {
                        broker.close();
                    } finally {
                        TestDirectories.delete(directory);
                    }
                });
    }

    @Override
    public void close() throws Exception {
        stop.close();
    }

    /** Six base-36 characters: tells this run's names from earlier runs' on a shared cluster. */
    private static String newRunId() {
        SecureRandom random = new SecureRandom();
        StringBuilder id = new StringBuilder();
        for (int i = 0; i < 6; i++) {
            id.append(Character.forDigit(random.nextInt(36), 36));
        }
        return id.toString();
    }
}
