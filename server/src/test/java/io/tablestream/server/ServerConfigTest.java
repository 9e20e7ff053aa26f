package io.tablestream.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
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
    void brokerSettingsPassThroughApartFromTheClients(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("tablestream.properties");
        Files.writeString(file, "broker.num.io.threads=4\nkafka.linger.ms=1\n");
        ServerConfig config = ServerConfig.load(file);

        assertThat(config.passThrough(ServerSettings.BROKER_PREFIX)).containsEntry("num.io.threads", "4")
                .doesNotContainKey("linger.ms");
        assertThat(config.passThrough(ServerSettings.KAFKA_PREFIX)).containsEntry("linger.ms", "1")
                .doesNotContainKey("num.io.threads");
        assertThat(ServerSettings.isKnownEnvironmentVariable("TABLESTREAM_BROKER_NUM_IO_THREADS")).isTrue();
    }

    @Test
    void ingestSettingsReachTheCommandLogAloneOverTheKafkaOnes() {
        ServerConfig config = ServerConfig.of(Map.of()).with("kafka.linger.ms", "5").with("kafka.acks", "all")
                .with("ingest.linger.ms", "1");

        assertThat(TablestreamServer.commandLogOverrides(config)).containsEntry("linger.ms", "1")
                .containsEntry("acks", "all");
        assertThat(TablestreamServer.kafkaStreamsOverrides(config)).containsEntry("linger.ms", "5");
        assertThat(ServerSettings.isKnownEnvironmentVariable("TABLESTREAM_INGEST_LINGER_MS")).isTrue();
    }

    @Test
    void everyKafkaClientOfAnInstanceOnSeveralBrokersGivesUpOnASilentOneSoonerUnlessToldOtherwise() {
        ServerConfig several = ServerConfig.of(Map.of(ServerSettings.KAFKA_BOOTSTRAP_SERVERS, "k1:9092,k2:9092,k3:9092"));
        assertThat(TablestreamServer.kafkaStreamsOverrides(several)).containsEntry("request.timeout.ms", "2000")
                .containsEntry("metadata.max.age.ms", "3000").containsEntry("reconnect.backoff.ms", "1000")
                .containsEntry("reconnect.backoff.max.ms", "1000");
        assertThat(TablestreamServer.commandLogOverrides(several)).containsEntry("request.timeout.ms", "2000")
                .containsEntry("metadata.max.age.ms", "3000");

        assertThat(several.with("kafka.request.timeout.ms", "5000").kafkaClients())
                .containsEntry("request.timeout.ms", "5000").containsEntry("metadata.max.age.ms", "3000");
        assertThat(ServerConfig.of(Map.of(ServerSettings.KAFKA_BOOTSTRAP_SERVERS, "k1:9092")).kafkaClients())
                .as("one broker: Kafka's own").doesNotContainKeys("request.timeout.ms", "metadata.max.age.ms");
        assertThat(ServerConfig.of(Map.of()).kafkaClients()).as("the embedded broker")
                .doesNotContainKeys("request.timeout.ms", "metadata.max.age.ms");
    }

    @Test
    void theHttpThreadPoolIsSizedBySettings() {
        QueuedThreadPool pool = TablestreamServer.httpThreadPool(ServerConfig.of(Map.of(ServerSettings.HTTP_THREADS, 12,
                ServerSettings.HTTP_MIN_THREADS, 3, ServerSettings.HTTP_RESERVED_THREADS, 0)));

        assertThat(pool.getMaxThreads()).isEqualTo(12);
        assertThat(pool.getMinThreads()).isEqualTo(3);
        assertThat(pool.getReservedThreads()).isZero();
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

    @Test
    void helpListsEverySettingWithItsVariableAndDefault() {
        String help = Main.help();

        for (Setting<?> setting : ServerSettings.ALL) {
            assertThat(help).contains(setting.name()).contains(setting.environmentVariable())
                    .contains("'" + setting.defaultValue() + "'");
        }
        assertThat(help).contains("responder-threads", "registry-wait-ms", "query-page-bytes", "table-scan-budget",
                "rocksdb-memory-bytes", "rocksdb-write-buffer-bytes", "expiry-interval-ms", "expiry-batch",
                "sweep-interval-ms", "sweep-batch", "index-build-interval-ms", "index-build-batch",
                "standby-lag-refresh-ms", "TABLESTREAM_ROCKSDB_MEMORY_BYTES");
    }

    @Test
    void everySettingHasADistinctNameAndVariable() {
        assertThat(ServerSettings.ALL.stream().map(Setting::name)).doesNotHaveDuplicates();
        assertThat(ServerSettings.ALL.stream().map(Setting::environmentVariable)).doesNotHaveDuplicates();
    }

    @Test
    void theProcessorsBackgroundWorkMemoryAndLagRefreshComeFromTheCatalogue() {
        ServerConfig config = ServerConfig.of(Map.of(ServerSettings.EXPIRY_INTERVAL_MS, 250,
                ServerSettings.EXPIRY_BATCH, 7, ServerSettings.SWEEP_INTERVAL_MS, 60_000, ServerSettings.SWEEP_BATCH, 9,
                ServerSettings.INDEX_BUILD_INTERVAL_MS, 50, ServerSettings.INDEX_BUILD_BATCH, 11,
                ServerSettings.ROCKSDB_MEMORY_BYTES, 64L * 1024 * 1024,
                ServerSettings.ROCKSDB_WRITE_BUFFER_BYTES, 16L * 1024 * 1024,
                ServerSettings.STANDBY_LAG_REFRESH_MS, 1_000));

        io.tablestream.processor.StreamProcessorConfig processor = TablestreamServer.processorConfig(config,
                "localhost:9092", Path.of("data"), java.time.Clock.systemUTC());

        assertThat(processor.housekeeping()).isEqualTo(new io.tablestream.processor.Housekeeping(
                java.time.Duration.ofMillis(250), 7, java.time.Duration.ofMinutes(1), 9,
                java.time.Duration.ofMillis(50), 11));
        assertThat(processor.storeMemory()).isEqualTo(
                new io.tablestream.processor.StoreMemory(64L * 1024 * 1024, 16L * 1024 * 1024));
        assertThat(processor.lagRefresh()).isEqualTo(java.time.Duration.ofSeconds(1));
        assertThat(TablestreamServer.queryBudgets(ServerConfig.of(Map.of(ServerSettings.TABLE_SCAN_BUDGET, 5))))
                .isEqualTo(new io.tablestream.query.http.QueryBudgets(50_000, 4L * 1024 * 1024, 5));
    }

    @Test
    void aSettingOfTheWrongTypeIsRefusedNamingWhereItCameFrom() {
        ServerConfig config = ServerConfig.of(Map.of(ServerSettings.ROCKSDB_MEMORY_BYTES, "lots"));

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> config.get(ServerSettings.ROCKSDB_MEMORY_BYTES))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("RocksDB");
    }
}
