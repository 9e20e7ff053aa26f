package io.tablestream.server.operate;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.javalin.http.Context;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import io.tablestream.ingest.command.MeteredCommandLog;
import io.tablestream.processor.StreamProcessorMetrics;
import io.tablestream.protocol.http.OperationHandler;
import io.tablestream.protocol.http.RequestContext;
import io.tablestream.protocol.http.RequestMetrics;
import io.tablestream.protocol.http.ResponseHeaders;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A few minutes of this instance's key metrics, read from its registry at a fixed interval and kept
 * in memory, at {@code GET /_metrics/history}: what the console draws, so that its charts show the
 * last minutes on arrival instead of starting empty. Rates are per second between two readings;
 * latency percentiles are interpolated within the histogram's bucket, as Prometheus'
 * {@code histogram_quantile} does (not the bucket's upper bound). Reading the registry costs
 * microseconds and happens on a thread of its own; an answer is a few kilobytes.
 */
public final class MetricsHistory implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MetricsHistory.class);
    private static final JsonFactory JSON = new JsonFactory();
    private static final double MIB = 1024 * 1024;

    /** One line of a chart: its name and how it is computed from two readings {@code seconds} apart. */
    record Line(String name, Value value) {
    }

    /** A line's value from the previous reading (null at the first) and the current one. */
    interface Value {
        double of(Reading previous, Reading current, double seconds);
    }

    /** A chart: lines sharing a unit. */
    record Chart(String id, String title, String unit, List<Line> lines) {
    }

    /** What the console shows. */
    static final List<Chart> CHARTS = List.of(
            new Chart("requests", "Requests answered", "req/s", List.of(
                    new Line("all", rate(Reading::requests)),
                    new Line("4xx", rate(Reading::clientErrors)),
                    new Line("5xx", rate(Reading::serverErrors)))),
            new Chart("latency", "Request latency", "ms", List.of(
                    new Line("p50", (a, b, s) -> quantile(a, b, 0.50) * 1000),
                    new Line("p99", (a, b, s) -> quantile(a, b, 0.99) * 1000))),
            new Chart("writes", "Writes", "ops/s", List.of(
                    new Line("entity writes appended", rate(Reading::entityWrites)),
                    new Line("commands applied", rate(Reading::commandsApplied)))),
            new Chart("lag", "Apply lag (largest partition)", "commands", List.of(
                    new Line("lag", (a, b, s) -> b.applyLag()))),
            new Chart("cpu", "Process CPU", "% of the machine", List.of(
                    new Line("cpu", (a, b, s) -> b.cpu() * 100))),
            new Chart("memory", "Memory", "MiB", List.of(
                    new Line("Java heap used", (a, b, s) -> b.heapBytes() / MIB),
                    new Line("RocksDB", (a, b, s) -> b.rocksDbBytes() / MIB))));

    /**
     * The registry's counts at one time. {@code latencyBuckets}: cumulative count of requests at or
     * under each bucket's bound in seconds (the last, +Inf, is every request).
     */
    record Reading(long at, double requests, double clientErrors, double serverErrors, TreeMap<Double, Double> latencyBuckets,
                   double entityWrites, double commandsApplied, double applyLag, double cpu, double heapBytes,
                   double rocksDbBytes) {

        static Reading of(MeterRegistry registry, long at) {
            double requests = 0;
            double clientErrors = 0;
            double serverErrors = 0;
            TreeMap<Double, Double> buckets = new TreeMap<>();
            for (Timer t : registry.find(RequestMetrics.REQUESTS).timers()) {
                var snapshot = t.takeSnapshot();
                long count = snapshot.count();
                requests += count;
                String status = t.getId().getTag("status");
                if (status != null && status.startsWith("4")) {
                    clientErrors += count;
                } else if (status != null && status.startsWith("5")) {
                    serverErrors += count;
                }
                for (CountAtBucket b : snapshot.histogramCounts()) {
                    buckets.merge(b.bucket(TimeUnit.SECONDS), b.count(), Double::sum);
                }
                buckets.merge(Double.POSITIVE_INFINITY, (double) count, Double::sum);
            }
            return new Reading(at, requests, clientErrors, serverErrors, buckets,
                    sum(registry, MeteredCommandLog.ENTITY_OPERATIONS), sum(registry, StreamProcessorMetrics.COMMANDS_APPLIED),
                    registry.find(StreamProcessorMetrics.APPLY_LAG_RECORDS).gauges().stream()
                            .mapToDouble(Gauge::value).filter(Double::isFinite).max().orElse(0),
                    gauge(registry, "process.cpu.usage", null),
                    gauge(registry, "jvm.memory.used", Tag.of("area", "heap")),
                    gauge(registry, StreamProcessorMetrics.ROCKSDB_MEMORY, null));
        }

        /** The sum of the counters named {@code name}, counted directly or by a function (FunctionCounter). */
        private static double sum(MeterRegistry registry, String name) {
            return registry.find(name).meters().stream().mapToDouble(m -> m instanceof Counter c ? c.count()
                    : m instanceof FunctionCounter f ? f.count() : 0).sum();
        }

        private static double gauge(MeterRegistry registry, String name, Tag tag) {
            var search = registry.find(name);
            if (tag != null) {
                search = search.tags(List.of(tag));
            }
            return search.gauges().stream().mapToDouble(Gauge::value).filter(Double::isFinite).sum();
        }
    }

    private static Value rate(ToDoubleFunction<Reading> counter) {
        return (a, b, seconds) -> a == null || seconds <= 0 ? Double.NaN
                : Math.max(0, counter.applyAsDouble(b) - counter.applyAsDouble(a)) / seconds;
    }

    /**
     * The {@code q} quantile, in seconds, of the requests answered between two readings, linearly
     * interpolated within the bucket holding it (its lower bound the previous bucket's upper one, 0
     * for the first); NaN without requests; the largest finite bound when it falls beyond it.
     */
    static double quantile(Reading before, Reading after, double q) {
        if (before == null) {
            return Double.NaN;
        }
        double total = after.latencyBuckets().getOrDefault(Double.POSITIVE_INFINITY, 0.0)
                - before.latencyBuckets().getOrDefault(Double.POSITIVE_INFINITY, 0.0);
        if (total <= 0) {
            return Double.NaN;
        }
        double rank = q * total;
        double lower = 0;
        double countBelow = 0;
        for (var bucket : after.latencyBuckets().entrySet()) {
            double bound = bucket.getKey();
            double count = bucket.getValue() - before.latencyBuckets().getOrDefault(bound, 0.0);
            if (count >= rank) {
                if (bound == Double.POSITIVE_INFINITY) {
                    return lower;
                }
                double inBucket = count - countBelow;
                return inBucket <= 0 ? bound : lower + (bound - lower) * (rank - countBelow) / inBucket;
            }
            lower = bound;
            countBelow = count;
        }
        return lower;
    }

    private final MeterRegistry registry;
    private final Clock clock;
    private final Duration interval;
    private final int capacity;
    private final long[] times;
    private final double[][] values;
    private int size;
    private int next;
    private Reading previous;
    private final ScheduledExecutorService reader;

    /**
     * Reads {@code registry} every {@code interval} (the first time now), keeping the last
     * {@code kept / interval} readings; {@code start()} begins.
     */
    MetricsHistory(MeterRegistry registry, Clock clock, Duration interval, Duration kept) {
        this.registry = registry;
        this.clock = clock;
        this.interval = interval;
        this.capacity = (int) Math.max(2, kept.toMillis() / Math.max(1, interval.toMillis()));
        this.times = new long[capacity];
        this.values = new double[CHARTS.stream().mapToInt(c -> c.lines().size()).sum()][capacity];
        this.reader = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "metrics-history");
            t.setDaemon(true);
            return t;
        });
    }

    /** Starts reading at the interval. */
    public static MetricsHistory start(MeterRegistry registry, Duration interval, Duration kept) {
        MetricsHistory history = new MetricsHistory(registry, Clock.systemUTC(), interval, kept);
        history.reader.scheduleAtFixedRate(history::readSafely, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
        return history;
    }

    private void readSafely() {
        try {
            read();
        } catch (RuntimeException e) {
            LOG.warn("Reading the metrics for their history failed; the next reading tries again", e);
        }
    }

    /** Takes one reading now. */
    synchronized void read() {
        Reading current = Reading.of(registry, clock.millis());
        double seconds = previous == null ? 0 : (current.at() - previous.at()) / 1000.0;
        int line = 0;
        for (Chart chart : CHARTS) {
            for (Line l : chart.lines()) {
                values[line++][next] = l.value().of(previous, current, seconds);
            }
        }
        times[next] = current.at();
        next = (next + 1) % capacity;
        size = Math.min(size + 1, capacity);
        previous = current;
    }

    /** {@code GET /_metrics/history}: the readings kept, oldest first, as JSON. */
    public OperationHandler endpoint() {
        return this::answer;
    }

    private void answer(RequestContext request, Context http) throws IOException {
        ResponseHeaders.standard(http, request);
        http.contentType("application/json;charset=utf-8");
        http.header("Cache-Control", "no-store");
        http.result(json());
    }

    /**
     * {@code {"intervalSeconds":5,"time":[epoch seconds...],"charts":[{"id","title","unit","lines":
     * [{"name","values":[number or null...]}]}]}}, a value null where it is not known (a rate's first
     * reading, a percentile without requests).
     */
    synchronized byte[] json() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(8192);
        int first = (next - size + capacity) % capacity;
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.writeStartObject();
            g.writeNumberField("intervalSeconds", interval.toMillis() / 1000.0);
            g.writeArrayFieldStart("time");
            for (int i = 0; i < size; i++) {
                g.writeNumber(times[(first + i) % capacity] / 1000.0);
            }
            g.writeEndArray();
            g.writeArrayFieldStart("charts");
            int line = 0;
            for (Chart chart : CHARTS) {
                g.writeStartObject();
                g.writeStringField("id", chart.id());
                g.writeStringField("title", chart.title());
                g.writeStringField("unit", chart.unit());
                g.writeArrayFieldStart("lines");
                for (Line l : chart.lines()) {
                    g.writeStartObject();
                    g.writeStringField("name", l.name());
                    g.writeArrayFieldStart("values");
                    for (int i = 0; i < size; i++) {
                        double v = values[line][(first + i) % capacity];
                        if (Double.isFinite(v)) {
                            g.writeNumber(Math.round(v * 1000) / 1000.0);
                        } else {
                            g.writeNull();
                        }
                    }
                    g.writeEndArray();
                    g.writeEndObject();
                    line++;
                }
                g.writeEndArray();
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        }
        return out.toByteArray();
    }

    @Override
    public void close() {
        reader.shutdownNow();
    }
}
