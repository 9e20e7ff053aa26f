package io.tablestream.server.operate;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

/**
 * A Kafka client's (or Kafka Streams') own metrics as Micrometer meters, named as Micrometer's Kafka
 * binders name them ({@code kafka.<group without -metrics>.<name>}, tags with {@code .} for {@code -},
 * a {@code kafka.version} tag; a counter when the name ends in {@code total} or {@code count}, else a
 * gauge), so the scrape and the dashboard keep their series.
 *
 * <p>Why not Micrometer's binder: whenever a client's set of metrics changes at all (a connection, a
 * task, a fetch session), it walks every metric again and registers each one the registry does not
 * hold, and a meter a filter denies is never held: Kafka Streams' ~1,500 per-store and per-node
 * series were registered again and denied every minute (about half a second of CPU each time). Here
 * the series nobody reads ({@link #leftOut}) are never offered, and a refresh (every
 * {@link #REFRESH}) registers only the metrics that appeared and removes those that went away.
 */
public final class KafkaMeters implements MeterBinder, AutoCloseable {
    /** How often the client's metric names are compared with the meters: new tasks and connections show up this late. */
    static final Duration REFRESH = Duration.ofSeconds(60);

    private final Supplier<? extends Map<MetricName, ? extends Metric>> metrics;
    private final ScheduledExecutorService refresher;
    /** Kafka's metrics that have a meter, with its id. */
    private final Map<MetricName, Meter.Id> bound = new HashMap<>();
    /** Per meter name, how many tag keys its meters carry: Prometheus wants one set per name, the fullest kept. */
    private final Map<String, Integer> tagKeys = new HashMap<>();
    private volatile MeterRegistry registry;

    /** @param metrics the client's metrics now (an empty map until there is a client) */
    public KafkaMeters(Supplier<? extends Map<MetricName, ? extends Metric>> metrics) {
        this.metrics = metrics;
        this.refresher = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "kafka-meters");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Series left out of the scrape: Kafka Streams' per-store (and state-updater), per-processor-node
     * and record-cache series (dozens per store and task, recorded only at the DEBUG recording level,
     * so NaN or 0 otherwise) and the consumers' per-partition fetch series (the apply lag per partition is
     * {@code tablestream_apply_lag_*}). Bridged, they made a scrape of a single instance with 8
     * partitions 5,000 lines (860 KB) and 57 ms of CPU; without them, a few hundred lines. Also the
     * clients' bookkeeping (their version and commit, the count of their metrics), as Micrometer does.
     */
    static boolean leftOut(MetricName name) {
        String meter = meterName(name);
        return meter.startsWith("kafka.stream.state.") || meter.startsWith("kafka.stream.processor.node.")
                || meter.startsWith("kafka.stream.record.cache.")
                || meter.startsWith("kafka.consumer.fetch.manager.") && name.tags().containsKey("partition")
                || name.group().equals("app-info") && !name.name().equals("start-time-ms") // the version is a tag
                || name.group().equals("kafka-metrics-count");
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        this.registry = registry;
        refresh();
        refresher.scheduleWithFixedDelay(this::refresh, REFRESH.toMillis(), REFRESH.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Registers the metrics that appeared since the last look and removes the meters of those that went away. */
    synchronized void refresh() {
        MeterRegistry r = registry;
        if (r == null) {
            return;
        }
        Map<MetricName, ? extends Metric> now;
        try {
            now = metrics.get();
        } catch (RuntimeException e) {
            return; // the client is closing: the next look decides
        }
        for (MetricName gone : new ArrayList<>(bound.keySet())) {
            if (!now.containsKey(gone)) {
                r.remove(bound.remove(gone));
            }
        }
        String version = version(now);
        for (Map.Entry<MetricName, ? extends Metric> e : now.entrySet()) {
            MetricName name = e.getKey();
            if (!bound.containsKey(name) && !leftOut(name) && e.getValue().metricValue() instanceof Number) {
                register(r, name, e.getValue(), version);
            }
        }
    }

    private void register(MeterRegistry r, MetricName name, Metric metric, String version) {
        String meterName = meterName(name);
        List<Tag> tags = new ArrayList<>();
        name.tags().forEach((k, v) -> tags.add(Tag.of(k.replace('-', '.'), v)));
        tags.add(Tag.of("kafka.version", version));
        int keys = tags.size();
        int held = tagKeys.getOrDefault(meterName, 0);
        if (keys < held) {
            return; // the same series with fewer tags (a total beside per-topic ones): the fuller kept
        }
        if (keys > held && held > 0) {
            removeMetersNamed(r, meterName);
        }
        Meter.Id id;
        try {
            id = meterName.endsWith("total") || meterName.endsWith("count")
                    ? FunctionCounter.builder(meterName, metric, KafkaMeters::value).tags(tags)
                            .description(name.description()).register(r).getId()
                    : Gauge.builder(meterName, metric, KafkaMeters::value).tags(tags)
                            .description(name.description()).register(r).getId();
        } catch (IllegalArgumentException e) {
            return; // another set of tag keys under this name: Prometheus takes one
        }
        bound.put(name, id);
        tagKeys.put(meterName, keys);
    }

    private void removeMetersNamed(MeterRegistry r, String meterName) {
        Set<MetricName> fewer = new HashSet<>();
        bound.forEach((name, id) -> {
            if (id.getName().equals(meterName)) {
                fewer.add(name);
            }
        });
        for (MetricName name : fewer) {
            r.remove(bound.remove(name));
        }
    }

    /** Micrometer's name for a Kafka metric: {@code kafka.<group>.<name>}, {@code -metrics} dropped, {@code -} as {@code .}. */
    static String meterName(MetricName name) {
        return ("kafka." + name.group() + "." + name.name()).replace("-metrics", "").replace('-', '.');
    }

    private static String version(Map<MetricName, ? extends Metric> metrics) {
        for (Map.Entry<MetricName, ? extends Metric> e : metrics.entrySet()) {
            if (e.getKey().group().equals("app-info") && e.getKey().name().equals("version")) {
                return String.valueOf(e.getValue().metricValue());
            }
        }
        return "unknown";
    }

    private static double value(Metric metric) {
        return metric.metricValue() instanceof Number n ? n.doubleValue() : Double.NaN;
    }

    @Override
    public synchronized void close() {
        refresher.shutdownNow();
        MeterRegistry r = registry;
        if (r != null) {
            bound.values().forEach(r::remove);
        }
        bound.clear();
    }
}
