package io.tablestream.server.cluster;

import com.azure.core.exception.HttpResponseException;
import com.azure.core.http.rest.Response;
import com.azure.core.util.Context;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableEntityUpdateMode;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionResponse;
import com.azure.data.tables.models.TableTransactionActionType;
import com.azure.data.tables.models.TableTransactionResult;
import io.tablestream.server.ChangeFeedRecords;
import io.tablestream.server.RawTableClient;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * Writes and reads through every instance of a cluster while faults happen, and the ledger of what
 * the clients were answered, to check afterwards that the cluster kept every answer. Through each
 * instance, concurrently:
 * <ul>
 *   <li>sync writes with the official SDK on entities only that writer writes: inserts, merges
 *       conditional on the last answered ETag, upserts — each answered status and ETag booked;</li>
 *   <li>{@code Prefer: respond-async} inserts (the SDK cannot ask for them): each 202 booked;</li>
 *   <li>entity group transactions of four inserts with the SDK: each answered operation's ETag booked,
 *       a transaction whose answer never came booked as such;</li>
 *   <li>point reads with the SDK of entities written before: a read that shows an older version than
 *       one answered before it began, or none, is a stale read.</li>
 * </ul>
 * Every operation is recorded in an {@link OpLog} as {@code <kind>@<instance>} (kinds {@code write},
 * {@code async}, {@code tx}, {@code read}). Clients never retry: a write whose answer is 5xx or never
 * came is "unknown" (it may or may not have been applied) and its entity is written no more.
 */
final class FaultLoad implements AutoCloseable {
    static final List<String> WRITE_KINDS = List.of("write", "async", "tx");
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final int ROWS_PER_TRANSACTION = 4;
    /** Between two operations of one client: a steady load, not a flood that starves the brokers of CPU. */
    private static final Duration PACE = Duration.ofMillis(20);

    /** The writes of one entity, from its one writer's view. */
    static final class Writes {
        /** ETags of the answered writes, in order (quotes removed). */
        final List<String> answered = Collections.synchronizedList(new ArrayList<>());
        /** When each was answered (System.nanoTime), in the same order. */
        private final List<Long> answeredAt = Collections.synchronizedList(new ArrayList<>());
        /** A write whose answer never came, or was a 5xx: it may or may not have been applied. */
        volatile boolean unknown;

        synchronized void answered(String etag) {
            answered.add(etag);
            answeredAt.add(System.nanoTime());
        }

        synchronized String last() {
            return answered.isEmpty() ? null : answered.get(answered.size() - 1);
        }

        /** When the first version newer than {@code etag} was answered, or empty if none is. */
        synchronized java.util.OptionalLong firstAnsweredAfter(String etag) {
            Instant seen = timestampOf(etag);
            for (int i = 0; i < answered.size(); i++) {
                if (timestampOf(answered.get(i)).isAfter(seen)) {
                    return java.util.OptionalLong.of(answeredAt.get(i));
                }
            }
            return java.util.OptionalLong.empty();
        }
    }

    /**
     * A read that showed an older version than one answered before it began (or none), through
     * {@code via}: how stale it was — from the answer of the first version it lacks to its start.
     */
    record StaleRead(String key, String via, long startNanos, Duration staleness, String what) {
    }

    private final String table;
    private final OpLog log = new OpLog();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final List<Thread> threads = new ArrayList<>();
    private final String run = Long.toString(System.nanoTime() % 1_000_000_000L, 36);
    /** Sync writes and transactions: PartitionKey/RowKey → what was answered. */
    final Map<String, Writes> ledger = new ConcurrentHashMap<>();
    /** Async inserts answered 202: PartitionKey/RowKey → the value of N written. */
    final Map<String, Long> accepted = new ConcurrentHashMap<>();
    /** Rows of transactions answered 202: PartitionKey/RowKey → the value of N written. */
    final Map<String, Long> transacted = new ConcurrentHashMap<>();
    /** Transactions whose answer never came: the keys of their rows. */
    final ConcurrentLinkedQueue<List<String>> unknownTransactions = new ConcurrentLinkedQueue<>();
    /** What contradicts an earlier answer, seen while running. */
    final ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
    /** Reads that showed an older version than one answered before they began. */
    final ConcurrentLinkedQueue<StaleRead> staleReads = new ConcurrentLinkedQueue<>();
    private final List<String> readable = Collections.synchronizedList(new ArrayList<>());

    private FaultLoad(String table) {
        this.table = table;
    }

