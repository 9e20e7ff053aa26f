package io.tablestream.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServerConfigTest {

    @Test
    void kafkaSettingsPassThroughFromTheFileTheEnvironmentAndSystemPropertiesInThatOrder(@TempDir Path dir)
            throws IOException {
        Path file = dir.resolve("tablestream.properties");
        Files.writeString(file, "kafka.security.protocol=SASL_SSL\nkafka.session.timeout.ms=1\nstreams.num.standby.replicas=2\n");
        ServerConfig config = ServerConfig.load(file);

        assertThat(config.passThrough(ServerSettings.KAFKA_PREFIX))
                .containsEntry("security.protocol", "SASL_SSL").containsEntry("session.timeout.ms", "1");
        assertThat(config.passThrough(ServerSettings.STREAMS_PREFIX)).containsEntry("num.standby.replicas", "2");
    }

    @Test
    void environmentVariablesNameKafkaSettingsAsKafkasImagesDo() {
        assertThat(Setting.passThroughName("SESSION_TIMEOUT_MS")).isEqualTo("session.timeout.ms");
        assertThat(Setting.passThroughName("CONSUMER_GROUP__ID")).isEqualTo("consumer.group_id");
        assertThat(Setting.passThroughName("SASL_JAAS___CONFIG")).isEqualTo("sasl.jaas-config");
    }

    @Test
    void valuesGivenInCodeWinAndNamedSettingsAreNotPassThrough() {
        ServerConfig config = ServerConfig.of(Map.of(ServerSettings.KAFKA_PORT, 9092))
                .with("streams.consumer.session.timeout.ms", "7000");

        assertThat(config.passThrough(ServerSettings.STREAMS_PREFIX)).containsExactly(
                Map.entry("consumer.session.timeout.ms", "7000"));
        assertThat(config.passThrough(ServerSettings.KAFKA_PREFIX)).isEmpty();
    }

    @Test
    void knowsEveryVariableItReads() {
        assertThat(ServerSettings.isKnownEnvironmentVariable("TABLESTREAM_PORT")).isTrue();
        assertThat(ServerSettings.isKnownEnvironmentVariable("KAFKA_BOOTSTRAP_SERVERS")).isTrue();
        assertThat(ServerSettings.isKnownEnvironmentVariable("TABLESTREAM_STANDBY_REPLICAS")).isTrue();
        assertThat(ServerSettings.isKnownEnvironmentVariable("TABLESTREAM_KAFKA_SECURITY_PROTOCOL")).isTrue();
        assertThat(ServerSettings.isKnownEnvironmentVariable("TABLESTREAM_STREAMS_NUM_STREAM_THREADS")).isTrue();
        assertThat(ServerSettings.isKnownEnvironmentVariable("TABLESTREAM_STANDBYS")).isFalse();
        assertThat(ServerSettings.isKnownEnvironmentVariable("TABLESTREAM_KAFKA_")).isFalse();
    }

    @Test
    void theStreamsOverridesCarryTheFailOverSettingsAndPassThroughsWin() {
        ServerConfig config = ServerConfig.of(Map.of(ServerSettings.GROUP_SESSION_TIMEOUT_MS, 8000))
                .with("streams.producer.transaction.timeout.ms", "4000");

        Map<String, Object> overrides = TablestreamServer.kafkaStreamsOverrides(config);

        assertThat(overrides).containsEntry("consumer.session.timeout.ms", 8000)
                .containsEntry("consumer.heartbeat.interval.ms", 1000)
                .containsEntry("producer.transaction.timeout.ms", "4000");
    }
}
