package io.tablestream.query.http;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.javalin.http.Context;
import io.tablestream.processor.store.LocalReplicas;
import io.tablestream.protocol.http.Headers;
import io.tablestream.protocol.http.OperationHandler;
import io.tablestream.protocol.http.RequestContext;
import io.tablestream.protocol.http.ResponseHeaders;
import io.tablestream.query.routing.Instance;
import io.tablestream.query.routing.InstanceClient;
import io.tablestream.query.routing.KeyLocator;
import io.tablestream.query.routing.Placement;
import io.tablestream.query.routing.Replica;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * {@code GET /_cluster}: the instances of the cluster, the partitions each hosts (active and
 * standby, as the current assignment says) and, from each instance itself, the partitions it
 * actually runs and how far behind each of its copies is — for operators and tests. Any instance
 * answers; it asks the others for their own view (a forwarded request, authenticated like the
 * original) and reports an instance that does not answer as unreachable.
 *
 * <pre>{@code
 * {"partitions": 8, "self": "10.0.0.1:10002", "instances": [
 *   {"address": "10.0.0.1:10002", "reachable": true, "state": "RUNNING",
 *    "assigned": {"active": [0, 3, 6], "standby": [1, 4]},
 *    "active": [0, 3, 6], "standby": [1, 4], "lag": {"0": 0, "1": 2, "3": 0, "4": 0, "6": 0}}, ...]}
 * }</pre>
 */
public final class ClusterStatus implements OperationHandler {
    private static final JsonFactory JSON = new JsonFactory();
    private static final String CONTENT_TYPE = "application/json;charset=utf-8";

    private final KeyLocator locator;
    private final ReplicaRouting routing;
    private final LocalReplicas local;
    private final Supplier<String> state;
    private final Instance self;

    /**
     * @param state this instance's processor state (RUNNING, REBALANCING, ...)
     * @param self this instance as the others reach it, or null on a single node
     */
    public ClusterStatus(KeyLocator locator, InstanceClient instances, LocalReplicas local, Supplier<String> state,
                         Instance self) {
        this.locator = locator;
        this.routing = new ReplicaRouting(locator, instances);
        this.local = local;
        this.state = state;
        this.self = self;
    }

    @Override
    public void handle(RequestContext request, Context http) {
        if (http.header(Headers.FORWARDED) != null) {
            answer(request, http, json(g -> localView(g, null)));
            return;
        }
        Map<Instance, Set<Integer>> active = new LinkedHashMap<>();
        Map<Instance, Set<Integer>> standby = new LinkedHashMap<>();
        if (self != null) {
            active.put(self, new TreeSet<>());
            standby.put(self, new TreeSet<>());
        }
        for (Placement p : locator.locateAll()) {
            for (Replica r : p.replicas()) {
                Instance at = r.isLocal() ? self : r.instance();
                if (at != null) {
                    (r.standby() ? standby : active).computeIfAbsent(at, i -> new TreeSet<>()).add(p.partition());
                    (r.standby() ? active : standby).computeIfAbsent(at, i -> new TreeSet<>());
                }
            }
        }
        List<Instance> others = active.keySet().stream().filter(i -> !i.equals(self)).toList();
        List<CompletableFuture<String>> views = new ArrayList<>();
        for (Instance other : others) {
            views.add(routing.send(request, http, new Replica(other, false), Map.of(), Duration.ZERO)
                    .handle((answer, error) -> error == null && answer.status() == 200
                            ? new String(answer.body(), StandardCharsets.UTF_8) : null));
        }
        CompletableFuture<Void> all = CompletableFuture.allOf(views.toArray(CompletableFuture[]::new)).thenRun(() ->
                answer(request, http, json(g -> {
                    g.writeStartObject();
                    g.writeNumberField("partitions", locator.partitions());
                    g.writeStringField("self", self == null ? null : self.toString());
                    g.writeArrayFieldStart("instances");
                    localView(g, self == null ? null : assigned(active.get(self), standby.get(self)));
                    for (int i = 0; i < others.size(); i++) {
                        Instance other = others.get(i);
                        String view = views.get(i).join();
                        if (view != null && view.startsWith("{") && view.endsWith("}")) {
                            // The instance's own view, with what the assignment says added.
                            g.writeRawValue(view.substring(0, view.length() - 1) + ",\"assigned\":"
                                    + new String(json(a -> assignedObject(a, active.get(other), standby.get(other))),
                                    StandardCharsets.UTF_8) + "}");
                        } else {
                            g.writeStartObject();
                            g.writeStringField("address", other.toString());
                            g.writeBooleanField("reachable", false);
                            g.writeFieldName("assigned");
                            assignedObject(g, active.get(other), standby.get(other));
                            g.writeEndObject();
                        }
                    }
                    g.writeEndArray();
                    g.writeEndObject();
                })));
        if (all.isDone()) {
            all.join();
        } else {
            http.future(() -> all);
        }
    }

    private record Assigned(Set<Integer> active, Set<Integer> standby) {
    }

    private static Assigned assigned(Set<Integer> active, Set<Integer> standby) {
        return new Assigned(active == null ? Set.of() : active, standby == null ? Set.of() : standby);
    }

    /** This instance's own view: what it runs, and the lag of each of its copies. */
    private void localView(JsonGenerator g, Assigned assigned) throws IOException {
        g.writeStartObject();
        g.writeStringField("address", self == null ? null : self.toString());
        g.writeBooleanField("reachable", true);
        g.writeStringField("state", state.get());
        ints(g, "active", local.active());
        ints(g, "standby", local.standby());
        g.writeObjectFieldStart("lag");
        for (Map.Entry<Integer, Long> lag : new java.util.TreeMap<>(local.lags()).entrySet()) {
            g.writeNumberField(Integer.toString(lag.getKey()), lag.getValue());
        }
        g.writeEndObject();
        if (assigned != null) {
            g.writeFieldName("assigned");
            assignedObject(g, assigned.active(), assigned.standby());
        }
        g.writeEndObject();
    }

    private static void assignedObject(JsonGenerator g, Set<Integer> active, Set<Integer> standby) throws IOException {
        g.writeStartObject();
        ints(g, "active", active == null ? Set.of() : active);
        ints(g, "standby", standby == null ? Set.of() : standby);
        g.writeEndObject();
    }

    private static void ints(JsonGenerator g, String name, Set<Integer> values) throws IOException {
        g.writeArrayFieldStart(name);
        for (int v : new TreeSet<>(values)) {
            g.writeNumber(v);
        }
        g.writeEndArray();
    }

    private static void answer(RequestContext request, Context http, byte[] body) {
        ResponseHeaders.standard(http, request);
        http.contentType(CONTENT_TYPE);
        http.result(body);
    }

    @FunctionalInterface
    private interface JsonBody {
        void write(JsonGenerator g) throws IOException;
    }

    private static byte[] json(JsonBody body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(512);
        try (JsonGenerator g = JSON.createGenerator(out)) {
            body.write(g);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
