package io.tablestream.testsupport;

import java.util.Locale;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Which broker the tests of this JVM get, read from the environment and system properties:
 * <ol>
 *   <li>{@code KAFKA_BOOTSTRAP_SERVERS} set: that external cluster;</li>
 *   <li>{@code TABLESTREAM_TEST_KAFKA=testcontainers} (or system property
 *       {@code tablestream.test.kafka}): a Testcontainers Kafka, when Docker is available;</li>
 *   <li>otherwise, and as the fallback of 2: the embedded broker.</li>
 * </ol>
 * {@code TABLESTREAM_TEST_KAFKA_IMAGE} (or {@code tablestream.test.kafka.image}) names the container
 * image; by default the {@code apache/kafka} image of the Kafka client version on the classpath.
 */
record BrokerChoice(KafkaCluster.Origin origin, String externalBootstrapServers, Optional<String> containerImage) {

    static final String EXTERNAL_VARIABLE = "KAFKA_BOOTSTRAP_SERVERS";
    static final String MODE_VARIABLE = "TABLESTREAM_TEST_KAFKA";
    static final String MODE_PROPERTY = "tablestream.test.kafka";
    static final String IMAGE_VARIABLE = "TABLESTREAM_TEST_KAFKA_IMAGE";
    static final String IMAGE_PROPERTY = "tablestream.test.kafka.image";

    static BrokerChoice fromEnvironment() {
        return from(System::getenv, System::getProperty);
    }

    static BrokerChoice from(UnaryOperator<String> environment, UnaryOperator<String> systemProperties) {
        Optional<String> image = setting(systemProperties.apply(IMAGE_PROPERTY), environment.apply(IMAGE_VARIABLE));
        Optional<String> external = setting(environment.apply(EXTERNAL_VARIABLE));
        if (external.isPresent()) {
            return new BrokerChoice(KafkaCluster.Origin.EXTERNAL, external.get(), image);
        }
        String mode = setting(systemProperties.apply(MODE_PROPERTY), environment.apply(MODE_VARIABLE))
                .orElse("embedded").toLowerCase(Locale.ROOT);
        return switch (mode) {
            case "embedded" -> new BrokerChoice(KafkaCluster.Origin.EMBEDDED, "", image);
            case "testcontainers" -> new BrokerChoice(KafkaCluster.Origin.TESTCONTAINERS, "", image);
            default -> throw new IllegalArgumentException(MODE_VARIABLE + " (or -D" + MODE_PROPERTY + ") is '"
                    + mode + "'; expected 'embedded' or 'testcontainers'");
        };
    }

    /** The first value that is set and not blank. */
    private static Optional<String> setting(String... values) {
        for (String value : values) {
            if (value != null && !value.isBlank()) {
                return Optional.of(value.trim());
            }
        }
        return Optional.empty();
    }
}
