package io.tablestream.testsupport;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives tests a real Kafka broker as a {@link KafkaCluster} parameter. One broker serves every test
 * class of the JVM: it is chosen and started the first time a test asks for it (by
 * {@code KAFKA_BOOTSTRAP_SERVERS}, {@code TABLESTREAM_TEST_KAFKA}, see {@link BrokerChoice}) and
 * stopped when the test run ends. Tests keep out of each other's way with
 * {@link KafkaCluster#uniqueName(String)}.
 *
 * <p>Use {@link KafkaTest @KafkaTest} or {@code @ExtendWith(KafkaExtension.class)}.
 */
public final class KafkaExtension implements ParameterResolver {
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(KafkaExtension.class);

    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return parameterContext.getParameter().getType() == KafkaCluster.class;
    }

    @Override
    public KafkaCluster resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return cluster(extensionContext);
    }

    /** The broker of this test run, started on first use; for extensions and lifecycle code. */
    public static KafkaCluster cluster(ExtensionContext context) {
        // The root store computes the value once even when tests run in parallel, and closes it
        // (it is AutoCloseable) when the whole test run is over.
        return context.getRoot().getStore(NAMESPACE)
                .getOrComputeIfAbsent(RunningKafka.class, key -> RunningKafka.start(BrokerChoice.fromEnvironment()),
                        RunningKafka.class)
                .cluster();
    }
}
