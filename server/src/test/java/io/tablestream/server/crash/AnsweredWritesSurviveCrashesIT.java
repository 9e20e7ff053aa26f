package io.tablestream.server.crash;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablestream.client.LeanTableClient;
import io.tablestream.client.LeanTableClient.Answer;
import io.tablestream.client.LeanTableClient.BatchAnswer;
import io.tablestream.client.LeanTableClient.BatchOperation;
import io.tablestream.core.command.EntityChange;
import io.tablestream.server.ChangeFeedRecords;
import io.tablestream.server.ServerSettings;
import io.tablestream.server.TablestreamServerExtension;
import io.tablestream.server.process.ServerProcess;
import io.tablestream.server.process.ServerProcessLogs;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes are answered as soon as they are decided, before their transaction commits; what a client
 * was answered must survive whatever happens next. Writers keep sync single writes (inserts,
 * conditional merges, upserts, refused duplicate inserts) and change sets going, over raw HTTP, while
 * the server is killed ({@code kill -9}) and restarted, or one of its stream threads dies alone (an
 * injected fault; the thread is replaced and replays its tasks' uncommitted commands). Afterwards:
 * <ul>
 *   <li>every answered write reads back with exactly the ETag and Timestamp it was answered with
 *       (and a conditional merge on the last answered ETag never fails on the way);</li>
 *   <li>the change feed (read committed) holds exactly one event per answered change, carrying the
 *       answered Timestamp, and none for a refused write;</li>
 *   <li>a change set whose answer was lost in a crash is applied whole or not at all.</li>
 * </ul>
 * Rounds (alternately a kill of the process and of a stream thread) are settable with
 * {@code -Dtablestream.crash.rounds=N} (default 4: two kills of the process, two of a stream thread; a restart
 * under the writers took 16-33 s in a full-suite run on two cores) for longer runs.
 */
@ExtendWith(ServerProcessLogs.class)
class AnsweredWritesSurviveCrashesIT {
    private static final Logger LOG = LoggerFactory.getLogger(AnsweredWritesSurviveCrashesIT.class);
    private static final int ROUNDS = Integer.getInteger("tablestream.crash.rounds", 4);
    private static final int WRITERS = Integer.getInteger("tablestream.crash.writers", 6);
    private static final String TABLE = "Crashes";
    private static final int BATCH = 10;
    private static final Duration START = Duration.ofMinutes(3);
    private static final Pattern BROKER = Pattern.compile("Embedded Kafka broker running at (\\S+)");
    private static final Pattern BODY_TIMESTAMP = Pattern.compile("\"Timestamp\":\"([^\"]+)\"");

    @TempDir
    Path dataDir;

    /** An entity of the test's table. */
    private record Key(String partitionKey, String rowKey) {
    }

    /** What became of the writes to one entity, from its one writer's view. */
    private static final class Writes {
        final List<String> answered = new ArrayList<>(); // ETags of the answered successes, in order
        volatile boolean unknown; // a write whose answer never came: it may or may not have applied
    }

    /** A change set whose answer never came. */
    private record LostBatch(String partitionKey, List<String> rowKeys) {
    }

    private final Map<Key, Writes> ledger = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<LostBatch> lostBatches = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean stop = new AtomicBoolean();

    @Test
    void everyAnsweredWriteSurvivesKillsOfTheProcessAndOfAStreamThread() throws Exception {
        ServerProcess.Builder builder = ServerProcess.builder(dataDir).mainClass(FaultInjectingMain.class)
                .with(ServerSettings.PORT, freePort()).with(ServerSettings.PARTITIONS, 4);
        ServerProcess server = builder.start();
        try {
            server.awaitServing(START);
            String sas = LeanTableClient.accountSas(server.endpoint(), "devstoreaccount1",
                    io.tablestream.core.model.EmulatorAccount.KEY);
            LeanTableClient client = new LeanTableClient(server.endpoint(), sas);
            assertThat(client.createTable(TABLE).get(60, TimeUnit.SECONDS).status()).isEqualTo(204);

            List<Thread> writers = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                Thread t = new Thread(new Writer(w, client), "writer-" + w);
                t.start();
                writers.add(t);
            }
            Random chaos = new Random(42);
            int threadKills = 0;
            for (int round = 1; round <= ROUNDS; round++) {
                Thread.sleep(2000 + chaos.nextInt(2000));
                if (round % 2 == 1) {
                    LOG.info("Round {}: kill -9 of the server", round);
                    server.kill();
                    server = builder.start();
                    server.awaitServing(START);
                    LOG.info("Round {}: serving again after {} ms", round, server.startedIn().toMillis());
                } else {
                    LOG.info("Round {}: a stream thread dies", round);
                    threadKills++;
                    String rk = FaultInjectingMain.KILL_PREFIX + round;
                    write(new Key("kill", rk), () -> client.insert(TABLE, "kill", rk, Map.of("N", 1), false));
                }
            }
            Thread.sleep(2000);
            stop.set(true);
            for (Thread t : writers) {
                t.join(TimeUnit.MINUTES.toMillis(2));
            }

            assertThat(violations).as("answers that contradict an earlier answer").isEmpty();
            long answered = ledger.values().stream().mapToLong(w -> w.answered.size()).sum();
            long unknown = ledger.values().stream().filter(w -> w.unknown).count();
            LOG.info("{} answered writes to {} entities; {} entities with a write whose answer was lost; {} lost batches",
                    answered, ledger.size(), unknown, lostBatches.size());
            assertThat(answered).as("writes answered across the crashes").isGreaterThan(200);
            assertThat(server.linesContaining("A stream thread failed; replacing it"))
                    .as("stream threads that died and were replaced").hasSizeGreaterThanOrEqualTo(threadKills);

            everyAnsweredWriteReadsBackAsAnswered(client);
            lostBatchesAreAllOrNothing(client);
            theChangeFeedHoldsEachAnsweredChangeOnce(server);
        } finally {
            stop.set(true);
            server.close();
        }
    }

    private void everyAnsweredWriteReadsBackAsAnswered(LeanTableClient client) throws Exception {
        for (Map.Entry<Key, Writes> e : ledger.entrySet()) {
            Writes w = e.getValue();
            if (w.unknown || w.answered.isEmpty()) {
                continue;
            }
            Answer read = readWithRetry(client, e.getKey());
            String last = w.answered.get(w.answered.size() - 1);
            assertThat(read.status()).as("%s, answered %s", e.getKey(), last).isEqualTo(200);
            assertThat(read.etag()).as("ETag of %s", e.getKey()).isEqualTo(last);
            assertThat(bodyTimestamp(read.body())).as("Timestamp of %s", e.getKey()).isEqualTo(timestampOf(last));
        }
    }

    private void lostBatchesAreAllOrNothing(LeanTableClient client) throws Exception {
        for (LostBatch b : lostBatches) {
            List<Integer> statuses = new ArrayList<>();
            for (String rk : b.rowKeys()) {
                statuses.add(readWithRetry(client, new Key(b.partitionKey(), rk)).status());
            }
            assertThat(statuses.stream().distinct().toList()).as("entities of the lost change set %s: %s", b.partitionKey(),
                    statuses).isIn(List.of(200), List.of(404));
        }
    }

    private void theChangeFeedHoldsEachAnsweredChangeOnce(ServerProcess server) {
        Map<Key, List<String>> feed = changeFeed(server);
        for (Map.Entry<Key, Writes> e : ledger.entrySet()) {
            List<String> events = feed.getOrDefault(e.getKey(), List.of());
            assertThat(events).as("change events of %s", e.getKey()).doesNotHaveDuplicates();
            if (e.getValue().unknown) {
                assertThat(events).as("change events of %s (a write's answer was lost)", e.getKey())
                        .containsAll(e.getValue().answered);
            } else {
                assertThat(events).as("change events of %s", e.getKey())
                        .containsExactlyElementsOf(e.getValue().answered);
            }
        }
        assertThat(ledger.keySet()).as("every entity in the change feed was written by the test")
                .containsAll(feed.keySet());
    }

    /** The table's change events read committed, per entity, as the ETags of the versions they wrote. */
    private Map<Key, List<String>> changeFeed(ServerProcess server) {
        String bootstrap = server.linesContaining("Embedded Kafka broker running at").stream()
                .map(BROKER::matcher).filter(Matcher::find).map(m -> m.group(1)).reduce((a, b) -> b).orElseThrow();
        Map<Key, List<String>> feed = new LinkedHashMap<>();
        for (ChangeFeedRecords.Change c : ChangeFeedRecords.read(bootstrap, "tablestream.changes", TABLE,
                Duration.ofSeconds(60))) {
            assertThat(c.type()).as("change of %s", c.key()).isNotIn(EntityChange.Type.DELETED, EntityChange.Type.EXPIRED);
            feed.computeIfAbsent(new Key(c.partitionKey(), c.rowKey()), k -> new ArrayList<>()).add(c.etag());
        }
        return feed;
    }

    /** Sends one single write of {@code key}, expecting success, and books what came of it. */
    private void write(Key key, java.util.function.Supplier<java.util.concurrent.CompletableFuture<Answer>> send) {
        Writes w = ledger.computeIfAbsent(key, k -> new Writes());
        Answer a = answer(send);
        if (a == null || a.status() >= 500) {
            w.unknown = true;
        } else if (a.succeeded() && a.etag() != null) {
            w.answered.add(a.etag());
            if (a.status() == 201 && !timestampOf(a.etag()).equals(bodyTimestamp(a.body()))) {
                violations.add(key + " answered ETag " + a.etag() + " with a body of another Timestamp: " + a.body());
            }
        } else {
            violations.add(key + " answered " + a.status() + ": " + a.body());
        }
    }

    /** The answer, or null when none came (connection refused or cut, timed out). */
    private static <T> T answer(java.util.function.Supplier<java.util.concurrent.CompletableFuture<T>> send) {
        try {
            return send.get().get(40, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private static Answer readWithRetry(LeanTableClient client, Key key) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (true) {
            Answer a = answer(() -> client.get(TABLE, key.partitionKey(), key.rowKey()));
            if (a != null && a.status() < 500) {
                return a;
            }
            assertThat(System.nanoTime()).as("reading %s back (last: %s)", key, a).isLessThan(deadline);
            LOG.info("Reading {} back answered {}; again in a moment", key, a); // a 503 says which wait refused it
            Thread.sleep(200);
        }
    }

    /** The Timestamp an ETag {@code W/"datetime'...'"} stands for, as ISO 8601. */
    private static String timestampOf(String etag) {
        int from = etag.indexOf("datetime'") + "datetime'".length();
        return etag.substring(from, etag.indexOf('\'', from)).replace("%3A", ":");
    }

    private static String bodyTimestamp(String body) {
        Matcher m = BODY_TIMESTAMP.matcher(body == null ? "" : body);
        return m.find() ? m.group(1) : "none in " + body;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** One client's writes on entities only it writes, so it knows what each should hold. */
    private final class Writer implements Runnable {
        private final String partitionKey;
        private final LeanTableClient client;
        private final Random random;
        private final List<String> owned = new ArrayList<>();
        private long sequence;

        Writer(int id, LeanTableClient client) {
            this.partitionKey = "w" + id;
            this.client = client;
            this.random = new Random(id);
        }

        @Override
        public void run() {
            while (!stop.get()) {
                double r = random.nextDouble();
                if (owned.isEmpty() || r < 0.35) {
                    insert();
                } else if (r < 0.55) {
                    conditionalMerge(owned.get(random.nextInt(owned.size())));
                } else if (r < 0.65) {
                    upsert(owned.get(random.nextInt(owned.size())));
                } else if (r < 0.70) {
                    duplicateInsert(owned.get(random.nextInt(owned.size())));
                } else {
                    batch();
                }
            }
        }

        private Writes of(String rowKey) {
            return ledger.computeIfAbsent(new Key(partitionKey, rowKey), k -> new Writes());
        }

        private void booked(String rowKey) {
            Writes w = of(rowKey);
            if (w.unknown) {
                owned.remove(rowKey); // what it holds is no longer known: write it no more
                pause();
            } else if (!owned.contains(rowKey) && !w.answered.isEmpty()) {
                owned.add(rowKey);
            }
        }

        private void insert() {
            String rk = "s" + sequence++;
            boolean content = random.nextBoolean();
            write(new Key(partitionKey, rk), () -> client.insert(TABLE, partitionKey, rk, Map.of("N", 0), content));
            booked(rk);
        }

        private void conditionalMerge(String rk) {
            Writes w = of(rk);
            String etag = w.answered.get(w.answered.size() - 1);
            write(new Key(partitionKey, rk), () -> client.merge(TABLE, partitionKey, rk, etag,
                    Map.of("M", random.nextInt(1000))));
            booked(rk);
        }

        private void upsert(String rk) {
            write(new Key(partitionKey, rk), () -> client.upsert(TABLE, partitionKey, rk,
                    Map.of("U", random.nextInt(1000))));
            booked(rk);
        }

        /** Refused (409) whatever happens: the entity exists and only this writer writes it. */
        private void duplicateInsert(String rk) {
            Answer a = answer(() -> client.insert(TABLE, partitionKey, rk, Map.of("N", -1), false));
            if (a == null || a.status() >= 500) {
                pause();
            } else if (a.status() != 409) {
                violations.add(partitionKey + "/" + rk + ": a duplicate insert answered " + a.status());
            }
        }

        private void batch() {
            String pk = partitionKey + "-b" + sequence++;
            List<String> rowKeys = new ArrayList<>();
            List<BatchOperation> ops = new ArrayList<>();
            for (int i = 0; i < BATCH; i++) {
                rowKeys.add("r" + i);
                ops.add(BatchOperation.insert("r" + i, Map.of("N", i)));
            }
            BatchAnswer a = answer(() -> client.batch(TABLE, pk, ops));
            if (a == null || a.status() >= 500) {
                lostBatches.add(new LostBatch(pk, rowKeys));
                for (String rk : rowKeys) {
                    ledger.computeIfAbsent(new Key(pk, rk), k -> new Writes()).unknown = true;
                }
                pause();
            } else if (!a.succeeded() || a.operations().size() != BATCH
                    || a.operations().stream().anyMatch(o -> o.etag() == null)) {
                violations.add(pk + ": a change set of new entities answered " + a.status() + " " + a.operations());
            } else {
                for (int i = 0; i < BATCH; i++) {
                    ledger.computeIfAbsent(new Key(pk, rowKeys.get(i)), k -> new Writes()).answered
                            .add(a.operations().get(i).etag());
                }
            }
        }

        private void pause() {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
