package io.tablestream.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.testcontainers.DockerClientFactory;

/** Runs in its own JVM (see the pom): it loads Testcontainers, which the default path must not. */
class ContainerFallbackIT {

    @Test
    void fallsBackToTheEmbeddedBrokerWhenDockerIsMissing() throws Exception {
        BrokerChoice askedForContainer = BrokerChoice.from(
                name -> name.equals(BrokerChoice.MODE_VARIABLE) ? "testcontainers" : null, name -> null);

        try (RunningKafka kafka = RunningKafka.start(askedForContainer)) {
            KafkaCluster.Origin expected = DockerClientFactory.instance().isDockerAvailable()
                    ? KafkaCluster.Origin.TESTCONTAINERS
                    : KafkaCluster.Origin.EMBEDDED;
            assertThat(kafka.cluster().origin()).isEqualTo(expected);
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.cluster().bootstrapServers()))) {
                assertThat(admin.describeCluster().nodes().get(30, TimeUnit.SECONDS)).isNotEmpty();
            }
        }
    }
}