    /** Starts the load through {@code instances} on {@code table} (which exists). */
    static FaultLoad start(List<ThreeBrokerCluster.Instance> instances, String table) {
        FaultLoad load = new FaultLoad(table);
        for (ThreeBrokerCluster.Instance instance : instances) {
            TableClient sdk = instance.client().getTableClient(table);
            RawTableClient raw = instance.raw();
            Random random = new Random(instance.id.hashCode());
            AtomicLong sequence = new AtomicLong();
            String via = instance.id;
            load.loop("write@" + via, () -> load.syncWrite(sdk, via, random, sequence.incrementAndGet()));
            load.loop("async@" + via, () -> load.asyncInsert(raw, via, sequence.incrementAndGet()));
            load.loop("tx@" + via, () -> load.transaction(sdk, via, sequence.incrementAndGet()));
            load.loop("read@" + via, () -> load.read(sdk, via, random));
        }
        return load;
    }

    OpLog log() {
        return log;
    }

    /** The end of the last write (of any kind, through {@code via}) ending after {@code since}, in flight then or sent since, that failed or took over {@code slow}. */
    Duration writesDisruptedFor(List<ThreeBrokerCluster.Instance> via, long sinceNanos, Duration slow) {
        return writesDisruptedFor(via, sinceNanos, Long.MAX_VALUE, slow);
    }

    /** As {@link #writesDisruptedFor(List, long, Duration)}, counting the writes sent before {@code untilNanos} only. */
    Duration writesDisruptedFor(List<ThreeBrokerCluster.Instance> via, long sinceNanos, long untilNanos, Duration slow) {
        Duration longest = Duration.ZERO;
        for (ThreeBrokerCluster.Instance i : via) {
            for (String kind : WRITE_KINDS) {
                Duration d = log.disruptedAcross(kind + "@" + i.id, sinceNanos, untilNanos, slow);
                longest = d.compareTo(longest) > 0 ? d : longest;
            }
        }
        return longest;
    }

    /**
     * The longest write (of any kind, through {@code via}) that started after {@code sinceNanos}: how
     * long a write waited at most while something recovered (a broker rejoining, say).
     */
    Duration longestWrite(List<ThreeBrokerCluster.Instance> via, long sinceNanos) {
        Duration longest = Duration.ZERO;
        for (ThreeBrokerCluster.Instance i : via) {
            for (String kind : WRITE_KINDS) {
                Duration d = log.longest(kind + "@" + i.id, sinceNanos);
                longest = d.compareTo(longest) > 0 ? d : longest;
            }
        }
        return longest;
    }

    /** Whether {@code op} is a write (of any kind) through one of {@code via}. */
    static boolean isWriteThrough(OpLog.Op op, List<ThreeBrokerCluster.Instance> via) {
        return via.stream().anyMatch(i -> WRITE_KINDS.stream().anyMatch(kind -> op.kind().equals(kind + "@" + i.id)));
    }

    /** As {@link #writesDisruptedFor}, for reads. */
    Duration readsDisruptedFor(List<ThreeBrokerCluster.Instance> via, long sinceNanos, Duration slow) {
        Duration longest = Duration.ZERO;
        for (ThreeBrokerCluster.Instance i : via) {
            Duration d = log.disruptedAcross("read@" + i.id, sinceNanos, slow);
            longest = d.compareTo(longest) > 0 ? d : longest;
        }
        return longest;
    }

    /** How many operations succeeded in all (every kind, every instance). */
    long succeeded() {
        return log.ops().stream().filter(OpLog.Op::ok).count();
    }

    private void loop(String name, Runnable step) {
        Thread t = new Thread(() -> {
            while (running.get()) {
                step.run();
                sleepQuietly(PACE);
            }
        }, "fault-load-" + name);
        t.setDaemon(true);
        threads.add(t);
        t.start();
    }

    // ------------------------------------------------------------------ the writers and the reader

