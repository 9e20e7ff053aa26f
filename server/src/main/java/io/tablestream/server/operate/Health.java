package io.tablestream.server.operate;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.javalin.http.Context;
import io.tablestream.core.registry.TableRegistry;
import io.tablestream.processor.StreamProcessor;
import io.tablestream.protocol.http.OperationHandler;
import io.tablestream.protocol.http.RequestContext;
import io.tablestream.protocol.http.ResponseHeaders;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.ThreadMetadata;

/**
 * {@code GET /_health/live} and {@code GET /_health/ready}, unauthenticated, for orchestrators and
 * load balancers. Both answer at once from what is already known (no request waits on Kafka).
 *
 * <ul>
 *   <li><b>live</b>: 200 unless the process should be restarted: its stream processor failed for good
 *       (Kafka Streams ERROR, after its threads kept failing).</li>
 *   <li><b>ready</b>: 200 when the instance can serve: the Kafka cluster answered lately ({@code broker}), the
 *       stream processor is RUNNING ({@code processor}), every store it hosts is restored ({@code stores}: no
 *       task restoring, and no active task still replaying the writes answered before it restarted), and
 *       the table registry can be read ({@code registry}); else 503. A rebalance makes an instance briefly
 *       not ready; while the instance warms up before it first serves (a process
 *       started with {@code warm-up-seconds} above 0), {@code warm-up} is down too. A warm-up after ready
 *       ({@code warm-up-after-ready-seconds}) shows as {@code warm-up}, up, saying what it does or did.</li>
 * </ul>
 * The body says which check failed and why: {@code {"status":"UP|DOWN","checks":{"broker":{"status":"UP",
 * "detail":"3 brokers"},...}}}.
 */
public final class Health {
    private static final JsonFactory JSON = new JsonFactory();

    private final StreamProcessor processor;
    private final TableRegistry registry;
    private final BrokerProbe broker;
    /** The warm-up check while the instance warms up, then its end; null when it never did (no such check). */
    private volatile Check warmUp;

    Health(StreamProcessor processor, TableRegistry registry, BrokerProbe broker) {
        this.processor = processor;
        this.registry = registry;
        this.broker = broker;
    }

    private record Check(boolean up, String detail) {
    }

    /** From now until {@link #warmedUp}, the instance is not ready: it warms up ({@code detail} says how). */
    void warmingUp(String detail) {
        warmUp = new Check(false, detail);
    }

    /** The warm-up has ended ({@code detail} says how): readiness no longer waits for it. */
    void warmedUp(String detail) {
        warmUp = new Check(true, detail);
    }

    public OperationHandler live() {
        return (request, http) -> {
            KafkaStreams.State state = processor.streams().state();
            boolean up = state != KafkaStreams.State.ERROR && state != KafkaStreams.State.PENDING_ERROR;
            answer(request, http, Map.of("processor", new Check(up, state.name())));
        };
    }

    public OperationHandler ready() {
        return (request, http) -> answer(request, http, readiness());
    }

    /** The readiness checks, in order. */
    Map<String, Check> readiness() {
        Map<String, Check> checks = new LinkedHashMap<>();
        BrokerProbe.Look look = broker.last();
        checks.put("broker", look.reachable() ? new Check(true, look.brokers() + " broker(s) answered")
                : new Check(false, "the Kafka cluster did not answer: " + look.error()));
        KafkaStreams.State state = processor.streams().state();
        checks.put("processor", new Check(state == KafkaStreams.State.RUNNING, state.name()));
        checks.put("stores", stores(state));
        checks.put("registry", registry());
        Check warm = warmUp;
        if (warm != null) {
            checks.put("warm-up", warm);
        }
        return checks;
    }

    private Check stores(KafkaStreams.State state) {
        if (state != KafkaStreams.State.RUNNING) {
            return new Check(false, "the processor is " + state.name());
        }
        Set<ThreadMetadata> threads;
        try {
            threads = processor.streams().metadataForLocalThreads();
        } catch (RuntimeException e) {
            return new Check(false, "changing state");
        }
        Set<Integer> active = new TreeSet<>();
        int standby = 0;
        for (ThreadMetadata thread : threads) {
            if (!thread.threadState().equals("RUNNING")) {
                return new Check(false, thread.threadName() + " is " + thread.threadState() + " (restoring)");
            }
            thread.activeTasks().forEach(task -> active.add(task.taskId().partition()));
            standby += thread.standbyTasks().size();
        }
        // restored is not enough: a task that restarted replays what was answered after its last commit,
        // and its reads answer ServerBusy until it has
        Set<Integer> replaying = processor.replaying(active);
        if (!replaying.isEmpty()) {
            return new Check(false, "partition(s) " + replaying + " replaying the writes answered before their task"
                    + " (re)started");
        }
        return new Check(true, active.size() + " active and " + standby + " standby partition(s) restored");
    }

    private Check registry() {
        try {
            registry.list("_health", "", 1);
            return new Check(true, "loaded");
        } catch (RuntimeException e) {
            return new Check(false, "not readable: " + e.getMessage());
        }
    }

    private static void answer(RequestContext request, Context http, Map<String, Check> checks) throws IOException {
        boolean up = checks.values().stream().allMatch(Check::up);
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.writeStartObject();
            g.writeStringField("status", up ? "UP" : "DOWN");
            g.writeObjectFieldStart("checks");
            for (Map.Entry<String, Check> c : checks.entrySet()) {
                g.writeObjectFieldStart(c.getKey());
                g.writeStringField("status", c.getValue().up() ? "UP" : "DOWN");
                g.writeStringField("detail", c.getValue().detail());
                g.writeEndObject();
            }
            g.writeEndObject();
            g.writeEndObject();
        }
        ResponseHeaders.standard(http, request);
        http.status(up ? 200 : 503);
        http.contentType("application/json;charset=utf-8");
        http.result(out.toByteArray());
    }
}
