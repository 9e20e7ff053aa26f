package io.tablestream.protocol.http;

import io.javalin.http.Context;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The request pipeline's metrics: one timer {@value #REQUESTS} (in Prometheus
 * {@code tablestream_http_requests_seconds_bucket|count|sum}) labelled by {@code operation} (the
 * Azure operation, e.g. {@code QUERY_ENTITIES}; {@code INTERNAL} for the {@code /_} endpoints;
 * {@code NONE} for a request refused before its operation was known) and {@code status} (the HTTP
 * status), with latency buckets from 0.5 ms to 10 s. The timers are looked up once per label pair,
 * so a request costs a map lookup and a histogram update.
 */
public final class RequestMetrics implements RequestObserver {
    public static final String REQUESTS = "tablestream.http.requests";
    /** Bucket bounds of the latency histogram: sub-millisecond point reads to writes waiting out a timeout. */
    static final Duration[] BUCKETS = {Duration.ofMillis(1).dividedBy(2), Duration.ofMillis(1), Duration.ofMillis(2),
            Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(25), Duration.ofMillis(50),
            Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1),
            Duration.ofMillis(2500), Duration.ofSeconds(5), Duration.ofSeconds(10)};

    private final MeterRegistry registry;
    private final ConcurrentHashMap<Integer, Timer> timers = new ConcurrentHashMap<>();

    public RequestMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void completed(RequestContext request, Context http, int status, long nanos) {
        Operation operation = request.operation();
        int ordinal = operation != null ? operation.ordinal()
                : request.account() == null && http.req().getRequestURI().startsWith("/_") ? -1 : -2;
        int key = (ordinal + 2) * 1000 + Math.max(0, Math.min(status, 999));
        Timer timer = timers.get(key);
        if (timer == null) {
            String name = operation != null ? operation.name() : ordinal == -1 ? "INTERNAL" : "NONE";
            timer = timers.computeIfAbsent(key, k -> Timer.builder(REQUESTS)
                    .description("Requests the Table service answered, by operation and HTTP status")
                    .tag("operation", name).tag("status", Integer.toString(status))
                    .serviceLevelObjectives(BUCKETS)
                    .register(registry));
        }
        timer.record(nanos, TimeUnit.NANOSECONDS);
    }
}