    private void syncWrite(TableClient sdk, String via, Random random, long n) {
        String pk = "s-" + run + "-" + via + "-" + n % 4;
        List<String> owned = ownedRows(pk);
        double r = random.nextDouble();
        if (owned.isEmpty() || r < 0.5) {
            String rk = "r" + n;
            TableEntity entity = new TableEntity(pk, rk).addProperty("N", n);
            book("write@" + via, pk + "/" + rk, () -> sdk.createEntityWithResponse(entity, TIMEOUT, Context.NONE), 201, 204);
        } else {
            String rk = owned.get(random.nextInt(owned.size()));
            String key = pk + "/" + rk;
            if (r < 0.8) {
                String etag = ledger.get(key).last();
                TableEntity entity = new TableEntity(pk, rk).addProperty("M", n).addProperty("odata.etag", "W/\"" + etag + "\"");
                book("write@" + via, key, () -> sdk.updateEntityWithResponse(entity, TableEntityUpdateMode.MERGE, true,
                        TIMEOUT, Context.NONE), 204);
            } else {
                TableEntity entity = new TableEntity(pk, rk).addProperty("U", n);
                book("write@" + via, key, () -> sdk.upsertEntityWithResponse(entity, TableEntityUpdateMode.REPLACE,
                        TIMEOUT, Context.NONE), 204);
            }
        }
    }

    /** Rows of {@code pk} this writer owns and may write again (answered, none of it unknown). */
    private List<String> ownedRows(String pk) {
        List<String> rows = new ArrayList<>();
        ledger.forEach((key, w) -> {
            if (key.startsWith(pk + "/") && !w.unknown && w.last() != null) {
                rows.add(key.substring(pk.length() + 1));
            }
        });
        return rows;
    }

    /** Sends one sync write of {@code key} and books what came of it. */
    private void book(String kind, String key, java.util.function.Supplier<Response<Void>> send, int... expected) {
        Writes writes = ledger.computeIfAbsent(key, k -> new Writes());
        long begin = System.nanoTime();
        try {
            Response<Void> response = send.get();
            log.done(kind, begin, null);
            if (!contains(expected, response.getStatusCode())) {
                violations.add(key + " answered " + response.getStatusCode());
            }
            String etag = response.getHeaders().getValue("ETag");
            if (etag == null) {
                violations.add(key + " answered " + response.getStatusCode() + " without an ETag (" + kind + ")");
                writes.unknown = true;
                return;
            }
            writes.answered(unquoted(etag));
            readable.add(key);
        } catch (HttpResponseException e) {
            int status = e.getResponse().getStatusCode();
            log.done(kind, begin, status + " " + firstLine(e.getMessage()));
            if (status >= 500) {
                writes.unknown = true;
            } else {
                violations.add(key + " answered " + status + ": " + firstLine(e.getMessage()));
            }
            pause();
        } catch (RuntimeException e) {
            log.done(kind, begin, e.getClass().getSimpleName() + " " + firstLine(e.getMessage()));
            writes.unknown = true; // no answer: it may or may not have been applied
            pause();
        }
    }

    private void asyncInsert(RawTableClient raw, String via, long n) {
        String pk = "a-" + run + "-" + via + "-" + n % 4;
        String key = pk + "/r" + n;
        long begin = System.nanoTime();
        try {
            RawTableClient.Response r = raw.send("POST", table, "{\"PartitionKey\":\"" + pk + "\",\"RowKey\":\"r" + n
                    + "\",\"N\":" + n + "}", "Prefer", "respond-async");
            if (r.status() == 202) {
                log.done("async@" + via, begin, null);
                accepted.put(key, n);
            } else {
                log.done("async@" + via, begin, r.status() + " " + firstLine(r.body()));
                if (r.status() < 500) {
                    violations.add(key + " (async) answered " + r.status() + ": " + r.body());
                }
                pause();
            }
        } catch (RuntimeException e) {
            log.done("async@" + via, begin, e.getClass().getSimpleName() + " " + firstLine(e.getMessage()));
            pause();
        }
    }

