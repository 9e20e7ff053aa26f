package io.tablestream.server.warmup;

import io.tablestream.client.LeanTableClient;
import io.tablestream.client.LeanTableClient.BatchOperation;
import io.tablestream.client.TableAccount;
import io.tablestream.client.TableServiceHttp;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
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
 * range queries and now and then a transaction of ten inserts. They write to one scratch table of a
 * scratch account (a random name no configured account has and a random key, both known only in this
 * process), deleted at the end. It is best effort: the first failed request, a request that takes too long, or the time
 * running out ends it, and the instance becomes ready either way.
 */
public final class StartupWarmUp {
    private static final Logger LOG = LoggerFactory.getLogger(StartupWarmUp.class);
    /** The scratch table's name in the scratch account. */
    static final String TABLE = "WarmUp";
    /** The PartitionKey of the single writes; transactions write to their own. */
    static final String PARTITION = "p";
    /** A transaction every this many rounds of a worker. */
    static final int TRANSACTION_EVERY = 10;
    static final int TRANSACTION_SIZE = 10;
    /** How long the scratch table's creation and deletion may take beyond the warm-up's own time. */
    private static final Duration SETUP_TIMEOUT = Duration.ofSeconds(10);
    private static final SecureRandom RANDOM = new SecureRandom();

    private final String account;
    private final String key;

    private StartupWarmUp(String account, String key) {
        this.account = account;
        this.key = key;
    }

    /** A scratch account: a random name none of {@code taken} has (a valid account name) and a random key. */
    public static StartupWarmUp scratchAccount(Set<String> taken) {
        String name;
        do {
            name = "warmup" + Long.toString(RANDOM.nextLong() & Long.MAX_VALUE, 36);
        } while (taken.contains(name));
        byte[] key = new byte[32];
        RANDOM.nextBytes(key);
        return new StartupWarmUp(name.length() > 24 ? name.substring(0, 24) : name,
                Base64.getEncoder().encodeToString(key));
    }

    /** The scratch account's name (3 to 24 lower-case letters and digits). */
    public String account() {
        return account;
    }

    /** The scratch account's key, base64. */
    public String key() {
        return key;
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
            String created = await(client.createTable(TABLE), SETUP_TIMEOUT, 204);
            if (created != null) {
                ended = "stopped: the scratch table was not created (" + created + ")";
            } else {
                ended = warmUp(client, begin + budget.toNanos(), writes, reads);
                String deleted = await(client.deleteRaw("Tables('" + TABLE + "')"), SETUP_TIMEOUT, 204);
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
     * Rounds one request at a time until {@code deadline} (nanoTime) or the first failure; why they
     * ended. One at a time, as a sequential client sends them: load with many requests in flight
     * did not make a young server's sequential writes faster (docs/performance.md).
     */
    private static String warmUp(LeanTableClient client, long deadline, AtomicInteger writes, AtomicInteger reads) {
        for (int round = 0; System.nanoTime() < deadline; round++) {
            String failed = round(client, PARTITION, round, deadline, writes, reads);
            if (failed != null) {
                return "stopped early: " + failed;
            }
            if (Thread.currentThread().isInterrupted()) {
                return "stopped early: interrupted";
            }
        }
        return "its time was up";
    }

    /** One round on {@code partition}: null when every answer was the expected one, else what failed. */
    private static String round(LeanTableClient client, String partition, int round, long deadline,
                                AtomicInteger writes, AtomicInteger reads) {
        Duration left = Duration.ofNanos(Math.max(0, deadline - System.nanoTime())).plusSeconds(5);
        String rowKey = String.format("%08d", round);
        Map<String, Object> entity = entity(round);
        String failed = await(client.insert(TABLE, partition, rowKey, entity, false), left, 204);
        if (failed == null) {
            writes.incrementAndGet();
            entity.put("Count", round + 1);
            failed = await(client.upsert(TABLE, partition, rowKey, entity), left, 204);
        }
        if (failed == null) {
            writes.incrementAndGet();
            failed = await(client.merge(TABLE, partition, rowKey, "*", Map.of("Note", "merged " + round)), left, 204);
        }
        if (failed == null) {
            writes.incrementAndGet();
            failed = await(client.get(TABLE, partition, rowKey), left, 200);
        }
        if (failed == null) {
            reads.incrementAndGet();
            failed = await(client.query(TABLE, "PartitionKey eq '" + partition + "' and RowKey ge '"
                    + String.format("%08d", Math.max(0, round - 5)) + "' and RowKey le '" + rowKey + "'"), left, 200);
        }
        if (failed == null) {
            reads.incrementAndGet();
            if (round % TRANSACTION_EVERY == TRANSACTION_EVERY - 1) {
                List<BatchOperation> inserts = new ArrayList<>();
                for (int i = 0; i < TRANSACTION_SIZE; i++) {
                    inserts.add(BatchOperation.insert(rowKey + "-" + i, entity(round)));
                }
                failed = await(client.batch(TABLE, partition + "-t", inserts), left,
                        b -> b.succeeded() ? null : "a transaction answered " + b.status());
                if (failed == null) {
                    writes.addAndGet(TRANSACTION_SIZE);
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
