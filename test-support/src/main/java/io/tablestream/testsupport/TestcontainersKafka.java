package io.tablestream.testsupport;

import java.util.Optional;
import org.apache.kafka.common.utils.AppInfoParser;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.utility.DockerImageName;

/** The only class that touches Testcontainers; loaded only when a test run asks for it. */
final class TestcontainersKafka {
    private TestcontainersKafka() {
    }

    static Optional<RunningKafka> startIfDockerAvailable(Optional<String> image, String runId) {
        if (!DockerClientFactory.instance().isDockerAvailable()) {
            return Optional.empty();
        }
        String imageName = image.orElse("apache/kafka:" + AppInfoParser.getVersion());
        KafkaContainer container = new KafkaContainer(DockerImageName.parse(imageName))
                .withEnv("KAFKA_AUTO_CREATE_TOPICS_ENABLE", "false");
        container.start();
        KafkaCluster cluster = new KafkaCluster(KafkaCluster.Origin.TESTCONTAINERS,
                container.getBootstrapServers(), runId);
        return Optional.of(new RunningKafka(cluster, container::stop));
    }
}
