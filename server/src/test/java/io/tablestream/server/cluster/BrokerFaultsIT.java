package io.tablestream.server.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.core.exception.HttpResponseException;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.ListTablesOptions;
import com.azure.data.tables.models.TableEntity;
import io.tablestream.server.ChangeFeedRecords;
import io.tablestream.server.RawTableClient;
import io.tablestream.server.ServerConfig;
import io.tablestream.server.ServerSettings;
import io.tablestream.server.TableNames;
import io.tablestream.server.TablestreamServer;
import io.tablestream.server.process.ServerProcessLogs;
import io.tablestream.testsupport.BrokerCluster;
import io.tablestream.testsupport.NetworkNamespace;
import io.tablestream.testsupport.TestDirectories;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Faults of a real three-broker Kafka cluster under three Tablestream instances (each with a standby
 * of the others' partitions), while a {@link FaultLoad} writes — sync, {@code respond-async} and
 * entity group transactions — and reads through every instance with the official SDK:
 * {@code kill -9} of the broker leading most command-log partitions, of the broker coordinating most
 * of the processors' transactions, of the active controller (each then restarted on its data),
 * {@code SIGSTOP} for 30 s of the active controller given every role that costs (coordinator of every
 * processor's transaction and of their group, leader of most of the command log), and one instance cut off from every
 * broker while its clients still reach it (in a network namespace; skipped, saying why, where one
 * cannot be made). Afterwards no acknowledged write is lost or changed (status, ETag, Timestamp as
 * answered), no transaction is partly applied and the change feed holds each applied change once.
 * Each fault's figures are logged ({@code Fault:} lines, in
 * {@code target/failsafe-reports/*BrokerFaultsIT-output.txt}).
 *
 * <p>By default (the build's own run) the rounds are bounded to what a minute buys: one instance
 * under load, the quiet log, {@code kill -9} of the broker leading most of the command log, and the
 * check of every answer (no repair, no other fault). {@code -Dfaults.full=true} runs all of the
 * above on three instances, {@code -Dfaults.rounds=N} repeats each broker fault N times (default 1),
 * {@code -Dfaults.strict=true} asserts the 10 s target for writes to be accepted again after a
 * broker failure instead of the looser bound a busy two-core machine meets.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 5, unit = TimeUnit.MINUTES)
@ExtendWith(ServerProcessLogs.class)
class BrokerFaultsIT {
    private static final Logger LOG = LoggerFactory.getLogger(BrokerFaultsIT.class);
    private static final boolean FULL = Boolean.getBoolean("faults.full");
    private static final int ROUNDS = Integer.getInteger("faults.rounds", 1);
    private static final String ONLY_FULL = "bounded run: this fault runs with -Dfaults.full=true";
    private static final boolean STRICT = Boolean.getBoolean("faults.strict");
    /** Writes accepted again after a broker failure within this (the target is 10 s). */
    private static final Duration WRITES_BACK = Duration.ofSeconds(STRICT ? 10 : 20);
    /** An operation slower than this counts as not served. */
    private static final Duration SLOW = Duration.ofSeconds(2);
    /** How long a fault is watched before the broker is repaired. */
    private static final Duration OBSERVED = Duration.ofSeconds(12);
    /**
     * How long the last accepted writes may take to be applied and committed, and so to reach the
     * table and the change feed.
     */
    private static final Duration SETTLED = Duration.ofSeconds(30);
    /** In a bounded run, a broker failure is watched at least this long (the slowest write is seen end). */
    private static final Duration WATCHED_AT_LEAST = Duration.ofSeconds(7);
    /** In a bounded run, writes are back after this long without a failed or slow one. */
    private static final Duration QUIET_AFTER = Duration.ofSeconds(3);
    private static final Duration PAUSED = Duration.ofSeconds(30);
    private static final String COMMANDS = "tablestream.commands";
    /** The processors' group, and the prefix of their transactional ids. */
    private static final String PROCESSORS = "tablestream-processor";
    /** The command-log partitions the stopped broker leads: most of them. */
    private static final int MOST_COMMAND_PARTITIONS = ThreeBrokerCluster.PARTITIONS / 2 + 1;
    private static final Duration CUT = Duration.ofSeconds(20);
    /** write-timeout-ms, the server's default. */
    private static final Duration WRITE_TIMEOUT = Duration.ofSeconds(10);
    /**
     * How stale a read may be (docs/failures.md): a standby serves reads on a lag measured at most
     * four refreshes (4 × 250 ms) ago, which may miss writes answered since; plus the measurement's
     * own time on a busy machine.
     */
    private static final Duration STALENESS_BOUND = Duration.ofSeconds(2);

    private NetworkNamespace namespace;
    private String noNamespace;
    private ThreeBrokerCluster cluster;
    private BrokerCluster kafka;
    private String table;
    private FaultLoad load;
    private final List<String> report = new ArrayList<>();

    @BeforeAll
    @Timeout(value = 6, unit = TimeUnit.MINUTES)
    void startThreeBrokersThreeInstancesAndTheLoad() {
        if (FULL) {
            try {
                namespace = NetworkNamespace.create();
            } catch (NetworkNamespace.Unavailable e) {
                noNamespace = e.getMessage();
                LOG.warn("No network namespace, so no instance is cut off from the brokers: {}", noNamespace);
            }
        } else {
            noNamespace = ONLY_FULL;
        }
        cluster = ThreeBrokerCluster.start(Optional.ofNullable(namespace), FULL ? 3 : 1, builder -> { });
        kafka = cluster.kafka();
        table = TableNames.unique("Faults");
        cluster.instance(1).client().createTable(table);
        for (ThreeBrokerCluster.Instance i : cluster.instances()) {
            await(() -> i.client().listTables(new ListTablesOptions().setFilter("TableName eq '" + table + "'"), null, null)
                    .stream().findAny().isPresent(), Duration.ofSeconds(30), table + " visible via " + i);
        }
        load = FaultLoad.start(cluster.instances(), table);
        sleep(Duration.ofSeconds(FULL ? 5 : 2));
    }

    @AfterAll
    void stopEverything() {
        try {
            if (load != null) {
                load.close();
            }
        } finally {
            try {
                if (cluster != null) {
                    cluster.close();
                }
            } finally {
                if (namespace != null) {
                    namespace.close();
                }
            }
            report.forEach(line -> LOG.info("Fault: {}", line));
        }
    }

    @Test
    @Order(0)
    void anInstanceGivenOneBrokersAddressLearnsTheClusterHasThreeAndItsClientsFailOver() throws Exception {
        // first, while every broker runs: the instance's topics are replicated three times
        String oneAddress = kafka.brokers().get(0).address();
        Path dataDir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "one-address");
        ServerConfig config = ServerConfig.of(Map.of(
                ServerSettings.PORT, 0,
                ServerSettings.DATA_DIR, dataDir,
                ServerSettings.KAFKA_BOOTSTRAP_SERVERS, oneAddress,
                ServerSettings.TOPIC_PREFIX, "one-address",
                ServerSettings.PARTITIONS, 1,
                ServerSettings.STREAM_THREADS, 1));
        assertThat(config.kafkaClients()).as("before the start: one address, so Kafka's own settings")
                .doesNotContainKey("request.timeout.ms");
        try (TablestreamServer server = TablestreamServer.start(config)) {
            assertThat(config.kafkaClients()).as("the settings every client of the instance got")
                    .containsEntry("request.timeout.ms", "2000")
                    .containsEntry("metadata.max.age.ms", "3000")
                    .containsEntry("reconnect.backoff.max.ms", "1000");
            RawTableClient.Response created = new RawTableClient(server.port()).send("POST", "Tables",
                    "{\"TableName\":\"" + TableNames.unique("OneAddress") + "\"}");
            assertThat(created.status()).as("a table created through it").isEqualTo(201);
        } finally {
            TestDirectories.delete(dataDir);
        }
    }

    @Test
    @Order(1)
    void aHealthyClusterUnderLoadLogsNoWarningOrError() {
        Map<Path, Integer> marks = logLengths();
        long begin = System.nanoTime();
        Duration watched = Duration.ofSeconds(FULL ? 15 : 6);
        sleep(watched);
        long writes = load.log().ops().stream().filter(op -> op.startNanos() >= begin && op.ok()).count();
        List<String> lines = linesSince(marks, " WARN | ERROR ");
        report.add("healthy, " + watched.toSeconds() + " s under load (" + writes + " operations succeeded): " + lines.size()
                + " WARN/ERROR lines" + (lines.isEmpty() ? "" : ": " + lines));
        assertThat(writes).as("operations under load").isGreaterThan(FULL ? 50 : 15);
        assertThat(lines).as("WARN and ERROR lines of brokers and instances in a healthy run under load").isEmpty();
    }

    @Test
    @Order(2)
    void killOfTheBrokerLeadingTheCommandLog() {
        for (int round = 1; round <= ROUNDS; round++) {
            BrokerCluster.Broker victim = kafka.leadershipsOf(COMMANDS).entrySet().stream()
                    .max(Map.Entry.comparingByValue()).orElseThrow().getKey();
            int led = kafka.leadershipsOf(COMMANDS).get(victim);
            brokerFails("kill -9 of " + victim + ", leader of " + led + " of the command log's "
                    + ThreeBrokerCluster.PARTITIONS + " partitions" + roles(victim), victim, victim::kill, true);
        }
    }

    @Test
    @Order(3)
    void killOfTheBrokerCoordinatingTheProcessorsTransactions() {
        Assumptions.assumeTrue(FULL, ONLY_FULL);
        for (int round = 1; round <= ROUNDS; round++) {
            Map<BrokerCluster.Broker, Integer> coordinated = new HashMap<>();
            for (String id : kafka.transactionalIds(PROCESSORS)) {
                coordinated.merge(kafka.transactionCoordinatorOf(id), 1, Integer::sum);
            }
            assertThat(coordinated).as("the processors' transactions").isNotEmpty();
            BrokerCluster.Broker victim = coordinated.entrySet().stream().max(Map.Entry.comparingByValue())
                    .orElseThrow().getKey();
            brokerFails("kill -9 of " + victim + ", coordinator of " + coordinated.get(victim) + " of the processors' "
                    + coordinated.values().stream().mapToInt(Integer::intValue).sum() + " transactional ids", victim,
                    victim::kill, true);
        }
    }

    @Test
    @Order(4)
    void killOfTheActiveController() {
        Assumptions.assumeTrue(FULL, ONLY_FULL);
        for (int round = 1; round <= ROUNDS; round++) {
            BrokerCluster.Broker victim = kafka.activeController();
            brokerFails("kill -9 of " + victim + ", the active controller", victim, victim::kill, true);
        }
    }

    @Test
    @Order(5)
    void aBrokerStoppedFor30Seconds() {
        Assumptions.assumeTrue(FULL, ONLY_FULL);
        for (int round = 1; round <= ROUNDS; round++) {
            BrokerCluster.Broker victim = givenTheWorstRoles();
            brokerFails("SIGSTOP of " + victim + " for " + PAUSED.toSeconds() + " s (" + rolesOf(victim) + ")", victim,
                    victim::pause, false);
        }
    }

    @Test
    @Order(6)
    void anInstanceCutOffFromEveryBrokerAnswers503ServesNoStaleReadAndServesAgainByItselfOnceHealed() {
        Assumptions.assumeTrue(namespace != null, () -> "No instance is cut off from the brokers: " + noNamespace);
        ThreeBrokerCluster.Instance cut = cluster.instance(3);
        List<ThreeBrokerCluster.Instance> others = List.of(cluster.instance(1), cluster.instance(2));
        long pid = cut.process.pid();
        // on a settled cluster: the previous fault's aftermath (a rebalance, say) is that fault's figure
        await(() -> writesBack(System.nanoTime() - QUIET_AFTER.plusSeconds(1).toNanos()), Duration.ofMinutes(1),
                "writes through every instance undisturbed before the cut");
        long begin = System.nanoTime();
        namespace.cutFromBrokers();
        sleep(CUT);
        long healed = System.nanoTime();
        namespace.heal();
        Duration writesBack = awaitSuccess("write@" + cut.id, healed, Duration.ofMinutes(2));
        Duration readsBack = awaitSuccess("read@" + cut.id, healed, Duration.ofMinutes(2));
        sleep(Duration.ofSeconds(3));

        List<OpLog.Op> cutWrites = load.log().ops().stream()
                .filter(op -> op.kind().startsWith("write@" + cut.id) || op.kind().startsWith("tx@" + cut.id)
                        || op.kind().startsWith("async@" + cut.id))
                .filter(op -> op.startNanos() >= begin && op.endNanos() <= healed).toList();
        long longestWrite = cutWrites.stream().mapToLong(OpLog.Op::millis).max().orElse(0);
        List<OpLog.Op> cutReads = load.log().ops().stream().filter(op -> op.kind().equals("read@" + cut.id))
                .filter(op -> op.startNanos() >= begin && op.endNanos() <= healed).toList();
        List<FaultLoad.StaleRead> stale = load.staleReads.stream().filter(r -> r.via().equals(cut.id)).toList();
        Duration stalest = stale.stream().map(FaultLoad.StaleRead::staleness).max(Comparator.naturalOrder())
                .orElse(Duration.ZERO);
        // Two figures: while the cut lasts (its partitions move to the others), and while the healed
        // instance rejoins the group (a rebalance); one "end of the last slow write" would span both.
        Duration othersWrites = load.writesDisruptedFor(others, begin, healed, SLOW);
        Duration othersLongestAfterHeal = load.longestWrite(others, healed);
        List<OpLog.Op> othersFailures = load.log().failures(begin).stream()
                .filter(op -> FaultLoad.isWriteThrough(op, others)).toList();
        String othersSlowest = load.log().slowest(begin - Duration.ofSeconds(2).toNanos(), 3,
                op -> FaultLoad.isWriteThrough(op, others));
        report.add(cut.id + " cut off from every broker for " + CUT.toSeconds() + " s: its " + cutWrites.size()
                + " writes answered " + OpLog.summary(cutWrites.stream().filter(op -> !op.ok()).toList())
                + " (" + cutWrites.stream().filter(OpLog.Op::ok).count() + " succeeded), the longest in " + longestWrite
                + " ms; its " + cutReads.size() + " reads: " + cutReads.stream().filter(OpLog.Op::ok).count()
                + " served, " + stale.size() + " stale (the stalest by " + stalest.toMillis() + " ms), failures "
                + OpLog.summary(cutReads.stream().filter(op -> !op.ok()).toList()) + "; writes through the others"
                + " disrupted " + othersWrites.toMillis() + " ms (slowest " + othersSlowest + ", failures "
                + OpLog.summary(othersFailures) + "), the longest of their writes after the cut healed " + othersLongestAfterHeal.toMillis()
                + " ms; after the cut healed it took writes again after "
                + writesBack.toMillis() + " ms and served reads after " + readsBack.toMillis() + " ms, same process");
        assertThat(cut.process.isAlive()).as(cut.id + " still runs").isTrue();
        assertThat(cut.process.pid()).as(cut.id + " was not restarted").isEqualTo(pid);
        assertThat(cutWrites).as("writes through the cut instance answer 503 (or were answered before the cut took hold)")
                .allSatisfy(op -> assertThat(op.ok() || op.error().startsWith("503")).as(op.toString()).isTrue());
        assertThat(longestWrite).as("the longest write through the cut instance, ms")
                .isLessThanOrEqualTo(WRITE_TIMEOUT.plusSeconds(2).toMillis());
        assertThat(stalest).as("the stalest read the cut instance served").isLessThanOrEqualTo(STALENESS_BOUND);
        assertThat(othersWrites).as("writes through the other instances disrupted").isLessThanOrEqualTo(WRITES_BACK);
        assertThat(othersLongestAfterHeal).as("the longest write through the other instances while the cut one rejoined")
                .isLessThanOrEqualTo(WRITES_BACK);
    }

    @Test
    @Order(7)
    void noAcknowledgedWriteIsLostOrChangedNoTransactionPartlyAppliedEachChangeOnceInTheFeed() {
        load.close();
        TableClient reader = cluster.instance(1).client().getTableClient(table);
        // The last writes were answered before their transactions committed, and the change feed shows
        // committed changes only; a 202 (respond-async) promises only that the insert is in the log, to
        // be applied later. So the table and the feed are read again until the table holds every
        // accepted write and the feed every answered change (or, at the deadline, what is missing,
        // changed or doubled is reported).
        long deadline = System.nanoTime() + SETTLED.toNanos();
        Map<String, TableEntity> all;
        List<ChangeFeedRecords.Change> feed;
        FaultLoad.Verdict verdict;
        while (true) {
            all = awaitAnswer(() -> FaultLoad.byKey(reader.listEntities()), Duration.ofMinutes(1));
            feed = ChangeFeedRecords.read(kafka.bootstrapServers(), "tablestream.changes", table, Duration.ofMinutes(1));
            verdict = load.verify(all, feed);
            if ((verdict.feedNotOnce().isEmpty() && verdict.lost().isEmpty()) || System.nanoTime() > deadline) {
                break;
            }
            sleep(Duration.ofMillis(500));
        }
        report.add("checked " + verdict.answeredWrites() + " acknowledged sync writes on " + verdict.answeredEntities()
                + " entities (status, ETag, Timestamp), " + verdict.transactedRows() + " rows of acknowledged transactions, "
                + verdict.asyncAccepted() + " async inserts (202), "
                + verdict.unknownTransactionsChecked() + " transactions whose answer was lost, " + feed.size()
                + " change events: lost " + verdict.lost().size() + ", changed " + verdict.changed().size()
                + ", partly applied " + verdict.partlyApplied().size() + ", not once in the feed "
                + verdict.feedNotOnce().size() + "; stale reads " + load.staleReads + ", contradictions "
                + load.violations.size());
        assertThat(verdict.lost()).as("acknowledged writes lost").isEmpty();
        assertThat(verdict.changed()).as("acknowledged writes read back otherwise than answered").isEmpty();
        assertThat(verdict.partlyApplied()).as("transactions partly applied").isEmpty();
        assertThat(verdict.feedNotOnce()).as("changes not exactly once in the change feed").isEmpty();
        assertThat(load.violations).as("answers contradicting earlier ones").isEmpty();
        assertThat(load.staleReads).as("reads older than an answered write (beyond the cut instance's bound)")
                .allSatisfy(r -> assertThat(r.staleness()).as(r.toString()).isLessThanOrEqualTo(STALENESS_BOUND));
        if (FULL) {
            assertThat(verdict.answeredWrites()).as("acknowledged sync writes checked").isGreaterThan(100);
        } else {
            assertThat(verdict.answeredWrites() + verdict.transactedRows() + verdict.asyncAccepted())
                    .as("acknowledged writes checked (sync, rows of transactions, async)").isGreaterThan(50);
        }
    }

    // ------------------------------------------------------------------ one fault

    /**
     * Inflicts {@code fault} on {@code victim} under load, watches the writes through every instance
     * come back, repairs it (restarts it on its data after a kill, resumes it after a pause), waits
     * until every partition is fully replicated again, and reports.
     */
    private void brokerFails(String what, BrokerCluster.Broker victim, Runnable fault, boolean killed) {
        List<ThreeBrokerCluster.Instance> all = cluster.instances();
        long begin = System.nanoTime();
        fault.run();
        watch(begin, killed ? OBSERVED : PAUSED);
        Duration writes = load.writesDisruptedFor(all, begin, SLOW);
        Duration reads = load.readsDisruptedFor(all, begin, SLOW);
        List<OpLog.Op> failures = load.log().failures(begin);
        String slowest = load.log().slowest(begin - Duration.ofSeconds(2).toNanos(), 3);

        String figures = what + ": writes accepted again after " + writes.toMillis() + " ms, reads disrupted "
                + reads.toMillis() + " ms, slowest " + slowest + ", failures " + OpLog.summary(failures);
        if (!FULL) {
            // bounded run: the check of every answer follows with two brokers of three (min ISR 2 met)
            report.add(figures + "; not repaired (bounded run)");
            assertThat(failures).as("failures after " + what + ": only 503 or a lost answer, never another error")
                    .allSatisfy(op -> assertThat(op.error()).doesNotStartWith("500").doesNotStartWith("4"));
            assertThat(writes).as("writes accepted again after " + what).isLessThanOrEqualTo(WRITES_BACK);
            return;
        }
        long repaired = System.nanoTime();
        if (killed) {
            victim.start();
        } else {
            victim.resume();
        }
        kafka.awaitServing(Duration.ofMinutes(2));
        Duration inSync = kafka.awaitFullyReplicated(topics(), Duration.ofMinutes(2));
        sleep(Duration.ofSeconds(3));
        // While the broker rejoins (a restarted one takes tens of seconds to start on a busy machine)
        // the writes must go on: the longest one since the repair began, not the end of the last slow
        // one (which would count the broker's own start-up as a disruption).
        Duration longestAfterRepair = load.longestWrite(all, repaired);
        List<OpLog.Op> failuresAfterRepair = load.log().failures(repaired);
        report.add(figures + "; " + (killed ? "restarted on its data" : "resumed") + ", every partition in sync again after "
                + Duration.ofNanos(System.nanoTime() - repaired - Duration.ofSeconds(3).toNanos()).toMillis()
                + " ms (" + inSync.toMillis() + " ms of catching up); while it rejoined the longest write took "
                + longestAfterRepair.toMillis() + " ms (slowest " + load.log().slowest(repaired, 3)
                + "), failures " + OpLog.summary(failuresAfterRepair));
        assertThat(failures).as("failures after " + what + ": only 503 or a lost answer, never another error")
                .allSatisfy(op -> assertThat(op.error()).doesNotStartWith("500").doesNotStartWith("4"));
        assertThat(writes).as("writes accepted again after " + what).isLessThanOrEqualTo(WRITES_BACK);
        assertThat(failuresAfterRepair).as("failures after the repair of " + what + ": only 503 or a lost answer")
                .allSatisfy(op -> assertThat(op.error()).doesNotStartWith("500").doesNotStartWith("4"));
        assertThat(longestAfterRepair).as("the longest write after the repair of " + what).isLessThanOrEqualTo(WRITES_BACK);
    }

    /**
     * Watches a fault for {@code atMost} after {@code begin}; in a bounded run, after at least
     * {@link #WATCHED_AT_LEAST}, only until the writes have come back: {@link #QUIET_AFTER} without a
     * failed or slow write, every kind of write through every instance succeeding again since, and
     * none of them waiting on an answer for long.
     */
    private void watch(long begin, Duration atMost) {
        long deadline = begin + atMost.toNanos();
        long earliest = begin + WATCHED_AT_LEAST.toNanos();
        while (System.nanoTime() < deadline) {
            if (!FULL && System.nanoTime() > earliest && writesBack(begin)) {
                return;
            }
            sleep(Duration.ofMillis(200));
        }
    }

    private boolean writesBack(long begin) {
        List<ThreeBrokerCluster.Instance> all = cluster.instances();
        long now = System.nanoTime();
        long disruptedUntil = begin + load.writesDisruptedFor(all, begin, SLOW).toNanos();
        if (now - disruptedUntil < QUIET_AFTER.toNanos()) {
            return false;
        }
        List<OpLog.Op> ops = load.log().ops();
        for (ThreeBrokerCluster.Instance i : all) {
            for (String kind : FaultLoad.WRITE_KINDS) {
                String k = kind + "@" + i.id;
                boolean succeededSince = ops.stream().anyMatch(op -> op.kind().equals(k) && op.ok()
                        && op.startNanos() >= disruptedUntil);
                long lastEnd = ops.stream().filter(op -> op.kind().equals(k)).mapToLong(OpLog.Op::endNanos).max()
                        .orElse(begin);
                if (!succeededSince || now - lastEnd > SLOW.toNanos() / 2) {
                    return false;
                }
            }
        }
        return true;
    }

    /** What else {@code broker} is to the cluster: the active controller, a transaction coordinator. */
    private String roles(BrokerCluster.Broker broker) {
        List<String> roles = new ArrayList<>();
        if (broker.equals(kafka.activeController())) {
            roles.add("the active controller");
        }
        long coordinated = kafka.transactionalIds(PROCESSORS).stream()
                .filter(id -> broker.equals(kafka.transactionCoordinatorOf(id))).count();
        if (coordinated > 0) {
            roles.add("coordinator of " + coordinated + " of the processors' transactional ids");
        }
        return roles.isEmpty() ? "" : " (also " + String.join(", ", roles) + ")";
    }

    /**
     * The broker to stop, given the roles whose loss cost a stopped broker the most (docs/failures.md,
     * "A SIGSTOP: where the seconds go"): the active controller (the other two elect a new one before
     * anything is fenced), which is then given the coordination of every processor's transactional id
     * and of the processors' group, and the leadership of most command-log partitions (its replicas are
     * put first and the preferred leaders elected: nothing is copied). So every run stops a broker with
     * the same roles, whatever the hashes of this run's transactional ids and the faults before made of
     * the cluster. Returns once the writes through every instance have settled again.
     */
    private BrokerCluster.Broker givenTheWorstRoles() {
        await(() -> writesBack(System.nanoTime() - QUIET_AFTER.plusSeconds(1).toNanos()), Duration.ofMinutes(1),
                "writes through every instance undisturbed before the roles move");
        BrokerCluster.Broker victim = kafka.activeController();
        String found = rolesOf(victim);
        List<TopicPartition> moved = new ArrayList<>();
        kafka.transactionalIds(PROCESSORS)
                .forEach(id -> moved.add(kafka.coordinationPartitionOf("__transaction_state", id)));
        moved.add(kafka.coordinationPartitionOf("__consumer_offsets", PROCESSORS));
        int leads = kafka.leadershipsOf(COMMANDS).get(victim);
        for (int p = 0; p < ThreeBrokerCluster.PARTITIONS && leads < MOST_COMMAND_PARTITIONS; p++) {
            if (!kafka.leaderOf(COMMANDS, p).equals(victim)) {
                moved.add(new TopicPartition(COMMANDS, p));
                leads++;
            }
        }
        long begin = System.nanoTime();
        kafka.moveLeadership(victim, moved, Duration.ofMinutes(1));
        await(() -> writesBack(begin), Duration.ofMinutes(1), "writes through every instance settled after the move");
        report.add(victim + " given the roles to lose (as found: " + found + "; after "
                + Duration.ofNanos(System.nanoTime() - begin).toMillis() + " ms of moving and settling: "
                + rolesOf(victim) + ")");
        return victim;
    }

    /** Every role {@code broker} has that the processors' writes wait on, whether it has it or not. */
    private String rolesOf(BrokerCluster.Broker broker) {
        Set<String> ids = kafka.transactionalIds(PROCESSORS);
        long coordinated = ids.stream().filter(id -> broker.equals(kafka.transactionCoordinatorOf(id))).count();
        return "coordinator of " + coordinated + " of the processors' " + ids.size() + " transactional ids, "
                + (broker.equals(kafka.groupCoordinatorOf(PROCESSORS)) ? "" : "not ") + "of the processors' group, leader of "
                + kafka.leadershipsOf(COMMANDS).get(broker) + " of " + ThreeBrokerCluster.PARTITIONS
                + " command-log partitions, " + (broker.equals(kafka.activeController()) ? "" : "not ")
                + "the active controller";
    }

    /** The topics whose replication a repaired broker must catch up with. */
    private List<String> topics() {
        return new ArrayList<>(kafka.admin().listTopics().names().toCompletionStage().toCompletableFuture().join());
    }

    // ------------------------------------------------------------------ logs

    private List<Path> logFiles() {
        List<Path> files = new ArrayList<>();
        kafka.brokers().forEach(b -> files.add(b.logFile()));
        cluster.instances().forEach(i -> files.add(i.process.logFile()));
        return files;
    }

    private Map<Path, Integer> logLengths() {
        Map<Path, Integer> lengths = new HashMap<>();
        for (Path file : logFiles()) {
            lengths.put(file, readLines(file).size());
        }
        return lengths;
    }

    /** Lines matching {@code regex} that each log got after {@code marks}, each prefixed with its file's name. */
    private List<String> linesSince(Map<Path, Integer> marks, String regex) {
        java.util.regex.Pattern pattern = java.util.regex.Pattern.compile(regex);
        List<String> found = new ArrayList<>();
        for (Path file : logFiles()) {
            List<String> lines = readLines(file);
            for (String line : lines.subList(Math.min(marks.getOrDefault(file, 0), lines.size()), lines.size())) {
                if (pattern.matcher(line).find()) {
                    found.add(file.getFileName() + ": " + line);
                }
            }
        }
        found.sort(Comparator.naturalOrder());
        return found;
    }

    private static List<String> readLines(Path file) {
        try {
            return Files.exists(file) ? Files.readAllLines(file) : List.of();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    // ------------------------------------------------------------------ vocabulary

    /** How long after {@code sinceNanos} the first operation of {@code kind} started after it succeeded. */
    private Duration awaitSuccess(String kind, long sinceNanos, Duration timeout) {
        long deadline = sinceNanos + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            java.util.OptionalLong first = load.log().ops().stream()
                    .filter(op -> op.kind().equals(kind) && op.ok() && op.startNanos() >= sinceNanos)
                    .mapToLong(OpLog.Op::endNanos).min();
            if (first.isPresent()) {
                return Duration.ofNanos(first.getAsLong() - sinceNanos);
            }
            sleep(Duration.ofMillis(100));
        }
        throw new AssertionError("No " + kind + " succeeded within " + timeout + " of " + sinceNanos);
    }

    private static <T> T awaitAnswer(Supplier<T> call, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            try {
                return call.get();
            } catch (HttpResponseException e) {
                if (e.getResponse().getStatusCode() != 503 || System.nanoTime() > deadline) {
                    throw e;
                }
                sleep(Duration.ofMillis(500));
            }
        }
    }

    private static void await(java.util.function.BooleanSupplier condition, Duration timeout, String what) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as(what).isLessThan(deadline);
            sleep(Duration.ofMillis(100));
        }
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
