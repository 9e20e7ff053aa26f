package io.tablestream.server.operate;

import io.javalin.http.Context;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tablestream.ingest.command.CommandLog;
import io.tablestream.ingest.command.MeteredCommandLog;
import io.tablestream.ingest.kafka.KafkaCommandLog;
import io.tablestream.protocol.http.OperationHandler;
import io.tablestream.protocol.http.RequestContext;
import io.tablestream.protocol.http.RequestMetrics;
import io.tablestream.protocol.http.ResponseHeaders;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The instance's metrics registry, in Prometheus format at {@code GET /_metrics}: the JVM's own
 * (memory, GC, threads, CPU, class loading, file descriptors, uptime) and whatever the modules bind
 * to it — each module counts in the place that owns the work (the request pipeline, the command
 * log, the stream processor) and this class only gathers them. Names follow Prometheus conventions
 * (snake case, {@code _total} for counters, {@code _seconds} and {@code _bytes} units); see
 * docs/operations.md for the list.
 */
public final class ServerMetrics implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ServerMetrics.class);
    /** The Prometheus text format the answer uses (0.0.4, what every Prometheus scrapes). */
    static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final Deque<AutoCloseable> closeables = new ArrayDeque<>();

    /**
     * The one set of latency buckets (histogram bounds) of every Tablestream timer — requests, appends,
     * outcome waits, apply delays: from a point read's half millisecond to a command waiting out a
     * rebalance. The modules only time; the registry gives their timers these bounds.
     */
    static final Duration[] LATENCY_BUCKETS = {Duration.ofNanos(500_000), Duration.ofMillis(1), Duration.ofMillis(2),
            Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(25), Duration.ofMillis(50),
            Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1),
            Duration.ofMillis(2500), Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(30),
            Duration.ofMinutes(2)};

    public ServerMetrics() {
        registry.config().meterFilter(latencyBuckets());
        bind(new ClassLoaderMetrics());
        bind(new JvmMemoryMetrics());
        bind(new JvmGcMetrics());
        bind(new JvmThreadMetrics());
        bind(new ProcessorMetrics());
        bind(new UptimeMetrics());
        bind(new FileDescriptorMetrics());
    }

    /** Gives every Tablestream timer {@link #LATENCY_BUCKETS} (the console's history reads them too). */
    static MeterFilter latencyBuckets() {
        double[] nanos = Arrays.stream(LATENCY_BUCKETS).mapToDouble(Duration::toNanos).toArray();
        return new MeterFilter() {
            @Override
            public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
                if (id.getType() != Meter.Type.TIMER || !id.getName().startsWith("tablestream.")) {
                    return config;
                }
                return DistributionStatisticConfig.builder().serviceLevelObjectives(nanos).build().merge(config);
            }
        };
    }

    /** A Kafka client's (or Kafka Streams') own metrics, as {@code kafka_*} meters ({@link KafkaMeters}). */
    public void bindKafka(Supplier<? extends Map<MetricName, ? extends Metric>> metrics) {
        bind(new KafkaMeters(metrics));
    }

    public MeterRegistry registry() {
        return registry;
    }

    /** Binds {@code binder}, closing it with the registry when it holds resources. */
    public void bind(MeterBinder binder) {
        binder.bindTo(registry);
        if (binder instanceof AutoCloseable c) {
            closeables.push(c);
        }
    }

    /** The request pipeline's observer. */
    public RequestMetrics requests() {
        return new RequestMetrics(registry);
    }

    /** {@code log} counted and timed, and its Kafka clients' metrics bound. */
    public CommandLog commandLog(KafkaCommandLog log) {
        log.clientMetrics().forEach(this::bindKafka);
        return new MeteredCommandLog(log, registry);
    }

    /** {@code GET /_metrics}: every meter, in Prometheus' text format. */
    public OperationHandler endpoint() {
        return this::scrape;
    }

    private void scrape(RequestContext request, Context http) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(64 * 1024);
        registry.scrape(out);
        ResponseHeaders.standard(http, request);
        http.contentType(CONTENT_TYPE);
        http.result(out.toByteArray());
    }

    @Override
    public void close() {
        while (!closeables.isEmpty()) {
            try {
                closeables.pop().close();
            } catch (Exception e) {
                LOG.debug("Closing a metrics binder failed", e);
            }
        }
        registry.close();
    }
}