    private void transaction(TableClient sdk, String via, long n) {
        String pk = "t-" + run + "-" + via + "-" + n;
        List<TableTransactionAction> actions = new ArrayList<>();
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < ROWS_PER_TRANSACTION; i++) {
            actions.add(new TableTransactionAction(TableTransactionActionType.CREATE,
                    new TableEntity(pk, "r" + i).addProperty("N", n)));
            keys.add(pk + "/r" + i);
        }
        long begin = System.nanoTime();
        try {
            Response<TableTransactionResult> r = sdk.submitTransactionWithResponse(actions, TIMEOUT, Context.NONE);
            log.done("tx@" + via, begin, null);
            // The SDK hands out no ETag of a transaction's operations: the rows are booked as there, with N.
            for (TableTransactionActionResponse answer : r.getValue().getTransactionActionResponses()) {
                if (answer.getStatusCode() != 204 && answer.getStatusCode() != 201) {
                    violations.add(pk + " (transaction) answered " + answer.getStatusCode() + " for an insert");
                }
            }
            keys.forEach(key -> transacted.put(key, n));
        } catch (HttpResponseException e) {
            int status = e.getResponse().getStatusCode();
            log.done("tx@" + via, begin, status + " " + firstLine(e.getMessage()));
            if (status >= 500) {
                unknownTransactions.add(keys);
            } else {
                violations.add(pk + " (transaction) answered " + status + ": " + firstLine(e.getMessage()));
            }
            pause();
        } catch (RuntimeException e) {
            log.done("tx@" + via, begin, e.getClass().getSimpleName() + " " + firstLine(e.getMessage()));
            unknownTransactions.add(keys);
            pause();
        }
    }

    private void read(TableClient sdk, String via, Random random) {
        String key;
        synchronized (readable) {
            if (readable.isEmpty()) {
                pause();
                return;
            }
            key = readable.get(random.nextInt(readable.size()));
        }
        Writes writes = ledger.get(key);
        String before = writes.last();
        String[] pkRk = key.split("/", 2);
        long begin = System.nanoTime();
        try {
            TableEntity e = sdk.getEntityWithResponse(pkRk[0], pkRk[1], null, TIMEOUT, Context.NONE).getValue();
            log.done("read@" + via, begin, null);
            String read = unquoted(e.getETag());
            if (before != null && timestampOf(read).isBefore(timestampOf(before))) {
                stale(key, via, begin, writes.firstAnsweredAfter(read).orElse(begin),
                        "read " + read + " after " + before + " was answered");
            }
        } catch (HttpResponseException e) {
            int status = e.getResponse().getStatusCode();
            log.done("read@" + via, begin, status + " " + firstLine(e.getMessage()));
            if (status == 404) {
                stale(key, via, begin, writes.firstAnsweredAfter("datetime'0001-01-01T00:00:00Z'").orElse(begin),
                        "404 after " + before + " was answered");
            } else if (status < 500) {
                violations.add(key + " read via " + via + " answered " + status + ": " + firstLine(e.getMessage()));
            }
            pause();
        } catch (RuntimeException e) {
            log.done("read@" + via, begin, e.getClass().getSimpleName() + " " + firstLine(e.getMessage()));
            pause();
        }
    }

    private void stale(String key, String via, long startNanos, long lackedSinceNanos, String what) {
        staleReads.add(new StaleRead(key, via, startNanos, Duration.ofNanos(Math.max(0, startNanos - lackedSinceNanos)),
                what));
    }

    // ------------------------------------------------------------------ afterwards

    /** Stops the load and waits for its clients. */
    @Override
    public void close() {
        running.set(false);
        for (Thread t : threads) {
            try {
                t.join(TIMEOUT.multipliedBy(2).toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** What became of the ledger, checked against the table and the change feed. */
    record Verdict(int answeredEntities, int answeredWrites, int asyncAccepted, int transactedRows,
                   int unknownTransactionsChecked,
                   List<String> lost, List<String> changed, List<String> partlyApplied, List<String> feedNotOnce) {
        boolean clean() {
            return lost.isEmpty() && changed.isEmpty() && partlyApplied.isEmpty() && feedNotOnce.isEmpty();
        }
    }

    /**
     * Reads the whole table ({@code scan}, retried by the caller until it succeeds) and the change
     * feed ({@code feed}), and checks: every answered write's entity holds the last ETag answered for
     * it, with the Timestamp that ETag names; every accepted async insert is there with its value; a
     * transaction whose answer never came is there whole or not at all; the change feed holds each
     * answered version once, and no version twice.
     */
    Verdict verify(Map<String, TableEntity> table, List<ChangeFeedRecords.Change> feed) {
        List<String> lost = new ArrayList<>();
        List<String> changed = new ArrayList<>();
        List<String> partly = new ArrayList<>();
        List<String> feedNotOnce = new ArrayList<>();
        int answeredWrites = 0;
        int entities = 0;
        Map<String, List<String>> feedByKey = new HashMap<>();
        for (ChangeFeedRecords.Change c : feed) {
            feedByKey.computeIfAbsent(c.key(), k -> new ArrayList<>()).add(unquoted(c.etag()));
        }
        for (Map.Entry<String, Writes> e : ledger.entrySet()) {
            Writes w = e.getValue();
            List<String> answered = List.copyOf(w.answered);
            answeredWrites += answered.size();
            List<String> events = feedByKey.getOrDefault(e.getKey(), List.of());
            if (events.stream().distinct().count() != events.size()) {
                feedNotOnce.add(e.getKey() + " has a version twice in the change feed: " + events);
            }
            for (String etag : answered) {
                if (!events.contains(etag)) {
                    feedNotOnce.add(e.getKey() + " answered " + etag + " but the change feed lacks it: " + events);
                }
            }
            if (answered.isEmpty()) {
                continue;
            }
            entities++;
            TableEntity found = table.get(e.getKey());
            if (found == null) {
                lost.add(e.getKey() + " (answered " + answered + ")");
            } else if (!w.unknown) {
                String last = answered.get(answered.size() - 1);
                String etag = unquoted(found.getETag());
                if (!etag.equals(last)) {
                    changed.add(e.getKey() + ": ETag " + etag + ", answered " + last);
                } else if (!found.getTimestamp().toInstant().equals(timestampOf(last))) {
                    changed.add(e.getKey() + ": Timestamp " + found.getTimestamp() + ", its ETag " + last);
                }
            }
        }
        for (Map.Entry<String, Long> e : accepted.entrySet()) {
            holds(table, e.getKey(), e.getValue(), "async, answered 202", lost, changed);
        }
        for (Map.Entry<String, Long> e : transacted.entrySet()) {
            holds(table, e.getKey(), e.getValue(), "in a transaction answered 202", lost, changed);
            long inFeed = feed.stream().filter(c -> c.key().equals(e.getKey())).count();
            if (inFeed != 1) {
                feedNotOnce.add(e.getKey() + " (inserted in a transaction) is " + inFeed + " times in the change feed");
            }
        }
        for (List<String> keys : unknownTransactions) {
            long there = keys.stream().filter(table::containsKey).count();
            if (there != 0 && there != keys.size()) {
                partly.add(keys + ": " + there + " of " + keys.size() + " rows there");
            }
        }
        return new Verdict(entities, answeredWrites, accepted.size(), transacted.size(), unknownTransactions.size(), lost,
                changed, partly, feedNotOnce);
    }

    /** Whether {@code table} holds {@code key} with N = {@code n}; books it as lost or changed otherwise. */
    private static void holds(Map<String, TableEntity> table, String key, long n, String what, List<String> lost,
                              List<String> changed) {
        TableEntity found = table.get(key);
        if (found == null) {
            lost.add(key + " (" + what + ")");
        } else if (!(found.getProperty("N") instanceof Number value) || value.longValue() != n) {
            changed.add(key + " (" + what + "): N=" + found.getProperty("N") + ", written " + n);
        }
    }

    // ------------------------------------------------------------------ vocabulary

    /** Without quotes: the SDK hands some ETags out with, some without them. */
    static String unquoted(String etag) {
        return etag == null ? null : etag.replace("\"", "").replace("W/", "");
    }

    /** The Timestamp an ETag {@code datetime'...'} names. */
    static Instant timestampOf(String etag) {
        int from = etag.indexOf("datetime'") + "datetime'".length();
        return Instant.parse(etag.substring(from, etag.indexOf('\'', from)).replace("%3A", ":"));
    }

    /** The table as a map of PartitionKey/RowKey to entity. */
    static Map<String, TableEntity> byKey(Iterable<TableEntity> entities) {
        Map<String, TableEntity> all = new HashMap<>();
        for (TableEntity e : entities) {
            all.put(e.getPartitionKey() + "/" + e.getRowKey(), e);
        }
        return all;
    }

    private static boolean contains(int[] values, int value) {
        for (int v : values) {
            if (v == value) {
                return true;
            }
        }
        return false;
    }

    private static String firstLine(String message) {
        String m = String.valueOf(message).replaceAll("RequestId:[^\"\\\\]*", "");
        int newline = m.indexOf('\n');
        m = newline < 0 ? m : m.substring(0, newline);
        return m.substring(0, Math.min(160, m.length()));
    }

    private static void pause() {
        sleepQuietly(Duration.ofMillis(50)); // a failing instance answers at once: do not spin
    }

    private static void sleepQuietly(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Applies {@code f} to each instance's kinds; a small helper for reports. */
    static <T> Map<String, T> perInstance(List<ThreeBrokerCluster.Instance> instances, Function<String, T> f) {
        Map<String, T> out = new java.util.LinkedHashMap<>();
        instances.forEach(i -> out.put(i.id, f.apply(i.id)));
        return out;
    }
}
