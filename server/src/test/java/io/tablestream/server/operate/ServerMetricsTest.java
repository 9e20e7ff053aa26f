package io.tablestream.server.operate;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ServerMetricsTest {

    @Test
    void everyTablestreamTimerHasTheOneSetOfLatencyBucketsAndOtherTimersNone() {
        try (ServerMetrics metrics = new ServerMetrics()) {
            Timer ours = Timer.builder("tablestream.anything").register(metrics.registry());
            Timer theirs = Timer.builder("jvm.anything").register(metrics.registry());
            ours.record(3, TimeUnit.MILLISECONDS);
            theirs.record(3, TimeUnit.MILLISECONDS);

            CountAtBucket[] buckets = ours.takeSnapshot().histogramCounts();
            assertThat(Arrays.stream(buckets).mapToDouble(c -> c.bucket(TimeUnit.NANOSECONDS)).toArray())
                    .containsExactly(Arrays.stream(ServerMetrics.LATENCY_BUCKETS).mapToDouble(Duration::toNanos).toArray());
            assertThat(Arrays.stream(buckets).mapToDouble(CountAtBucket::count).toArray()).contains(0.0, 1.0);
            assertThat(theirs.takeSnapshot().histogramCounts()).isEmpty();
        }
    }
}
