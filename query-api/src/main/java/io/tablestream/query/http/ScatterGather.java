package io.tablestream.query.http;

import io.javalin.http.Context;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.model.Entity;
import io.tablestream.protocol.http.Headers;
import io.tablestream.protocol.http.RequestContext;
import io.tablestream.query.plan.EntityQuery;
import io.tablestream.query.plan.Page;
import io.tablestream.query.plan.PageMerge;
import io.tablestream.query.plan.PartialPages;
import io.tablestream.query.routing.Instance;
import io.tablestream.query.routing.InstanceClient;
import io.tablestream.query.routing.Placement;
import io.tablestream.query.routing.Replica;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * One multi-partition query: each partition is read from its first usable copy — those here
 * together, those of each other instance with one partial read there — every reader from the
 * same resume point within its share of the row budget; the partial pages are merged. Partitions
 * whose copy failed are located again and read from another copy, for a bounded moment.
 */
final class ScatterGather {
    private final PartitionReads reads;
    private final RequestContext request;
    private final Context http;
    private final long tableId;
    private final EntityQuery query;
    private final Predicate<Entity> visible;
    private final String token;

    ScatterGather(PartitionReads reads, RequestContext request, Context http, long tableId, EntityQuery query,
                  Predicate<Entity> visible, String token) {
        this.reads = reads;
        this.request = request;
        this.http = http;
        this.tableId = tableId;
        this.query = query;
        this.visible = visible;
        this.token = token;
    }

    CompletableFuture<Page> run() {
        long deadline = System.nanoTime() + ReplicaRouting.UNAVAILABLE_WAIT.toNanos();
        return gather(placements(null), new ArrayList<>(), new HashMap<>(), deadline, true)
                .thenApply(parts -> PageMerge.merge(parts, query.pageOrder(), query.top(),
                        reads.pages().byteBudget(query)));
    }

    /**
     * Reads {@code placements}' partitions, then those whose copy failed again — from a copy not
     * tried yet when there is one — at once the first time, then every moment until the deadline.
     */
    private CompletableFuture<List<Page>> gather(List<Placement> placements, List<Page> done,
                                                 Map<Integer, Set<Replica>> tried, long deadline, boolean first) {
        return round(placements, tried).thenCompose(round -> {
            done.addAll(round.pages());
            if (round.failed().isEmpty()) {
                return CompletableFuture.completedFuture(done);
            }
            round.failed().forEach((p, r) -> tried.computeIfAbsent(p, x -> new HashSet<>()).add(r));
            long wait = first ? 0 : ReplicaRouting.RETRY_INTERVAL.toNanos();
            if (System.nanoTime() + wait - deadline > 0) {
                throw ReplicaRouting.busy(round.failed().keySet().iterator().next(), null);
            }
            return CompletableFuture.supplyAsync(() -> null,
                            CompletableFuture.delayedExecutor(wait, TimeUnit.NANOSECONDS))
                    .thenCompose(x -> gather(placements(round.failed().keySet()), done, tried, deadline, false));
        });
    }

    /** Where each partition (of {@code only}, when given) can be read, as the metadata says now. */
    private List<Placement> placements(Set<Integer> only) {
        List<Placement> placements = new ArrayList<>();
        for (Placement p : reads.locator().locateAll()) {
            if (only == null || only.contains(p.partition())) {
                placements.add(token == null ? p : p.activeOnly());
            }
        }
        return placements;
    }

    /** The partial pages read, and the partitions whose chosen copy failed (with that copy). */
    private record Round(List<Page> pages, Map<Integer, Replica> failed) {
    }

