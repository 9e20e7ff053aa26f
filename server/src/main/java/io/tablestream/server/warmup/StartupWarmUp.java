package io.tablestream.server.warmup;

import io.tablestream.client.LeanTableClient;
import io.tablestream.client.LeanTableClient.BatchOperation;
import io.tablestream.client.TableAccount;
import io.tablestream.client.TableServiceHttp;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An instance's own requests to itself before it reports ready, so that the JIT compiles its hot
 * paths before the first client meets them: on two cores one request at a time takes minutes to make
 * the thousands of calls HotSpot's C2 compiler waits for (see docs/performance.md, "Start-up and
 * warm-up").
 *
 * <p>For a bounded time, one request at a time, it sends over loopback HTTP what the official SDK
 * sends, signed with SharedKeyLite: single inserts, insert-or-replace, merges, point reads, small
 * range queries and now and then a transaction of ten inserts (of a hundred, as bulk loaders send them,
 * once in five), over a few PartitionKeys (so in a cluster some are read from other instances, forwarded
 * as a client's reads are). They write to a scratch table of this process's own, deleted at the end, in
 * a scratch account: its name is the instance's ({@code instance-id}) tag and a random end, so that a
 * warm-up first deletes what an earlier run of the same instance left (a {@code kill -9} mid-warm-up),
 * never another instance's running one.
 *
 * <p>The scratch account is the cluster's: its name and key are derived from the command log topic's
 * id ({@link #sharedScratchAccount}), which the cluster chose at random when it created the topic and
 * which every instance reads from Kafka at its start, so every instance of a cluster knows the account
 * without any configuration, and authenticates the warm-up's reads that another instance forwards to
 * it. No HTTP client can use it: the id is never told over HTTP, and a request signed with any other
 * key fails 403 as for any account (anyone who may describe the topic in Kafka can derive it, and may
 * read every table there anyway).
 *
 * <p>It is best effort: the first failed request, a request that takes too long, the time running out or
 * {@link #stop} ends it, and the instance becomes (or stays) ready either way.
 */
public final class StartupWarmUp {
    private static final Logger LOG = LoggerFactory.getLogger(StartupWarmUp.class);
    /** The beginning of the scratch table's name in the scratch account (a random end follows). */
    static final String TABLE_PREFIX = "WarmUp";
    /** The PartitionKeys of the single writes are this and a number below {@link #PARTITION_KEYS}; transactions write to their own. */
    static final String PARTITION = "p";
    /** How many PartitionKeys the rounds go over: enough that in a cluster some live on other instances. */
    static final int PARTITION_KEYS = 8;
    /** A transaction every this many rounds of a worker. */
    static final int TRANSACTION_EVERY = 10;
    static final int TRANSACTION_SIZE = 10;
    /** Every this many transactions, one of {@link #BIG_TRANSACTION_SIZE} instead: how loaders fill a table. */
    static final int BIG_TRANSACTION_EVERY = 5;
    static final int BIG_TRANSACTION_SIZE = 100;
    /** How long the scratch table's creation and deletion may take beyond the warm-up's own time. */
    private static final Duration SETUP_TIMEOUT = Duration.ofSeconds(10);
    private static final SecureRandom RANDOM = new SecureRandom();
    /** A table's name in a Query Tables answer. */
    private static final Pattern TABLE_NAME = Pattern.compile("\"TableName\"\\s*:\\s*\"([A-Za-z0-9]+)\"");

    private final String account;
    private final String key;
    /** The beginning of this instance's scratch tables' names: {@link #TABLE_PREFIX} and the instance's tag. */
    private final String instanceTables;
    /** This process's scratch table: instances of a cluster warming up at once each use their own. */
    private final String table;
    /** Why {@link #stop} ended the warm-up; null until then. */
    private volatile String stopped;

    private StartupWarmUp(String account, String key, String instanceId) {
        this.account = account;
        this.key = key;
        long tag = ByteBuffer.wrap(hmac("tablestream warm-up instance tag", instanceId)).getLong() & Long.MAX_VALUE;
        this.instanceTables = TABLE_PREFIX + String.format("%8s", Long.toString(tag % 2_821_109_907_456L, 36))
                .replace(' ', '0') + "x";
        this.table = instanceTables + Long.toString(RANDOM.nextLong() & Long.MAX_VALUE, 36);
    }

    /**
     * The cluster's scratch account: its name ({@code warmup} and 13 letters or digits) and key derived,
     * by HMAC-SHA256, from {@code commandsTopicId} (the command log topic's id, see the class comment);
     * empty when a configured account in {@code taken} has that name.
     */
    public static Optional<StartupWarmUp> sharedScratchAccount(String commandsTopicId, Set<String> taken) {
        return sharedScratchAccount(commandsTopicId, taken, "");
    }

    /** As {@link #sharedScratchAccount(String, Set)}, for the instance named {@code instanceId} (its tables' tag). */
    public static Optional<StartupWarmUp> sharedScratchAccount(String commandsTopicId, Set<String> taken,
                                                               String instanceId) {
        byte[] nameBytes = hmac(commandsTopicId, "tablestream warm-up scratch account name");
        long number = ByteBuffer.wrap(nameBytes).getLong() & Long.MAX_VALUE;
        String name = "warmup" + String.format("%13s", Long.toString(number, 36)).replace(' ', '0');
        if (taken.contains(name)) {
            LOG.warn("A configured account is named {}, the cluster's warm-up account: no warm-up", name);
            return Optional.empty();
        }
        return Optional.of(new StartupWarmUp(name, Base64.getEncoder().encodeToString(
                hmac(commandsTopicId, "tablestream warm-up scratch account key")), instanceId));
    }

    private static byte[] hmac(String secret, String purpose) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return mac.doFinal(purpose.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }

    /** The scratch account's name (3 to 24 lower-case letters and digits). */
    public String account() {
        return account;
    }

    /** The scratch account's key, base64. */
    public String key() {
        return key;
    }

    /** This process's scratch table in the scratch account. */
    String table() {
        return table;
    }

    /** The beginning of the names of this instance's scratch tables, this process's and earlier ones'. */
    String instanceTables() {
        return instanceTables;
    }

    /**
     * Ends a running warm-up after the request it is waiting for ({@code reason} says why, in its log
     * line), before its next one; the first reason given stays. Safe from any thread.
     */
    public void stop(String reason) {
        if (stopped == null) {
            stopped = reason;
        }
    }

    /** What a warm-up did. */
    public record Result(int writes, int reads, Duration took, String ended) {
    }

    /**
     * Warms up the instance serving {@code serviceRoot} (e.g. {@code http://127.0.0.1:10002}) for at
     * most {@code budget} of requests (the scratch table's creation and deletion come on top, 10 s
     * each at most); logs and returns what it did. Never throws.
     */
    public Result run(String serviceRoot, Duration budget) {
        long begin = System.nanoTime();
        AtomicInteger writes = new AtomicInteger();
        AtomicInteger reads = new AtomicInteger();
        String ended;
        TableAccount scratch = TableAccount.parse("AccountName=" + account + ";AccountKey=" + key
                + ";TableEndpoint=" + serviceRoot + "/" + account);
        try (LeanTableClient client = new LeanTableClient(scratch, TableServiceHttp.MINIMAL_METADATA)) {
            deleteLeftovers(client);
            String notBegun = stopped;
            String created = notBegun != null ? null : await(client.createTable(table), SETUP_TIMEOUT, 204);
            if (notBegun != null) {
                ended = "stopped before it began: " + notBegun;
            } else if (created != null) {
                ended = "stopped: the scratch table was not created (" + created + ")";
            } else {
                ended = warmUp(client, begin + budget.toNanos(), writes, reads);
                String deleted = await(client.deleteRaw("Tables('" + table + "')"), SETUP_TIMEOUT, 204);
                if (deleted != null) {
                    ended += "; the scratch table was not deleted (" + deleted + ")";
                }
            }
        } catch (RuntimeException e) {
            // best effort: whatever went wrong, the instance becomes ready
            ended = "stopped early: " + e;
        }
        Result result = new Result(writes.get(), reads.get(), Duration.ofNanos(System.nanoTime() - begin), ended);
        LOG.info("Warm-up: {} writes and {} reads of a scratch table in {} ms ({})", result.writes(), result.reads(),
                result.took().toMillis(), result.ended());
        return result;
    }

    /**
     * Deletes the scratch tables an earlier run of this instance left (one ended by {@code kill -9}
     * while it warmed up): those whose names begin with this instance's tag. Best effort.
     */
    private void deleteLeftovers(LeanTableClient client) {
        List<String> leftovers = new ArrayList<>();
        String failed = await(client.getRaw("Tables"), SETUP_TIMEOUT, tables -> {
            if (tables.status() != 200) {
                return "answered " + tables.status();
            }
            Matcher names = TABLE_NAME.matcher(tables.body());
            while (names.find()) {
                if (names.group(1).startsWith(instanceTables)) {
                    leftovers.add(names.group(1));
                }
            }
            return null;
        });
        if (failed != null) {
            LOG.info("Warm-up: this instance's earlier scratch tables were not looked for: the list of tables {}", failed);
        }
        for (String leftover : leftovers) {
            String deleted = await(client.deleteRaw("Tables('" + leftover + "')"), SETUP_TIMEOUT, 204);
            LOG.info("Warm-up: deleted {}, a scratch table an earlier run of this instance left{}", leftover,
                    deleted == null ? "" : " (" + deleted + ")");
        }
    }

    /**
     * Rounds one request at a time until {@code deadline} (nanoTime), the first failure or {@link #stop};
     * why they ended. One at a time, as a sequential client sends them: load with many requests in
     * flight did not make a young server's sequential writes faster (docs/performance.md).
     */
    private String warmUp(LeanTableClient client, long deadline, AtomicInteger writes, AtomicInteger reads) {
        for (int round = 0; System.nanoTime() < deadline; round++) {
            String failed = stopped != null ? null
                    : round(client, PARTITION + round % PARTITION_KEYS, round, deadline, writes, reads);
            if (stopped != null) {
                return "stopped: " + stopped;
            }
            if (failed != null) {
                return "stopped early: " + failed;
            }
            if (Thread.currentThread().isInterrupted()) {
                return "stopped early: interrupted";
            }
        }
        return "its time was up";
    }

    /**
     * One round on {@code partition}: null when every answer was the expected one (or {@link #stop}
     * came between two requests), else what failed.
     */
    private String round(LeanTableClient client, String partition, int round, long deadline,
                         AtomicInteger writes, AtomicInteger reads) {
        Duration left = Duration.ofNanos(Math.max(0, deadline - System.nanoTime())).plusSeconds(5);
        String rowKey = String.format("%08d", round);
        Map<String, Object> entity = entity(round);
        String failed = await(client.insert(table, partition, rowKey, entity, false), left, 204);
        if (failed == null && stopped == null) {
            writes.incrementAndGet();
            entity.put("Count", round + 1);
            failed = await(client.upsert(table, partition, rowKey, entity), left, 204);
        }
        if (failed == null && stopped == null) {
            writes.incrementAndGet();
            failed = await(client.merge(table, partition, rowKey, "*", Map.of("Note", "merged " + round)), left, 204);
        }
        if (failed == null && stopped == null) {
            writes.incrementAndGet();
            failed = await(client.get(table, partition, rowKey), left, 200);
        }
        if (failed == null && stopped == null) {
            reads.incrementAndGet();
            failed = await(client.query(table, "PartitionKey eq '" + partition + "' and RowKey ge '"
                    + String.format("%08d", Math.max(0, round - 5)) + "' and RowKey le '" + rowKey + "'"), left, 200);
        }
        if (failed == null && stopped == null) {
            reads.incrementAndGet();
            if (round % TRANSACTION_EVERY == TRANSACTION_EVERY - 1) {
                int transaction = round / TRANSACTION_EVERY;
                int size = transaction % BIG_TRANSACTION_EVERY == BIG_TRANSACTION_EVERY - 1
                        ? BIG_TRANSACTION_SIZE : TRANSACTION_SIZE;
                List<BatchOperation> inserts = new ArrayList<>();
                for (int i = 0; i < size; i++) {
                    inserts.add(BatchOperation.insert(rowKey + "-" + i, entity(round)));
                }
                failed = await(client.batch(table, partition + "-t", inserts), left,
                        b -> b.succeeded() ? null : "a transaction answered " + b.status());
                if (failed == null) {
                    writes.addAndGet(size);
                }
            }
        }
        return failed;
    }

    /** An entity with a property of each common type, as applications write them. */
    private static Map<String, Object> entity(int round) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("Name", "warm-up entity " + round);
        p.put("Count", round);
        p.put("Total", 1_000_000_000_000L + round);
        p.put("Price", round * 0.25);
        p.put("Active", round % 2 == 0);
        p.put("Created", OffsetDateTime.of(2026, 1, 1, 0, 0, round % 60, 0, ZoneOffset.UTC));
        return p;
    }

    /** Null when {@code answer} came within {@code timeout} with {@code status}, else what happened. */
    private static String await(CompletableFuture<LeanTableClient.Answer> answer, Duration timeout, int status) {
        return await(answer, timeout, a -> a.status() == status ? null
                : "answered " + a.status() + " where " + status + " was expected: "
                        + a.body().substring(0, Math.min(a.body().length(), 200)));
    }

    /** Null when {@code answer} came within {@code timeout} and {@code check} found nothing wrong, else what happened. */
    private static <T> String await(CompletableFuture<T> answer, Duration timeout, Function<T, String> check) {
        try {
            return check.apply(answer.get(timeout.toMillis(), TimeUnit.MILLISECONDS));
        } catch (TimeoutException e) {
            answer.cancel(true);
            return "no answer within " + timeout.toSeconds() + " s";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        } catch (ExecutionException e) {
            return e.getCause().toString();
        }
    }
}
