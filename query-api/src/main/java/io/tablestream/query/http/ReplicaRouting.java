package io.tablestream.query.http;

import io.javalin.http.Context;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.processor.store.StoreReplica;
import io.tablestream.protocol.http.Headers;
import io.tablestream.protocol.http.ODataResponses;
import io.tablestream.protocol.http.RequestContext;
import io.tablestream.query.routing.ForwardedHeaders;
import io.tablestream.query.routing.InstanceClient;
import io.tablestream.query.routing.KeyLocator;
import io.tablestream.query.routing.Placement;
import io.tablestream.query.routing.Replica;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves a read of one partition from whichever copy can: this instance's, or another instance's
 * by forwarding the client's original request (its signature covers the account and path, not the
 * host) and relaying the answer. Copies are tried in the {@link Placement}'s order — the active
 * first, standbys when the active is unavailable — with instances that just refused connections
 * last; when every copy fails, the partition is located again (ownership may just have moved) and
 * the copies it names are tried, for a bounded moment; then the answer is 503 ServerBusy.
 */
final class ReplicaRouting {
    /**
     * How long a read waits, when no copy of its partition can serve it, for one to become able to:
     * what a standby takes to become active after a rebalance, with room for a busy machine (1-2 s
     * on an idle one, up to 4 s measured on two shared, overloaded cores). Past it the answer is 503
     * (which the SDKs retry).
     */
    static final Duration UNAVAILABLE_WAIT = Duration.ofSeconds(5);
    /** How often the copies are tried again meanwhile. */
    static final Duration RETRY_INTERVAL = Duration.ofMillis(200);
    /** Response headers the relaying instance writes itself (CORS is added after every request). */
    private static final Set<String> NOT_RELAYED = Set.of("content-length", "access-control-allow-origin",
            "access-control-allow-methods", "access-control-allow-headers", "access-control-expose-headers",
            "access-control-max-age", "access-control-allow-credentials", "vary", "date", "server");
    private static final Logger LOG = LoggerFactory.getLogger(ReplicaRouting.class);

    /** Reads from a local copy and writes the answer; fails with {@link ReplicaUnavailable} when that copy cannot serve. */
    @FunctionalInterface
    interface LocalRead {
        CompletableFuture<Void> read(StoreReplica replica);
    }

    private final KeyLocator locator;
    private final InstanceClient instances;

    ReplicaRouting(KeyLocator locator, InstanceClient instances) {
        this.locator = locator;
        this.instances = instances;
    }

    KeyLocator locator() {
        return locator;
    }

    /**
     * Serves the request from the first copy of the partition that can.
     *
     * @param locate where the partition can be read (asked again when every copy failed)
     * @param extraTime how much longer than usual a forwarded request may take (a session-token wait)
     */
    CompletableFuture<Void> serve(RequestContext request, Context http, Supplier<Placement> locate, LocalRead local,
                                  Duration extraTime) {
        Placement first = locate.get();
        long deadline = System.nanoTime() + UNAVAILABLE_WAIT.toNanos();
        return attempt(request, http, ordered(first.replicas()), 0, local, extraTime)
                .exceptionallyCompose(e -> unwrap(e) instanceof ReplicaUnavailable
                        ? again(request, http, locate, first, deadline, local, extraTime, unwrap(e))
                        : CompletableFuture.failedFuture(unwrap(e)));
    }

    /**
     * After every copy failed: at once when the partition's copies moved (a rebalance just ended),
     * else a moment later (a standby is becoming active, or the processor is rebalancing), until
     * the deadline; then 503 ServerBusy.
     */
    private CompletableFuture<Void> again(RequestContext request, Context http, Supplier<Placement> locate,
                                          Placement tried, long deadline, LocalRead local, Duration extraTime,
                                          Throwable last) {
        Placement now = locate.get();
        boolean moved = !now.replicas().isEmpty() && !now.equals(tried);
        if (!moved) {
            if (System.nanoTime() + RETRY_INTERVAL.toNanos() - deadline > 0) {
                return CompletableFuture.failedFuture(busy(tried.partition(), last));
            }
            return CompletableFuture.supplyAsync(() -> null,
                            CompletableFuture.delayedExecutor(RETRY_INTERVAL.toMillis(), TimeUnit.MILLISECONDS))
                    .thenCompose(x -> again(request, http, locate, new Placement(tried.partition(), List.of()), deadline,
                            local, extraTime, last));
        }
        return attempt(request, http, ordered(now.replicas()), 0, local, extraTime)
                .exceptionallyCompose(e -> unwrap(e) instanceof ReplicaUnavailable
                        ? again(request, http, locate, now, deadline, local, extraTime, unwrap(e))
                        : CompletableFuture.failedFuture(unwrap(e)));
    }