    /**
     * Reads each partition of {@code placements} from its first copy not {@code tried} yet (or
     * its first copy, when every one was), those here together, those of each other instance
     * with one partial read there.
     */
    private CompletableFuture<Round> round(List<Placement> placements, Map<Integer, Set<Replica>> tried) {
        Map<Instance, List<Integer>> remote = new LinkedHashMap<>();
        Map<Instance, Boolean> remoteStandby = new HashMap<>();
        List<Integer> here = new ArrayList<>();
        boolean hereStandby = false;
        Map<Integer, Replica> failures = new ConcurrentHashMap<>();
        for (Placement placement : placements) {
            List<Replica> candidates = reads.routing().ordered(placement.replicas());
            Set<Replica> failedBefore = tried.getOrDefault(placement.partition(), Set.of());
            Replica chosen = candidates.stream().filter(r -> !failedBefore.contains(r)).findFirst()
                    .orElse(candidates.isEmpty() ? null : candidates.get(0));
            if (chosen == null) {
                failures.put(placement.partition(), Replica.localActive());
            } else if (chosen.isLocal()) {
                here.add(placement.partition());
                hereStandby |= chosen.standby();
            } else {
                remote.computeIfAbsent(chosen.instance(), i -> new ArrayList<>()).add(placement.partition());
                remoteStandby.merge(chosen.instance(), chosen.standby(), Boolean::logicalOr);
            }
        }
        List<CompletableFuture<Void>> pending = new ArrayList<>();
        List<Page> read = Collections.synchronizedList(new ArrayList<>());
        if (!here.isEmpty()) {
            boolean standby = hereStandby;
            Replica local = standby ? Replica.localStandby() : Replica.localActive();
            pending.add(reads.readPage(tableId, query, visible, here, standby, token, share(here.size()))
                    .handle((page, error) -> collect(page, error, here, local, read, failures)));
        }
        remote.forEach((instance, partitions) -> {
            Replica target = new Replica(instance, remoteStandby.get(instance));
            Map<String, String> extra = Map.of(
                    Headers.READ_PARTITIONS, partitions.stream().map(String::valueOf).collect(Collectors.joining(",")),
                    Headers.ROW_BUDGET, Integer.toString(share(partitions.size())));
            pending.add(reads.routing().send(request, http, target, extra,
                    token == null ? Duration.ZERO : reads.sessionTimeout())
                    .thenApply(answer -> partialPage(target, answer))
                    .handle((page, error) -> collect(page, error, partitions, target, read, failures)));
        });
        return CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new))
                .thenApply(x -> new Round(List.copyOf(read), Map.copyOf(failures)));
    }

    private Void collect(Page page, Throwable error, List<Integer> partitions, Replica replica, List<Page> read,
                         Map<Integer, Replica> failures) {
        if (error == null) {
            read.add(page);
            return null;
        }
        Throwable cause = ReplicaRouting.unwrap(error);
        if (cause instanceof ReplicaUnavailable) {
            partitions.forEach(p -> failures.put(p, replica));
            return null;
        }
        if (cause instanceof RuntimeException r) {
            throw r;
        }
        throw new IllegalStateException(cause);
    }

    /** The share of the row budget of a reader of {@code count} of the partitions. */
    private int share(int count) {
        return Math.max(1, (int) ((long) reads.rowBudget() * count / reads.locator().partitions()));
    }

    /**
     * A partial read's answer from {@code replica}: its page; or the other instance's refusal of the
     * request (a 4xx with its error code) as this request's; or, for anything else — a failure there,
     * an answer that is not a partial page — that copy counted as unavailable
     * ({@link ReplicaRouting#unexpectedAnswer}), so the partitions are read from another copy.
     */
    static Page partialPage(Replica replica, InstanceClient.Answer answer) {
        String type = answer.header("Content-Type");
        if (answer.status() == 200) {
            if (type == null || !type.startsWith(PartialPages.CONTENT_TYPE)) {
                throw ReplicaRouting.unexpectedAnswer(replica, "a partial read answered with Content-Type " + type);
            }
            try {
                return PartialPages.decode(answer.body());
            } catch (IllegalArgumentException e) {
                throw ReplicaRouting.unexpectedAnswer(replica, "a partial read answered " + answer.body().length
                        + " bytes that are " + e.getMessage());
            }
        }
        String code = answer.header(Headers.ERROR_CODE);
        for (ErrorCode c : ErrorCode.values()) {
            if (c.code().equals(code) && c.httpStatus() == answer.status() && answer.status() < 500) {
                return failWith(c, "A partial read on another instance was refused (" + answer.status() + " " + code
                        + ").");
            }
        }
        throw ReplicaRouting.unexpectedAnswer(replica, "a partial read answered " + answer.status() + " " + code);
    }

    private static Page failWith(ErrorCode code, String message) {
        throw TableServiceException.of(code, message);
    }
}
