package io.tablestream.server.operate;

import static io.tablestream.server.MetricsScrape.value;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableServiceException;
import io.tablestream.server.RawTableClient;
import io.tablestream.server.TableNames;
import io.tablestream.server.TablestreamServerExtension;
import io.tablestream.server.TablestreamServerExtension.RunningServer;
import io.tablestream.testsupport.KafkaExtension;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code /_metrics} and {@code /_health/*} on a running server: unsigned requests are answered, the
 * metric names operators and the example dashboard rely on are there (by Prometheus' naming), and
 * they move with the work done.
 */
@ExtendWith({KafkaExtension.class, TablestreamServerExtension.class})
class MetricsAndHealthIT {
    /** Every series the dashboard in docs/ and docs/operations.md name, by metric name and a label it must carry. */
    static final List<String> EXPECTED_SERIES = List.of(
            "tablestream_http_requests_seconds_bucket{operation=\"INSERT_ENTITY\",status=\"204\",le=\"0.005\"}",
            "tablestream_http_requests_seconds_count{operation=\"QUERY_ENTITIES\",status=\"200\"}",
            "tablestream_commands_appended_total{kind=\"entity\",mode=\"sync\"}",
            "tablestream_commands_appended_total{kind=\"table\",mode=\"sync\"}",
            "tablestream_entity_operations_appended_total",
            "tablestream_command_outcome_wait_seconds_count{result=\"applied\"}",
            "tablestream_command_outcome_wait_seconds_count{result=\"rejected\"}",
            "tablestream_command_append_seconds_count{result=\"ok\"}",
            "tablestream_commands_applied_total{result=\"applied\"}",
            "tablestream_commands_applied_total{result=\"rejected\"}",
            "tablestream_entity_changes_total{type=\"inserted\"}",
            "tablestream_entity_changes_total{type=\"deleted\"}",
            "tablestream_command_apply_delay_seconds_count",
            "tablestream_apply_lag_records{partition=\"0\"}",
            "tablestream_apply_lag_seconds{partition=\"3\"}",
            "tablestream_dead_letters_total{code=\"InvalidInput\"}",
            "tablestream_ttl_expired_total",
            "tablestream_rows_swept_total",
            "tablestream_processor_state{state=\"RUNNING\"}",
            "tablestream_processor_rebalances_total",
            "tablestream_partitions_promoted_total",
            "tablestream_partitions{role=\"active\"}",
            "tablestream_store_size_bytes{store=\"entities\"}",
            "tablestream_rocksdb_memory_bytes",
            "jvm_memory_used_bytes{area=\"heap\"",
            "jvm_gc_pause_seconds",
            "process_cpu_usage",
            "kafka_producer_record_send_total",
            "kafka_consumer_fetch_manager_records_consumed_total",
            "kafka_stream_thread_process_total");

    @Test
    void metricsAnswerUnsignedInPrometheusTextFormatWithEveryExpectedSeries(RunningServer server,
                                                                           TableServiceClient service) {
        // The JVM's GC pause timer is registered at the first collection's notification: a young test JVM
        // may not have had one yet (it had not once in CI). The server runs in this JVM, so ask for one.
        System.gc();
        TableClient table = service.createTable(TableNames.unique("Metrics"));
        table.createEntity(new TableEntity("p", "r1").addProperty("N", 1));
        table.createEntity(new TableEntity("p", "r2"));
        table.listEntities().forEach(e -> { });
        table.deleteEntity("p", "r2");
        assertThatThrownBy(() -> table.createEntity(new TableEntity("p", "r1"))) // rejected, and counted so
                .isInstanceOfSatisfying(TableServiceException.class,
                        e -> assertThat(e.getResponse().getStatusCode()).isEqualTo(409));
        RawTableClient raw = RawTableClient.to(server);
        raw.send("POST", table.getTableName(), "{\"PartitionKey\":\"p\",\"RowKey\":\"async\"}",
                "Prefer", "respond-async");

        RawTableClient.Response r = raw.requestAt("GET", "/_metrics").unsigned().send();

        assertThat(r.status()).isEqualTo(200);
        assertThat(r.header("Content-Type")).startsWith("text/plain; version=0.0.4");
        String text = r.body();
        assertThat(EXPECTED_SERIES).allSatisfy(series -> assertThat(text).as("series %s", series).contains(series));
        assertThat(value(text, "tablestream_processor_state{state=\"RUNNING\"}")).isEqualTo(1.0);
        assertThat(value(text, "tablestream_processor_state{state=\"ERROR\"}")).isEqualTo(0.0);
        assertThat(value(text, "tablestream_commands_applied_total{result=\"applied\"}")).isGreaterThanOrEqualTo(4);
        assertThat(value(text, "tablestream_commands_applied_total{result=\"rejected\"}")).isGreaterThanOrEqualTo(1);
        assertThat(value(text, "tablestream_entity_changes_total{type=\"deleted\"}")).isGreaterThanOrEqualTo(1);
        assertThat(value(text, "tablestream_partitions{role=\"active\"}")).isEqualTo(4.0);
        assertThat(value(text, "tablestream_store_size_bytes{store=\"entities\"}")).isPositive();
        assertThat(value(text, "tablestream_rocksdb_memory_bytes")).isPositive();
        // Kafka Streams' per-store series (NaN at the INFO recording level) are left out: the scrape stays small
        // (about 3,100 lines with a latency histogram on every timer of this server's operations).
        assertThat(text).doesNotContain("kafka_stream_state_").doesNotContain("kafka_stream_processor_node_");
        assertThat(text.lines().count()).isLessThan(4_000);
        // Every line is a comment or "name{labels} value": what Prometheus parses.
        assertThat(text.lines().filter(l -> !l.startsWith("#") && !l.isBlank()))
                .allMatch(l -> l.matches("[a-zA-Z_:][a-zA-Z0-9_:]*(\\{.*})? [-+0-9.eE]+|.* (NaN|[-+]Inf)"), "a sample line");
    }

    /** The example Grafana dashboard in docs/ asks only for metrics an instance serves. */
    @Test
    void everyMetricTheExampleDashboardQueriesIsServed(RunningServer server, TableServiceClient service)
            throws Exception {
        TableClient table = service.createTable(TableNames.unique("Dashboard"));
        table.createEntity(new TableEntity("p", "r"));
        String scrape = RawTableClient.to(server).requestAt("GET", "/_metrics").unsigned().send().body();
        com.fasterxml.jackson.databind.JsonNode dashboard = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(java.nio.file.Path.of("..", "docs", "grafana", "tablestream-dashboard.json").toFile());
        java.util.Set<String> queried = new java.util.TreeSet<>();
        Pattern metric = Pattern.compile("\\b((?:tablestream|jvm|process|kafka)_[a-z_]+)\\b");
        for (com.fasterxml.jackson.databind.JsonNode panel : dashboard.get("panels")) {
            for (com.fasterxml.jackson.databind.JsonNode target : panel.get("targets")) {
                Matcher m = metric.matcher(target.get("expr").asText());
                while (m.find()) {
                    queried.add(m.group(1));
                }
            }
        }

        assertThat(queried).hasSizeGreaterThan(15);
        assertThat(queried).allSatisfy(name -> assertThat(Pattern.compile("^" + name + "[{ ]", Pattern.MULTILINE)
                .matcher(scrape).find()).as("%s is served", name).isTrue());
    }

    @Test
    void requestCountsGrowWithRequests(RunningServer server, TableServiceClient service) {
        TableClient table = service.createTable(TableNames.unique("Counts"));
        RawTableClient raw = RawTableClient.to(server);
        String series = "tablestream_http_requests_seconds_count{operation=\"INSERT_ENTITY\",status=\"204\"}";
        table.createEntity(new TableEntity("p", "first"));
        double before = value(raw.requestAt("GET", "/_metrics").unsigned().send().body(), series);

        for (int i = 0; i < 5; i++) {
            table.createEntity(new TableEntity("p", "r" + i));
        }

        assertThat(value(raw.requestAt("GET", "/_metrics").unsigned().send().body(), series)).isEqualTo(before + 5);
    }

    @Test
    void readinessAndLivenessAnswerUnsignedWithEveryCheckUp(RunningServer server) {
        RawTableClient raw = RawTableClient.to(server);

        RawTableClient.Response ready = raw.requestAt("GET", "/_health/ready").unsigned().send();
        RawTableClient.Response live = raw.requestAt("GET", "/_health/live").unsigned().send();

        assertThat(ready.status()).as(ready.body()).isEqualTo(200);
        Map<String, Object> body = ready.json();
        assertThat(body).containsEntry("status", "UP");
        @SuppressWarnings("unchecked")
        Map<String, Map<String, Object>> checks = (Map<String, Map<String, Object>>) body.get("checks");
        assertThat(checks).containsOnlyKeys("broker", "processor", "stores", "registry");
        assertThat(checks.values()).allSatisfy(c -> assertThat(c).containsEntry("status", "UP"));
        assertThat(checks.get("processor")).containsEntry("detail", "RUNNING");
        assertThat(live.status()).isEqualTo(200);
        assertThat(live.json()).containsEntry("status", "UP");
    }

    @Test
    void internalEndpointsTakeGetOnlyAndTheClusterViewStillNeedsAKey(RunningServer server) {
        RawTableClient raw = RawTableClient.to(server);

        assertThat(raw.requestAt("POST", "/_health/ready").unsigned().send().status()).isEqualTo(405);
        assertThat(raw.requestAt("GET", "/_health").unsigned().send().errorCode()).isEqualTo("InvalidUri");
        assertThat(raw.requestAt("GET", "/_cluster").unsigned().send().status()).isEqualTo(403);
        assertThat(raw.requestAt("GET", "/_cluster").send().status()).isEqualTo(200);
    }
}
