package io.tablestream.server;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FailoverClientSettingsTest {
    @Test
    void oneBrokerKeepsKafkasOwnSettings() {
        assertThat(FailoverClientSettings.forCluster("kafka:9092", 0)).isEmpty();
        assertThat(FailoverClientSettings.forCluster("kafka:9092", 1)).isEmpty();
    }

    @Test
    void severalAddressesOrSeveralBrokersBehindOneAddressGetTheFailOverSettings() {
        assertThat(FailoverClientSettings.forCluster("kafka-1:9092,kafka-2:9092", 0))
                .containsEntry("request.timeout.ms", "2000");
        assertThat(FailoverClientSettings.forCluster("kafka.example.com:9092", 3))
                .containsEntry("request.timeout.ms", "2000")
                .containsEntry("metadata.max.age.ms", "3000")
                .containsEntry("reconnect.backoff.ms", "1000")
                .containsEntry("reconnect.backoff.max.ms", "1000");
    }

    @Test
    void blankAddressesAreNotCounted() {
        assertThat(FailoverClientSettings.addresses("kafka:9092, ,")).isEqualTo(1);
    }

    @Test
    void theSettingsReachEveryClientUnlessAPassThroughSaysOtherwise() {
        ServerConfig config = ServerConfig.of(java.util.Map.of(ServerSettings.KAFKA_BOOTSTRAP_SERVERS, "kafka:9092"))
                .brokersFound(3)
                .with("kafka.request.timeout.ms", "5000");
        assertThat(config.kafkaClients()).containsEntry("request.timeout.ms", "5000")
                .containsEntry("metadata.max.age.ms", "3000");
    }
}
