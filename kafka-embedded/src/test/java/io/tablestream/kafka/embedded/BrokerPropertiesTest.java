package io.tablestream.kafka.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import kafka.server.KafkaConfig;
import org.junit.jupiter.api.Test;

class BrokerPropertiesTest {
    private static final Path DATA = Path.of("/var/lib/tablestream/kafka");

    private static BrokerProperties properties(String host, Map<String, String> overrides) {
        return new BrokerProperties(DATA, host, 9092, 9093, 30_000, overrides);
    }

    @Test
    void isAConfigurationKafkaAcceptsForACombinedSingleNode() {
        KafkaConfig config = new KafkaConfig(properties("127.0.0.1", Map.of()).asMap(), false);

        assertThat(config.nodeId()).isEqualTo(1);
        assertThat(config.logDirs()).containsExactly(DATA.toString());
        assertThat(config.autoCreateTopicsEnable()).isFalse();
    }

    @Test
    void advertisesTheClientListenerItBinds() {
        BrokerProperties properties = properties("127.0.0.1", Map.of());

        assertThat(properties.bootstrapServers()).isEqualTo("127.0.0.1:9092");
        assertThat(properties.asMap())
                .containsEntry("listeners", "PLAINTEXT://127.0.0.1:9092,CONTROLLER://127.0.0.1:9093")
                .containsEntry("advertised.listeners", "PLAINTEXT://127.0.0.1:9092")
                .containsEntry("controller.quorum.voters", "1@127.0.0.1:9093");
    }

    @Test
    void aSecureListenerIsBoundAndAdvertisedBesideThePlainOne() {
        BrokerProperties properties = new BrokerProperties(DATA, "127.0.0.1", 9092, 9093, 30_000, Map.of(),
                new BrokerProperties.SecureListener("SASL_SSL", 9094));

        assertThat(properties.secureBootstrapServers()).isEqualTo("127.0.0.1:9094");
        assertThat(properties.asMap())
                .containsEntry("listeners", "PLAINTEXT://127.0.0.1:9092,CONTROLLER://127.0.0.1:9093,SASL_SSL://127.0.0.1:9094")
                .containsEntry("advertised.listeners", "PLAINTEXT://127.0.0.1:9092,SASL_SSL://127.0.0.1:9094")
                .containsEntry("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT,SASL_SSL:SASL_SSL")
                .containsEntry("inter.broker.listener.name", "PLAINTEXT");
    }

    @Test
    void bracketsIpv6Literals() {
        BrokerProperties properties = properties("::1", Map.of());

        assertThat(properties.bootstrapServers()).isEqualTo("[::1]:9092");
        assertThat(properties.asMap()).containsEntry("controller.quorum.voters", "1@[::1]:9093");
    }

    @Test
    void keepsRecordsAndCommittedOffsetsUnlessATopicSaysOtherwise() {
        assertThat(properties("127.0.0.1", Map.of()).asMap())
                .containsEntry("log.retention.ms", "-1")
                .containsEntry("log.retention.bytes", "-1")
                .containsEntry("offsets.retention.minutes", Integer.toString(Integer.MAX_VALUE));
    }

    @Test
    void givesEveryInternalTopicOneReplica() {
        assertThat(properties("127.0.0.1", Map.of()).asMap())
                .containsEntry("offsets.topic.replication.factor", "1")
                .containsEntry("transaction.state.log.replication.factor", "1")
                .containsEntry("transaction.state.log.min.isr", "1")
                .containsEntry("share.coordinator.state.topic.replication.factor", "1")
                .containsEntry("min.insync.replicas", "1");
    }

    @Test
    void givesEveryTopicOfAThreeNodeQuorumThreeReplicasAndTwoInSync() {
        BrokerProperties node2 = new BrokerProperties(DATA, "127.0.0.1", 9094, 9095,
                new BrokerProperties.Quorum(2, List.of("127.0.0.1:9093", "127.0.0.1:9095", "127.0.0.1:9097")), 0, Map.of());

        KafkaConfig config = new KafkaConfig(node2.asMap(), false);

        assertThat(config.nodeId()).isEqualTo(2);
        assertThat(node2.asMap())
                .containsEntry("controller.quorum.voters", "1@127.0.0.1:9093,2@127.0.0.1:9095,3@127.0.0.1:9097")
                .containsEntry("default.replication.factor", "3")
                .containsEntry("min.insync.replicas", "2")
                .containsEntry("offsets.topic.replication.factor", "3")
                .containsEntry("transaction.state.log.replication.factor", "3")
                .containsEntry("transaction.state.log.min.isr", "2")
                .containsEntry("share.coordinator.state.topic.replication.factor", "3")
                .containsEntry("share.coordinator.state.topic.min.isr", "2")
                .doesNotContainKey("server.max.startup.time.ms");
    }

    @Test
    void givesATwoNodeQuorumTwoReplicasOfWhichOneMustHaveAWrite() {
        BrokerProperties.Quorum two = new BrokerProperties.Quorum(1, List.of("h:1", "h:2"));

        assertThat(two.replicas()).isEqualTo(2);
        assertThat(two.minInSyncReplicas()).isEqualTo(1);
    }

    @Test
    void letsExtraPropertiesReplaceDefaults() {
        assertThat(properties("127.0.0.1", Map.of("log.retention.ms", "60000", "num.io.threads", "4")).asMap())
                .containsEntry("log.retention.ms", "60000")
                .containsEntry("num.io.threads", "4");
    }

    @Test
    void keepsRequestThreadsFewForABrokerSharingItsProcess() {
        assertThat(properties("127.0.0.1", Map.of()).asMap())
                .containsEntry("num.io.threads", "2")
                .containsEntry("num.network.threads", "1");
    }

    @Test
    void givesUpOnAnotherBrokerThatStopsAnsweringAfterOneAndAHalfSecondsAndFencesADeadOneAfterThree() {
        BrokerProperties node2 = new BrokerProperties(DATA, "127.0.0.1", 9094, 9095,
                new BrokerProperties.Quorum(2, List.of("127.0.0.1:9093", "127.0.0.1:9095", "127.0.0.1:9097")), 0, Map.of());
        assertThat(node2.asMap())
                .containsEntry("request.timeout.ms", "1500")
                .containsEntry("broker.session.timeout.ms", "3000");
        assertThat(properties("127.0.0.1", Map.of()).asMap()).as("a single broker, which only asks itself")
                .containsEntry("request.timeout.ms", "5000")
                .containsEntry("broker.session.timeout.ms", "3000");
    }
}
