package io.tablestream.server.operate;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.config.MeterFilterReply;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.stats.CumulativeSum;
import org.apache.kafka.common.metrics.stats.Value;
import org.junit.jupiter.api.Test;

/** Kafka's metrics as meters, on Kafka's own metrics registry: named as Micrometer names them, refreshed by difference. */
class KafkaMetersTest {
    private final Metrics kafka = new Metrics();
    private final AtomicInteger registrations = new AtomicInteger();
    private final MeterRegistry registry = new SimpleMeterRegistry();

    KafkaMetersTest() {
        registry.config().meterFilter(new MeterFilter() {
            @Override
            public MeterFilterReply accept(Meter.Id id) {
                registrations.incrementAndGet();
                return MeterFilterReply.NEUTRAL;
            }
        });
    }

    private MetricName add(String group, String name, Map<String, String> tags) {
        MetricName metric = kafka.metricName(name, group, "", tags);
        kafka.addMetric(metric, name.endsWith("total") ? new CumulativeSum() : new Value());
        return metric;
    }

    @Test
    void namesMetersAsMicrometerDoesAndLeavesOutTheDetailedSeries() {
        add("stream-thread-metrics", "process-total", Map.of("thread-id", "t1"));
        add("producer-metrics", "record-send-rate", Map.of("client-id", "p1"));
        for (int store = 0; store < 100; store++) {
            add("stream-state-metrics", "put-rate", Map.of("store", "s" + store));
        }
        add("consumer-fetch-manager-metrics", "records-lag", Map.of("client-id", "c", "topic", "t", "partition", "0"));
        add("stream-state-updater-metrics", "active-restore-ratio", Map.of("thread-id", "u1"));

        try (KafkaMeters meters = new KafkaMeters(kafka::metrics)) {
            meters.bindTo(registry);

            assertThat(registry.find("kafka.stream.thread.process.total").tag("thread.id", "t1").functionCounter())
                    .isNotNull();
            assertThat(registry.find("kafka.producer.record.send.rate").tag("client.id", "p1").gauge()).isNotNull();
            assertThat(registry.getMeters()).extracting(m -> m.getId().getName())
                    .noneMatch(n -> n.startsWith("kafka.stream.state.") || n.equals("kafka.consumer.fetch.manager.records.lag"))
                    .noneMatch(n -> n.startsWith("kafka.kafka.metrics.count"));
        }
    }

    @Test
    void aRefreshRegistersOnlyWhatAppearedAndRemovesWhatWentAway() {
        MetricName first = add("stream-thread-metrics", "process-total", Map.of("thread-id", "t1"));
        for (int store = 0; store < 100; store++) {
            add("stream-state-metrics", "put-rate", Map.of("store", "s" + store));
        }
        try (KafkaMeters meters = new KafkaMeters(kafka::metrics)) {
            meters.bindTo(registry);
            int before = registrations.get();

            add("stream-thread-metrics", "process-total", Map.of("thread-id", "t2"));
            kafka.removeMetric(first);
            meters.refresh();

            // one registration for the new metric; none again for the 100 left out nor the one held
            assertThat(registrations.get() - before).isOne();
            assertThat(registry.find("kafka.stream.thread.process.total").functionCounters())
                    .extracting(c -> c.getId().getTag("thread.id")).containsExactly("t2");
            meters.refresh();
            assertThat(registrations.get() - before).isOne();
        }
        assertThat(registry.find("kafka.stream.thread.process.total").functionCounters()).isEmpty();
    }

    @Test
    void keepsTheFullerOfTwoTagSetsUnderOneName() {
        add("consumer-fetch-manager-metrics", "bytes-consumed-total", Map.of("client-id", "c"));
        try (KafkaMeters meters = new KafkaMeters(kafka::metrics)) {
            meters.bindTo(registry);
            add("consumer-fetch-manager-metrics", "bytes-consumed-total", Map.of("client-id", "c", "topic", "t"));
            meters.refresh();

            assertThat(registry.find("kafka.consumer.fetch.manager.bytes.consumed.total").functionCounters())
                    .extracting(c -> c.getId().getTag("topic")).containsExactly("t");
        }
    }
}