    private CompletableFuture<Void> attempt(RequestContext request, Context http, List<Replica> replicas, int index,
                                            LocalRead local, Duration extraTime) {
        if (index >= replicas.size()) {
            return CompletableFuture.failedFuture(new ReplicaUnavailable("no copy of the partition could serve"));
        }
        Replica replica = replicas.get(index);
        CompletableFuture<Void> tried;
        try {
            tried = replica.isLocal()
                    ? local.read(replica.standby() ? StoreReplica.ACTIVE_OR_STANDBY : StoreReplica.ACTIVE)
                    : forward(request, http, replica, extraTime);
        } catch (ReplicaUnavailable e) {
            tried = CompletableFuture.failedFuture(e);
        }
        return tried.exceptionallyCompose(e -> unwrap(e) instanceof ReplicaUnavailable
                ? attempt(request, http, replicas, index + 1, local, extraTime)
                : CompletableFuture.failedFuture(unwrap(e)));
    }

    /** Forwards the request as the client sent it to {@code replica} and relays the answer. */
    private CompletableFuture<Void> forward(RequestContext request, Context http, Replica replica, Duration extraTime) {
        return send(request, http, replica, Map.of(), extraTime).thenAccept(answer -> relay(answer, http));
    }

    /**
     * Sends the client's request to another instance's copy: the client's method, path and query,
     * the headers the owner needs to authenticate and answer it ({@link ForwardedHeaders}), the
     * caller's vouching headers, where the client addressed this instance
     * ({@link Headers#FORWARDED_ORIGIN}) and this cluster's headers ({@code extra}). Fails with
     * {@link ReplicaUnavailable} — so another copy is tried — when the instance does not answer,
     * answers that the copy is not there, fails (a 5xx), or answers in a form not asked for.
     */
    CompletableFuture<InstanceClient.Answer> send(RequestContext request, Context http, Replica replica,
                                                  Map<String, String> extra, Duration extraTime) {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        for (String name : Collections.list(http.req().getHeaderNames())) {
            if (ForwardedHeaders.travels(name)) {
                headers.put(name, Collections.list(http.req().getHeaders(name)));
            }
        }
        request.caller().forwardingHeaders().forEach((k, v) -> headers.put(k, List.of(v)));
        headers.put(Headers.FORWARDED, List.of(replica.standby() ? "standby" : "active"));
        headers.put(Headers.FORWARDED_ORIGIN, List.of(ODataResponses.origin(http)));
        extra.forEach((k, v) -> headers.put(k, List.of(v)));
        return instances.get(replica.instance(), locator.uriOf(replica.instance(), http.req().getRequestURI(),
                        http.req().getQueryString()), headers, extraTime)
                .handle((answer, error) -> {
                    if (error != null) {
                        Throwable cause = unwrap(error);
                        if (cause instanceof InstanceClient.UnexpectedAnswerException) {
                            throw unexpectedAnswer(replica, cause.getMessage());
                        }
                        throw new ReplicaUnavailable("instance " + replica.instance() + " did not answer", cause);
                    }
                    if (answer.status() == 503) {
                        // marked REPLICA_UNAVAILABLE, or busy otherwise (stopping, its registry not
                        // ready): either way another copy may serve
                        throw new ReplicaUnavailable("the " + replica + " cannot serve the partition now");
                    }
                    if (answer.status() >= 500 || answer.status() < 200) {
                        throw unexpectedAnswer(replica, "status " + answer.status() + " "
                                + Objects.requireNonNullElse(answer.header(Headers.ERROR_CODE), "(no error code)"));
                    }
                    return answer;
                });
    }

    /**
     * Another instance answered a forwarded request in a way it never should (it failed, or its
     * answer is not in the form asked for): logged once, here, naming the instance and what was
     * wrong, and treated as that copy being unavailable — another copy is tried, and when none
     * serves in time the client gets 503 ServerBusy with {@code Retry-After}, never a 500.
     */
    static ReplicaUnavailable unexpectedAnswer(Replica replica, String reason) {
        LOG.warn("Instance {} gave an unexpected answer to a forwarded read ({}); trying another copy",
                replica.instance(), reason);
        return new ReplicaUnavailable("the " + replica + " gave an unexpected answer: " + reason);
    }

    /** The other instance's answer, as this instance's: status, headers, body. */
    private static void relay(InstanceClient.Answer answer, Context http) {
        http.status(answer.status());
        answer.headers().forEach((name, values) -> {
            String lower = name.toLowerCase(Locale.ROOT);
            if (InstanceClient.isHopByHop(lower) || NOT_RELAYED.contains(lower) || lower.startsWith(":")) {
                return;
            }
            if (lower.equals("content-type")) {
                http.contentType(values.get(0));
                return;
            }
            for (String v : values) {
                http.res().addHeader(name, v);
            }
        });
        http.result(answer.body());
    }

    /** {@code replicas} with those on instances that just refused connections moved to the end. */
    List<Replica> ordered(List<Replica> replicas) {
        List<Replica> reachable = new ArrayList<>(replicas.size());
        List<Replica> suspect = new ArrayList<>(1);
        for (Replica r : replicas) {
            (r.isLocal() || !instances.isUnreachable(r.instance()) ? reachable : suspect).add(r);
        }
        reachable.addAll(suspect);
        return reachable;
    }

    static TableServiceException busy(int partition, Throwable cause) {
        return TableServiceException.of(ErrorCode.SERVER_BUSY, "Partition " + partition
                + " is not served by any instance right now (its data is moving or being restored); retry shortly.",
                cause);
    }

    static Throwable unwrap(Throwable e) {
        Throwable t = e;
        while (t instanceof CompletionException && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
