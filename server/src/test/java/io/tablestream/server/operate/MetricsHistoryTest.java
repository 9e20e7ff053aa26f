package io.tablestream.server.operate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tablestream.processor.StreamProcessorMetrics;
import io.tablestream.protocol.http.RequestMetrics;
import io.tablestream.protocol.request.Operation;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The key metrics' history: rates between readings, interpolated percentiles, a bounded ring, its JSON. */
class MetricsHistoryTest {
    private final MeterRegistry registry = bucketed(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
    private final RequestMetrics requests = new RequestMetrics(registry);
    private final MutableClock clock = new MutableClock();

    private static final class MutableClock extends Clock {
        long millis = 1_000_000;

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis);
        }
    }

    /** The registry as the server configures it: its timers with the latency buckets the history reads. */
    private static MeterRegistry bucketed(MeterRegistry registry) {
        registry.config().meterFilter(ServerMetrics.latencyBuckets());
        return registry;
    }

    private void answer(int n, int status, double millis) {
        for (int i = 0; i < n; i++) {
            requests.record(Operation.GET_ENTITY, status, (long) (millis * 1_000_000));
        }
    }

    @Test
    void interpolatesAPercentileWithinItsBucketInsteadOfJumpingToTheBound() {
        MetricsHistory.Reading before = MetricsHistory.Reading.of(registry, 0);
        // 100 requests spread over the 10-25 ms bucket: p50 falls half-way into it
        answer(100, 200, 12);
        MetricsHistory.Reading after = MetricsHistory.Reading.of(registry, 5000);

        assertThat(MetricsHistory.quantile(before, after, 0.5) * 1000).isCloseTo(17.5, within(0.01));
        assertThat(MetricsHistory.quantile(before, after, 0.99) * 1000).isCloseTo(24.85, within(0.01));
    }

    @Test
    void aPercentileCountsOnlyTheRequestsBetweenTwoReadings() {
        answer(1000, 200, 300); // before the first reading: not counted
        MetricsHistory.Reading before = MetricsHistory.Reading.of(registry, 0);
        answer(99, 200, 0.7);
        answer(1, 200, 40);
        MetricsHistory.Reading after = MetricsHistory.Reading.of(registry, 5000);

        // p99 is the 99th of 100: the last in the 0.5-1 ms bucket, not the 300 ms of earlier requests
        assertThat(MetricsHistory.quantile(before, after, 0.99) * 1000).isCloseTo(1.0, within(0.01));
        assertThat(MetricsHistory.quantile(after, after, 0.99)).isNaN();
    }

    @Test
    void keepsRatesOfTheLastReadingsOnlyAndWritesThemAsJson() throws Exception {
        MetricsHistory history = new MetricsHistory(registry, clock, Duration.ofSeconds(5), Duration.ofSeconds(15));
        history.read();
        for (int i = 1; i <= 4; i++) {
            answer(10 * i, 200, 1);
            answer(i, 404, 1);
            clock.millis += 5000;
            history.read();
        }
        String json = new String(history.json(), StandardCharsets.UTF_8);

        // three readings kept (15 s of 5 s), oldest first; rates per second between readings
        assertThat(json).startsWith("{\"intervalSeconds\":5.0,\"time\":[1010.0,1015.0,1020.0],\"charts\":[");
        assertThat(json).contains("{\"id\":\"requests\",\"title\":\"Requests answered\",\"unit\":\"req/s\",\"lines\":["
                + "{\"name\":\"all\",\"values\":[4.4,6.6,8.8]},{\"name\":\"4xx\",\"values\":[0.4,0.6,0.8]},"
                + "{\"name\":\"5xx\",\"values\":[0.0,0.0,0.0]}]}");
        assertThat(json).contains("{\"name\":\"Java heap used\",\"values\":[0.0,0.0,0.0]}");
        history.close();
    }

    @Test
    void countsCommandsAppliedFromAFunctionCounter() throws Exception {
        AtomicLong applied = new AtomicLong();
        FunctionCounter.builder(StreamProcessorMetrics.COMMANDS_APPLIED, applied, AtomicLong::get).tag("result", "applied")
                .register(registry);
        MetricsHistory history = new MetricsHistory(registry, clock, Duration.ofSeconds(5), Duration.ofMinutes(1));
        history.read();
        applied.addAndGet(50);
        clock.millis += 5000;
        history.read();
        assertThat(new String(history.json(), StandardCharsets.UTF_8))
                .contains("{\"name\":\"commands applied\",\"values\":[null,10.0]}");
        history.close();
    }

    @Test
    void theFirstReadingHasNoRateYet() throws Exception {
        MetricsHistory history = new MetricsHistory(registry, clock, Duration.ofSeconds(5), Duration.ofMinutes(1));
        answer(3, 200, 1);
        history.read();
        assertThat(new String(history.json(), StandardCharsets.UTF_8))
                .contains("{\"name\":\"all\",\"values\":[null]}", "{\"name\":\"p99\",\"values\":[null]}");
        history.close();
    }
}
