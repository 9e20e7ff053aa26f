package io.tablestream.protocol.http;

import io.javalin.http.Context;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.tablestream.protocol.request.Operation;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The request pipeline's metrics: one timer {@value #REQUESTS} (in Prometheus
 * {@code tablestream_http_requests_seconds_bucket|count|sum}) labelled by {@code operation} (the
 * Azure operation, e.g. {@code QUERY_ENTITIES}; {@value #INTERNAL} for the {@code /_} endpoints;
 * {@value #NONE} for a request refused before its operation was known) and {@code status} (the HTTP
 * status), with latency buckets from 0.5 ms to 10 s. A timer is looked up by one map access per
 * request, so a request costs that and a histogram update.
 */
public final class RequestMetrics implements RequestObserver {
    public static final String REQUESTS = "tablestream.http.requests";
    static final String INTERNAL = "INTERNAL";
    static final String NONE = "NONE";
    private static final int STATUSES = 1000;
    private static final int OPERATIONS = Operation.values().length;

    private final MeterRegistry registry;
    /** By (label index) * 1000 + status, the label index being the operation's ordinal, then INTERNAL, NONE. */
    private final ConcurrentHashMap<Integer, Timer> timers = new ConcurrentHashMap<>();

    public RequestMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void completed(RequestContext request, Context http, int status, long nanos) {
        Operation operation = request.operation();
        if (operation != null) {
            record(operation, status, nanos);
        } else {
            boolean internal = request.account() == null && http.req().getRequestURI().startsWith("/_");
            record(OPERATIONS + (internal ? 0 : 1), internal ? INTERNAL : NONE, status, nanos);
        }
    }

    /** Counts one answered request of {@code operation} (null: refused before it was known). */
    public void record(Operation operation, int status, long nanos) {
        if (operation == null) {
            record(OPERATIONS + 1, NONE, status, nanos);
        } else {
            record(operation.ordinal(), operation.name(), status, nanos);
        }
    }

    private void record(int labelIndex, String label, int status, long nanos) {
        int code = Math.max(0, Math.min(status, STATUSES - 1));
        int key = labelIndex * STATUSES + code;
        Timer timer = timers.get(key);
        if (timer == null) {
            timer = timers.computeIfAbsent(key, k -> Timer.builder(REQUESTS)
                    .description("Requests the Table service answered, by operation and HTTP status")
                    .tag("operation", label).tag("status", Integer.toString(code))
                    .register(registry));
        }
        timer.record(nanos, TimeUnit.NANOSECONDS);
    }
}
