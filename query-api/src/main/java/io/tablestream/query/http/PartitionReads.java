package io.tablestream.query.http;

import io.javalin.http.Context;
import io.tablestream.core.command.CommandKey;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.Entity;
import io.tablestream.core.model.TableRecord;
import io.tablestream.processor.store.AppliedOffsets;
import io.tablestream.processor.store.EntityStore;
import io.tablestream.processor.store.StoreReplica;
import io.tablestream.protocol.http.Headers;
import io.tablestream.protocol.http.RequestContext;
import io.tablestream.protocol.http.ResponseHeaders;
import io.tablestream.query.plan.EntityQuery;
import io.tablestream.query.plan.Page;
import io.tablestream.query.plan.PageReader;
import io.tablestream.query.plan.PointInTime;
import io.tablestream.query.routing.InstanceClient;
import io.tablestream.query.routing.KeyLocator;
import io.tablestream.query.routing.Placement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * How a read reaches the partitions it needs, shared by every read handler: a point read or a
 * single-partition query is served from this instance's copy of the partition or forwarded to the
 * instance holding it ({@link ReplicaRouting}); a read carrying a session token is served by active
 * copies only, each first waiting, without blocking a request thread, until the writes it names are
 * applied ({@link SessionWait}). A request another instance forwarded ({@link Headers#FORWARDED}) is
 * served here or refused with {@link Headers#REPLICA_UNAVAILABLE}, never forwarded again. Reads of
 * several partitions are gathered by {@link ScatterGather}.
 */
final class PartitionReads {
    static final String STANDBY = "standby";

    private final KeyLocator locator;
    private final ReplicaRouting routing;
    private final PageReader pages;
    private final SessionWait sessions;
    private final Duration sessionTimeout;
    private final int rowBudget;
    private final Executor readers;

    PartitionReads(EntityStore store, KeyLocator locator, InstanceClient instances, AppliedOffsets applied,
                   CommandLogEnds ends, Duration sessionTimeout, QueryBudgets budgets, Executor readers) {
        this.locator = locator;
        this.routing = new ReplicaRouting(locator, instances);
        this.pages = new PageReader(store, budgets.pageBytes());
        this.sessions = new SessionWait(applied, ends, sessionTimeout);
        this.sessionTimeout = sessionTimeout;
        this.rowBudget = budgets.rowBudget();
        this.readers = readers;
    }

    KeyLocator locator() {
        return locator;
    }

    ReplicaRouting routing() {
        return routing;
    }

    PageReader pages() {
        return pages;
    }

    Duration sessionTimeout() {
        return sessionTimeout;
    }

    /** Rows one page may examine at most. */
    int rowBudget() {
        return rowBudget;
    }

    /** The past time a read asks for ({@link PointInTime}), checked against the table; empty for a plain read. */
    static Optional<EdmDateTime> asOf(RequestContext request, Context http, TableRecord table) {
        return PointInTime.parse(request.queryParam(PointInTime.PARAMETER), table, EdmDateTime.of(request.receivedAt()),
                http.header(Headers.FORWARDED) != null);
    }

    /**
     * Answers a read of {@code partitions}: a forwarded request from this instance's copy or with a
     * refusal; any other through the router (active copies only when it carries a session token).
     */
    void respond(RequestContext request, Context http, List<Integer> partitions, String token,
                         Supplier<Placement> locate, ReplicaRouting.LocalRead local) {
        String forwarded = http.header(Headers.FORWARDED);
        if (forwarded != null) {
            boolean standbyAllowed = STANDBY.equals(forwarded) && token == null;
            CompletableFuture<Void> read;
            try {
                read = local.read(standbyAllowed ? StoreReplica.ACTIVE_OR_STANDBY : StoreReplica.ACTIVE);
            } catch (ReplicaUnavailable e) {
                read = CompletableFuture.failedFuture(e);
            }
            complete(http, refusedHereWhenUnavailable(http, partitions, read));
            return;
        }
        Supplier<Placement> placement = token == null ? locate : () -> locate.get().activeOnly();
        complete(http, routing.serve(request, http, placement, local, token == null ? Duration.ZERO : sessionTimeout));
    }

    /** A forwarded read this instance cannot serve: 503, marked so the forwarding instance tries another copy. */
    static CompletableFuture<Void> refusedHereWhenUnavailable(Context http, List<Integer> partitions,
                                                                      CompletableFuture<Void> read) {
        return read.exceptionallyCompose(e -> {
            Throwable cause = ReplicaRouting.unwrap(e);
            if (cause instanceof ReplicaUnavailable) {
                http.header(Headers.REPLICA_UNAVAILABLE, "true");
                return CompletableFuture.failedFuture(TableServiceException.of(ErrorCode.SERVER_BUSY,
                        "Partitions " + partitions + " are not served by this instance right now; retry shortly.", cause));
            }
            return CompletableFuture.failedFuture(cause);
        });
    }

    /** Hands a read that has not finished to Javalin; one that has is answered already, or throws its failure. */
    static void complete(Context http, CompletableFuture<Void> read) {
        if (!read.isDone()) {
            http.future(() -> read);
            return;
        }
        if (read.isCompletedExceptionally()) {
            Throwable cause = ReplicaRouting.unwrap(read.handle((v, e) -> e).join());
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(cause);
        }
    }

    /**
     * Runs {@code read} against this instance's copies of {@code partitions} — the active one, or a
     * fresh standby when {@code replica} allows one — at once, or, with a session token, once the
     * writes it names on those partitions are applied. {@code read} is given the copy to use for each
     * partition. Fails with {@link ReplicaUnavailable} when this instance may not serve one of them
     * or a store is not queryable (restoring, moved).
     */
    <T> CompletableFuture<T> readHere(List<Integer> partitions, StoreReplica replica, String token,
                                              Function<IntFunction<StoreReplica>, T> read) {
        boolean standbyAllowed = replica == StoreReplica.ACTIVE_OR_STANDBY;
        Map<Integer, StoreReplica> copies = new HashMap<>();
        for (int p : partitions) {
            Optional<StoreReplica> copy = locator.localCopy(p, standbyAllowed);
            if (copy.isEmpty()) {
                return CompletableFuture.failedFuture(new ReplicaUnavailable("partition " + p + " is not here"));
            }
            copies.put(p, copy.get());
        }
        Supplier<T> fromStore = () -> {
            try {
                return read.apply(copies::get);
            } catch (TableServiceException e) {
                if (e.errorCode() == ErrorCode.SERVER_BUSY) {
                    throw new ReplicaUnavailable("a store is not queryable here", e);
                }
                throw e;
            }
        };
        if (token == null) {
            try {
                return CompletableFuture.completedFuture(fromStore.get());
            } catch (ReplicaUnavailable e) {
                return CompletableFuture.failedFuture(e);
            }
        }
        return sessions.until(token, locator.partitions(), Set.copyOf(partitions))
                .thenApplyAsync(x -> fromStore.get(), readers);
    }

    /**
     * Reads what the task owning {@code key} keeps (a transaction's or a job's status), wherever its
     * partition is served, routed like a point read; with the session token of the submission it waits
     * until that task has recorded it. Answers with the JSON {@code body} makes of what was read.
     */
    <T> void readOnePartition(RequestContext request, Context http, CommandKey key,
                              BiFunction<StoreReplica, Integer, T> read, Function<T, byte[]> body) {
        int partition = locator.partitionOf(key);
        String token = http.header(Headers.SESSION_TOKEN);
        ReplicaRouting.LocalRead local = replica -> readHere(List.of(partition), replica, token,
                copies -> read.apply(copies.apply(partition), partition))
                .thenAccept(found -> {
                    byte[] json = body.apply(found);
                    ResponseHeaders.standard(http, request);
                    http.contentType("application/json;charset=utf-8");
                    http.result(json);
                });
        respond(request, http, List.of(partition), token, () -> locator.locate(key), local);
    }

    /** A page of {@code partitions} read here, within {@code budget} rows. */
    CompletableFuture<Page> readPage(long tableId, EntityQuery query, Predicate<Entity> visible,
                                             List<Integer> partitions, boolean standbyAllowed, String token, int budget) {
        StoreReplica replica = standbyAllowed ? StoreReplica.ACTIVE_OR_STANDBY : StoreReplica.ACTIVE;
        return readHere(partitions, replica, token, copies -> pages.read(tableId, query, visible, partitions, copies,
                budget));
    }

    List<Integer> requestedPartitions(String header) {
        List<Integer> partitions = new ArrayList<>();
        try {
            for (String p : header.split(",", -1)) {
                int partition = Integer.parseInt(p.strip());
                if (partition < 0 || partition >= locator.partitions() || partitions.contains(partition)) {
                    throw new NumberFormatException();
                }
                partitions.add(partition);
            }
        } catch (NumberFormatException e) {
            throw TableServiceException.of(ErrorCode.INVALID_HEADER_VALUE, Headers.READ_PARTITIONS
                    + " must list distinct partitions from 0 to " + (locator.partitions() - 1) + ".");
        }
        return partitions;
    }

    int requestedBudget(String header) {
        if (header == null) {
            return rowBudget;
        }
        try {
            int budget = Integer.parseInt(header.strip());
            if (budget >= 1) {
                return budget;
            }
        } catch (NumberFormatException e) {
            // fall through
        }
        throw TableServiceException.of(ErrorCode.INVALID_HEADER_VALUE, Headers.ROW_BUDGET + " must be a positive integer.");
    }
}
