package io.tablestream.bench.workload;

import com.azure.core.http.HttpHeaderName;
import com.azure.core.http.rest.PagedResponse;
import com.azure.core.http.rest.Response;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableEntityUpdateMode;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionResponse;
import com.azure.data.tables.models.TableTransactionActionType;
import com.azure.data.tables.models.TableTransactionResult;
import io.tablestream.bench.measure.Percentiles;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The workload driver: the official Azure Tables SDK for Java against any Table service endpoint
 * (Tablestream, Azurite, Azure), the same client and the same requests for every target. It
 * creates a table, loads it to N entities (transactions of 100 over the PartitionKeys of
 * {@link KeyLayout}, several threads), then runs the chosen {@link Workload}s, each for a bounded
 * time or count, and prints one {@code RESULT} line per workload (see {@link WorkloadResult}) and
 * {@code MEMORY} lines for the server's resident memory, then a readable summary.
 *
 * <p>Every answer is checked: statuses, counts, keys and their order, every property's type and
 * value, ETags present and changing on update, written entities read back (with the ETag their
 * write returned, where the SDK exposes it). A wrong answer prints {@code FAILED} and exits with status 3 (any other failure:
 * status 1), never silently.
 *
 * <p>Usage: see {@link DriverOptions#USAGE}, or run with {@code --help}.
 *
 * <p>One class, over 400 lines: one method per workload, each a few lines of SDK calls and the checks
 * of their answers, side by side so that every target is driven and checked the same way; the
 * options, keys, entities, timing and results are classes of their own.
 */
public final class WorkloadDriver {
    private static final Duration TIMEOUT = Duration.ofSeconds(120);
    private static final int UPDATE_TARGETS = 100;
    private static final int READ_BACK_SAMPLES = 100;

    private final DriverOptions options;
    private final KeyLayout layout;
    private final ServerErrorCounter errors = new ServerErrorCounter();
    private final TableServiceClient service;
    private final TableClient table;
    private final List<WorkloadResult> results = new ArrayList<>();
    private final List<String> memory = new ArrayList<>();
    private final CpuMeter cpu;
    /** Calls each write workload made (warm-up included): the keys it wrote follow from them. */
    private final AtomicLong singleInserts = new AtomicLong();
    private final AtomicLong transactions1 = new AtomicLong();
    private final AtomicLong transactions8 = new AtomicLong();

    private WorkloadDriver(DriverOptions options) {
        this.options = options;
        this.layout = new KeyLayout(options.size(), options.partitions());
        this.cpu = new CpuMeter(options.serverPid());
        this.service = new TableServiceClientBuilder().connectionString(options.connectionString())
                .addPolicy(errors).buildClient();
        this.table = service.getTableClient(options.tableName());
    }

    public static void main(String[] args) {
        DriverOptions options;
        try {
            options = DriverOptions.parse(args);
        } catch (IllegalArgumentException e) {
            if (!e.getMessage().isEmpty()) {
                System.err.println(e.getMessage());
            }
            System.err.print(DriverOptions.USAGE);
            System.exit(2);
            return;
        }
        int status = 0;
        try {
            new WorkloadDriver(options).run();
        } catch (WrongAnswer e) {
            System.out.println("FAILED " + options.target() + " " + options.size() + " wrong answer: " + e.getMessage());
            status = 3;
        } catch (Exception e) {
            e.printStackTrace();
            System.out.println("FAILED " + options.target() + " " + options.size() + " " + e);
            status = 1;
        }
        System.out.flush();
        System.exit(status);
    }

    private void run() throws Exception {
        if (!options.clientWarmUp().isZero()) {
            progress("%s: warming the driver's JVM for %.1f s against a stand-in endpoint of its own", options.target(),
                    options.clientWarmUp().toMillis() / 1000.0);
            long started = System.nanoTime();
            long requests = ClientWarmUp.run(options.clientWarmUp());
            System.out.printf("CLIENT-WARMUP %s %d requests %.1f s%n", options.target(), requests,
                    (System.nanoTime() - started) / 1e9);
        }
        progress("%s: creating table %s, loading %,d entities over %,d partitions with %d threads",
                options.target(), options.tableName(), options.size(), options.partitions(), options.loadThreads());
        service.createTable(options.tableName());
        report(load());
        sampleMemory("after-load");
        for (Workload w : options.workloads()) {
            progress("%s: %s (%s)", options.target(), w.label(), w.description());
            report(switch (w) {
                case INSERT -> singleInserts();
                case BATCH_1T -> transactions(Workload.BATCH_1T, "batch1", 1, transactions1);
                case BATCH_8T -> transactions(Workload.BATCH_8T, "batch8", 8, transactions8);
                case READ -> pointReads(Workload.READ, 1);
                case READ_16T -> pointReads(Workload.READ_16T, 16);
                case RANGE_QUERY -> rangeQueries();
                case PARTITION_SCAN -> partitionScans();
                case FULL_SCAN -> fullScans();
                case MERGE -> updates(Workload.MERGE, 0);
                case REPLACE -> updates(Workload.REPLACE, 1);
                case MIXED_200T -> mixed(Workload.MIXED_200T, 200);
            });
        }
        sampleMemory("end");
        printSummary();
    }

    // --- load ---

    private record Chunk(int partition, long firstRow, int rows) {
    }

    private WorkloadResult load() throws Exception {
        List<Chunk> chunks = new ArrayList<>();
        for (long first = 0; first < layout.rowsIn(0); first += KeyLayout.BATCH_SIZE) {
            for (int p = 0; p < layout.partitions(); p++) {
                long rows = layout.rowsIn(p);
                if (first < rows) {
                    chunks.add(new Chunk(p, first, (int) Math.min(KeyLayout.BATCH_SIZE, rows - first)));
                }
            }
        }
        return TimedRun.run("load", "entities/s", options.loadThreads(), TimedRun.Bounds.count(chunks.size()),
                new AtomicLong(), cpu, index -> {
                    Chunk c = chunks.get((int) index);
                    String pk = layout.loadedPartition(c.partition());
                    List<TableTransactionAction> actions = new ArrayList<>(c.rows());
                    for (long r = c.firstRow(); r < c.firstRow() + c.rows(); r++) {
                        actions.add(new TableTransactionAction(TableTransactionActionType.CREATE,
                                SyntheticEntities.entity(pk, KeyLayout.rowKey(r))));
                    }
                    Response<TableTransactionResult> response = table.submitTransactionWithResponse(actions, TIMEOUT,
                            null);
                    return new TimedRun.Done(actions.size(), () -> checkTransaction("load", response, actions));
                });
    }

    // --- writes ---

    /** A written entity and the ETag its write answered ({@code null} when the answer had none to read). */
    private record Written(String partitionKey, String rowKey, String etag) {
    }

    private WorkloadResult singleInserts() throws Exception {
        ConcurrentLinkedQueue<Written> samples = new ConcurrentLinkedQueue<>();
        WorkloadResult result = TimedRun.run(Workload.INSERT.label(), Workload.INSERT.unit(), 1, options.bounds(),
                singleInserts, cpu, k -> {
                    String pk = KeyLayout.partitionKey("insert", k % layout.partitions());
                    String rk = KeyLayout.rowKey(k / layout.partitions());
                    Response<Void> response = table.createEntityWithResponse(SyntheticEntities.entity(pk, rk),
                            TIMEOUT, null);
                    return new TimedRun.Done(1, () -> {
                        expectStatus("insert", response, 204);
                        String etag = etagHeader("insert", response);
                        if (k % 17 == 0 && samples.size() < READ_BACK_SAMPLES) {
                            samples.add(new Written(pk, rk, etag));
                        }
                    });
                });
        readBack("insert", samples);
        return result;
    }

    private WorkloadResult transactions(Workload workload, String family, int threads, AtomicLong sequence)
            throws Exception {
        ConcurrentLinkedQueue<Written> samples = new ConcurrentLinkedQueue<>();
        WorkloadResult result = TimedRun.run(workload.label(), workload.unit(), threads, options.bounds(), sequence,
                cpu, k -> {
                    String pk = KeyLayout.partitionKey(family, k % layout.partitions());
                    long first = (k / layout.partitions()) * KeyLayout.BATCH_SIZE;
                    List<TableTransactionAction> actions = new ArrayList<>(KeyLayout.BATCH_SIZE);
                    for (long r = first; r < first + KeyLayout.BATCH_SIZE; r++) {
                        actions.add(new TableTransactionAction(TableTransactionActionType.CREATE,
                                SyntheticEntities.entity(pk, KeyLayout.rowKey(r))));
                    }
                    Response<TableTransactionResult> response = table.submitTransactionWithResponse(actions, TIMEOUT,
                            null);
                    return new TimedRun.Done(actions.size(), () -> {
                        checkTransaction(workload.label(), response, actions);
                        if (k % 7 == 0 && samples.size() < READ_BACK_SAMPLES) {
                            int i = (int) (k % actions.size());
                            samples.add(new Written(pk, actions.get(i).getEntity().getRowKey(), null));
                        }
                    });
                });
        readBack(workload.label(), samples);
        return result;
    }

    /**
     * Checks a transaction's answer: one 204 per action. (The Java SDK does not parse the
     * sub-responses' headers, so their ETags cannot be checked here; read-backs check them.)
     */
    private static void checkTransaction(String what, Response<TableTransactionResult> response,
                                         List<TableTransactionAction> actions) {
        expectStatus(what, response, 202);
        List<TableTransactionActionResponse> answers = response.getValue().getTransactionActionResponses();
        if (answers.size() != actions.size()) {
            throw new WrongAnswer(what + ": a transaction of " + actions.size() + " got " + answers.size()
                    + " answers");
        }
        for (int i = 0; i < answers.size(); i++) {
            if (answers.get(i).getStatusCode() != 204) {
                throw new WrongAnswer(what + ": action " + i + " of a transaction answered "
                        + answers.get(i).getStatusCode() + ", expected 204");
            }
        }
    }

    /** Reads written entities back: the values written, and the ETag the write answered. */
    private void readBack(String what, Iterable<Written> written) {
        for (Written w : written) {
            TableEntity e = table.getEntityWithResponse(w.partitionKey(), w.rowKey(), null, TIMEOUT, null).getValue();
            SyntheticEntities.check(what + " read back", e, w.partitionKey(), w.rowKey(),
                    SyntheticEntities.properties(w.partitionKey(), w.rowKey()));
            if (w.etag() != null && !sameETag(w.etag(), e.getETag())) {
                throw new WrongAnswer(what + ": (" + w.partitionKey() + ", " + w.rowKey() + ") was written with ETag "
                        + w.etag() + " but reads back with " + e.getETag());
            }
        }
    }

    // --- reads ---

    private WorkloadResult pointReads(Workload workload, int threads) throws Exception {
        return TimedRun.run(workload.label(), workload.unit(), threads, options.bounds(), new AtomicLong(), cpu, k -> {
            SplittableRandom random = random(workload, k);
            int p = random.nextInt(layout.partitions());
            String pk = layout.loadedPartition(p);
            String rk = KeyLayout.rowKey(random.nextLong(layout.rowsIn(p)));
            Response<TableEntity> response = table.getEntityWithResponse(pk, rk, null, TIMEOUT, null);
            return new TimedRun.Done(1, () -> {
                expectStatus(workload.label(), response, 200);
                SyntheticEntities.check(workload.label(), response.getValue(), pk, rk,
                        SyntheticEntities.properties(pk, rk));
            });
        });
    }

    private WorkloadResult rangeQueries() throws Exception {
        int rows = KeyLayout.BATCH_SIZE;
        if (layout.fewestRowsPerPartition() < rows) {
            throw new IllegalArgumentException("range-query needs at least " + rows + " rows per partition; "
                    + "lower --partitions or raise --size");
        }
        Workload w = Workload.RANGE_QUERY;
        return TimedRun.run(w.label(), w.unit(), 1, options.bounds(), new AtomicLong(), cpu, k -> {
            SplittableRandom random = random(w, k);
            int p = random.nextInt(layout.partitions());
            String pk = layout.loadedPartition(p);
            long from = random.nextLong(layout.rowsIn(p) - rows + 1);
            String filter = String.format("PartitionKey eq '%s' and RowKey ge '%s' and RowKey lt '%s'", pk,
                    KeyLayout.rowKey(from), KeyLayout.rowKey(from + rows));
            List<TableEntity> answer = query(filter);
            return new TimedRun.Done(1, () -> {
                List<String> expected = new ArrayList<>(rows);
                for (long r = from; r < from + rows; r++) {
                    expected.add(KeyLayout.rowKey(r));
                }
                checkRows(w.label() + " [" + filter + "]", answer, pk, expected);
            });
        });
    }

    private WorkloadResult partitionScans() throws Exception {
        Workload w = Workload.PARTITION_SCAN;
        return TimedRun.run(w.label(), w.unit(), 1, options.bounds(), new AtomicLong(), cpu, k -> {
            int p = random(w, k).nextInt(layout.partitions());
            String pk = layout.loadedPartition(p);
            String filter = String.format("PartitionKey eq '%s' and %s gt 500", pk, SyntheticEntities.QUANTITY);
            List<TableEntity> answer = query(filter);
            return new TimedRun.Done(1, () -> {
                List<String> expected = new ArrayList<>();
                for (long r = 0; r < layout.rowsIn(p); r++) {
                    if (SyntheticEntities.quantity(pk, KeyLayout.rowKey(r)) > 500) {
                        expected.add(KeyLayout.rowKey(r));
                    }
                }
                checkRows(w.label() + " [" + filter + "]", answer, pk, expected);
            });
        });
    }

    private List<TableEntity> query(String filter) {
        return table.listEntities(new ListEntitiesOptions().setFilter(filter), TIMEOUT, null).stream().toList();
    }

    private static void checkRows(String what, List<TableEntity> answer, String pk, List<String> expectedRowKeys) {
        if (answer.size() != expectedRowKeys.size()) {
            throw new WrongAnswer(what + ": " + answer.size() + " rows, expected " + expectedRowKeys.size());
        }
        for (int i = 0; i < answer.size(); i++) {
            String rk = expectedRowKeys.get(i);
            SyntheticEntities.check(what + " row " + i, answer.get(i), pk, rk, SyntheticEntities.properties(pk, rk));
        }
    }

    /**
     * Full scans, paged by the SDK (1,000 per page), until the duration is over (at least one). The
     * rate is entities over the time spent waiting for pages; each scan is checked entity by entity
     * (order, keys, values) and counted per key family, so it must return exactly the table.
     */
    private WorkloadResult fullScans() {
        Percentiles pages = new Percentiles();
        CpuMeter.Sample cpuFrom = cpu.sample();
        long deadline = System.nanoTime() + options.duration().toNanos();
        long waited = 0;
        long entities = 0;
        int scans = 0;
        do {
            ScanCheck check = new ScanCheck();
            Iterator<PagedResponse<TableEntity>> it =
                    table.listEntities(new ListEntitiesOptions(), TIMEOUT, null).iterableByPage().iterator();
            while (true) {
                long t0 = System.nanoTime();
                if (!it.hasNext()) {
                    break;
                }
                PagedResponse<TableEntity> page = it.next();
                long t1 = System.nanoTime();
                pages.add(t1 - t0);
                waited += t1 - t0;
                for (TableEntity e : page.getValue()) {
                    check.accept(e);
                }
                entities += page.getValue().size();
            }
            check.finish();
            scans++;
            progress("  scan %d: %,d entities, checked", scans, check.total);
        } while (System.nanoTime() < deadline && scans < options.maxOperations());
        double seconds = waited / 1e9;
        CpuMeter.Sample cpuTo = cpu.sample();
        return new WorkloadResult(Workload.FULL_SCAN.label(), Workload.FULL_SCAN.unit(), entities / seconds,
                pages.millis(50), pages.millis(99), pages.count(), entities, seconds,
                CpuMeter.serverMicrosPer(cpuFrom, cpuTo, entities), CpuMeter.driverCores(cpuFrom, cpuTo));
    }

    /** One full scan's answer against the table: strictly ascending keys, all known, all counted. */
    private final class ScanCheck {
        private final Map<String, Long> expectedPerFamily = new LinkedHashMap<>();
        private final Map<String, Long> seenPerFamily = new LinkedHashMap<>();
        private String lastPk;
        private String lastRk;
        private long total;

        ScanCheck() {
            expectedPerFamily.put(KeyLayout.LOADED, layout.size());
            expectedPerFamily.put("insert", singleInserts.get());
            expectedPerFamily.put("batch1", transactions1.get() * KeyLayout.BATCH_SIZE);
            expectedPerFamily.put("batch8", transactions8.get() * KeyLayout.BATCH_SIZE);
        }

        void accept(TableEntity e) {
            String pk = e.getPartitionKey();
            String rk = e.getRowKey();
            if (lastPk != null) {
                int c = pk.compareTo(lastPk);
                if (c < 0 || (c == 0 && rk.compareTo(lastRk) <= 0)) {
                    throw new WrongAnswer("full-scan: (" + pk + ", " + rk + ") came after (" + lastPk + ", " + lastRk
                            + "): not in key order, or twice");
                }
            }
            lastPk = pk;
            lastRk = rk;
            total++;
            String family = familyOf(pk, rk);
            seenPerFamily.merge(family, 1L, Long::sum);
            SyntheticEntities.check("full-scan", e, pk, rk, SyntheticEntities.properties(pk, rk));
        }

        private String familyOf(String pk, String rk) {
            if (layout.loadedRowIndex(pk, rk) >= 0) {
                return KeyLayout.LOADED;
            }
            long row = KeyLayout.rowIndex(rk);
            int p = KeyLayout.index(pk, "insert");
            if (p >= 0 && p < layout.partitions() && row >= 0 && row * layout.partitions() + p < singleInserts.get()) {
                return "insert";
            }
            for (Map.Entry<String, AtomicLong> batch : Map.of("batch1", transactions1, "batch8", transactions8)
                    .entrySet()) {
                p = KeyLayout.index(pk, batch.getKey());
                long transaction = (row / KeyLayout.BATCH_SIZE) * layout.partitions() + p;
                if (p >= 0 && p < layout.partitions() && row >= 0 && transaction < batch.getValue().get()) {
                    return batch.getKey();
                }
            }
            throw new WrongAnswer("full-scan: (" + pk + ", " + rk + ") is not an entity this run wrote");
        }

        void finish() {
            for (Map.Entry<String, Long> f : expectedPerFamily.entrySet()) {
                long seen = seenPerFamily.getOrDefault(f.getKey(), 0L);
                if (seen != f.getValue()) {
                    throw new WrongAnswer("full-scan: " + seen + " entities of partitions " + f.getKey()
                            + "-*, expected " + f.getValue());
                }
            }
        }
    }

    // --- updates ---

    /**
     * Sequential merges ({@code kind} 0) or replaces (1) cycling over 100 loaded entities (merges
     * and replaces use different ones). Each must answer a new ETag; afterwards each entity reads
     * back with the last ETag and exactly the properties the last update left: a merge adds
     * {@code Revision} and changes {@code Score}, keeping the rest; a replace writes a new
     * revision's values without {@code Label}.
     */
    private WorkloadResult updates(Workload workload, int kind) throws Exception {
        List<String[]> targets = updateTargets(kind);
        int n = targets.size();
        String[] etags = new String[n];
        int[] revisions = new int[n];
        for (int t = 0; t < n; t++) {
            String pk = targets.get(t)[0];
            String rk = targets.get(t)[1];
            TableEntity e = table.getEntityWithResponse(pk, rk, null, TIMEOUT, null).getValue();
            SyntheticEntities.check(workload.label() + " before", e, pk, rk, SyntheticEntities.properties(pk, rk));
            etags[t] = e.getETag();
        }
        WorkloadResult result = TimedRun.run(workload.label(), workload.unit(), 1, options.bounds(), new AtomicLong(),
                cpu, k -> {
                    int t = (int) (k % n);
                    int revision = (int) k + 1;
                    String pk = targets.get(t)[0];
                    String rk = targets.get(t)[1];
                    TableEntity update = new TableEntity(pk, rk).setProperties(afterUpdate(kind, pk, rk, revision, false));
                    Response<Void> response = table.updateEntityWithResponse(update,
                            kind == 0 ? TableEntityUpdateMode.MERGE : TableEntityUpdateMode.REPLACE, false, TIMEOUT,
                            null);
                    return new TimedRun.Done(1, () -> {
                        expectStatus(workload.label(), response, 204);
                        String etag = etagHeader(workload.label(), response);
                        if (sameETag(etag, etags[t])) {
                            throw new WrongAnswer(workload.label() + ": (" + pk + ", " + rk
                                    + ") kept its ETag " + etag + " through an update");
                        }
                        etags[t] = etag;
                        revisions[t] = revision;
                    });
                });
        for (int t = 0; t < n; t++) {
            String pk = targets.get(t)[0];
            String rk = targets.get(t)[1];
            TableEntity e = table.getEntityWithResponse(pk, rk, null, TIMEOUT, null).getValue();
            Map<String, Object> expected = revisions[t] == 0 ? SyntheticEntities.properties(pk, rk)
                    : afterUpdate(kind, pk, rk, revisions[t], true);
            SyntheticEntities.check(workload.label() + " after", e, pk, rk, expected);
            if (!sameETag(etags[t], e.getETag())) {
                throw new WrongAnswer(workload.label() + ": (" + pk + ", " + rk + ") last answered ETag " + etags[t]
                        + " but reads back with " + e.getETag());
            }
        }
        return result;
    }

    /**
     * Many clients at once, each mixing point reads of loaded entities (half) with single writes
     * into partitions of their own: inserts of new entities, upserts (insert-or-replace) and merges
     * (insert-or-merge) of a set of 10,000. Besides the workload's own line, reports the reads'
     * and the writes' latencies apart ({@code <label>-reads}, {@code <label>-writes}).
     */
    private WorkloadResult mixed(Workload workload, int threads) throws Exception {
        Percentiles reads = new Percentiles();
        Percentiles writes = new Percentiles();
        long measureFrom = System.nanoTime() + options.bounds().warmUp().toNanos();
        AtomicLong inserts = new AtomicLong();
        Set<String> updated = new java.util.HashSet<>(); // loaded entities the merge and replace workloads changed
        for (int kind = 0; kind < 2; kind++) {
            for (String[] t : updateTargets(kind)) {
                updated.add(t[0] + "/" + t[1]);
            }
        }
        AtomicReference<Percentiles[]> window = new AtomicReference<>(new Percentiles[] {new Percentiles(),
                new Percentiles()});
        ScheduledExecutorService reporter = intervalReporter(workload, measureFrom, window);
        WorkloadResult result;
        try {
            result = TimedRun.run(workload.label(), workload.unit(), threads, options.bounds(),
                    new AtomicLong(), cpu, k -> {
                        SplittableRandom random = random(workload, k);
                        double r = random.nextDouble();
                        long t0 = System.nanoTime();
                        TimedRun.Done done;
                        if (r < 0.5) {
                            int p = random.nextInt(layout.partitions());
                            String pk = layout.loadedPartition(p);
                            String rk = KeyLayout.rowKey(random.nextLong(layout.rowsIn(p)));
                            Response<TableEntity> response = table.getEntityWithResponse(pk, rk, null, TIMEOUT, null);
                            done = new TimedRun.Done(1, () -> {
                                expectStatus(workload.label(), response, 200);
                                if (!updated.contains(pk + "/" + rk)) {
                                    SyntheticEntities.check(workload.label(), response.getValue(), pk, rk,
                                            SyntheticEntities.properties(pk, rk));
                                }
                            });
                        } else {
                            Response<Void> response;
                            if (r < 0.7) {
                                long n = inserts.getAndIncrement();
                                String pk = KeyLayout.partitionKey("mixed", n % layout.partitions());
                                response = table.createEntityWithResponse(SyntheticEntities.entity(pk,
                                        KeyLayout.rowKey(n / layout.partitions())), TIMEOUT, null);
                            } else {
                                int n = random.nextInt(10_000);
                                String pk = KeyLayout.partitionKey("mixedu", n % layout.partitions());
                                response = table.upsertEntityWithResponse(
                                        SyntheticEntities.entity(pk, KeyLayout.rowKey(n)),
                                        r < 0.85 ? TableEntityUpdateMode.REPLACE : TableEntityUpdateMode.MERGE,
                                        TIMEOUT, null);
                            }
                            done = new TimedRun.Done(1, () -> {
                                expectStatus(workload.label(), response, 204);
                                etagHeader(workload.label(), response);
                            });
                        }
                        long t1 = System.nanoTime();
                        if (t0 >= measureFrom) {
                            (r < 0.5 ? reads : writes).add(t1 - t0);
                            window.get()[r < 0.5 ? 0 : 1].add(t1 - t0);
                        }
                        return done;
                    });
        } finally {
            if (reporter != null) {
                reporter.shutdownNow();
            }
        }
        for (String kind : List.of("reads", "writes")) {
            Percentiles p = kind.equals("reads") ? reads : writes;
            report(new WorkloadResult(workload.label() + "-" + kind, workload.unit(), p.count() / result.seconds(),
                    p.millis(50), p.millis(99), p.count(), p.count(), result.seconds(), -1, result.driverCores()));
        }
        return result;
    }

    /**
     * With {@code --interval}: a thread printing, every interval of the measured period, the reads'
     * and writes' rates and latencies over that interval and the server errors counted so far:
     * {@code INTERVAL <target> <workload> <seconds measured> <reads/s> <read p50 ms> <read p99 ms>
     * <writes/s> <write p50 ms> <write p99 ms> <server errors> <transport errors>} (the errors since
     * the run began, retried attempts included). Null without the option.
     */
    private ScheduledExecutorService intervalReporter(Workload workload, long measureFrom,
                                                      AtomicReference<Percentiles[]> window) {
        long every = options.interval().toNanos();
        if (every <= 0) {
            return null;
        }
        ScheduledExecutorService reporter = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, workload.label() + "-interval");
            t.setDaemon(true);
            return t;
        });
        AtomicLong windowStart = new AtomicLong(measureFrom);
        reporter.scheduleAtFixedRate(() -> {
            long now = System.nanoTime();
            Percentiles[] w = window.getAndSet(new Percentiles[] {new Percentiles(), new Percentiles()});
            double seconds = Math.max(1e-9, (now - windowStart.getAndSet(now)) / 1e9);
            System.out.printf(Locale.ROOT, "INTERVAL %s %s %.0f %.1f %.3f %.3f %.1f %.3f %.3f %d %d%n",
                    options.target(), workload.label(), (now - measureFrom) / 1e9,
                    w[0].count() / seconds, w[0].millis(50), w[0].millis(99),
                    w[1].count() / seconds, w[1].millis(50), w[1].millis(99),
                    errors.serverErrors(), errors.transportErrors());
            System.out.flush();
        }, Math.max(0, measureFrom - System.nanoTime()) + every, every, TimeUnit.NANOSECONDS);
        return reporter;
    }

    /**
     * What an update sends ({@code whole} false) or what the entity holds after it ({@code whole}
     * true): for a merge, the sent properties are Revision and Score and the entity keeps the rest.
     */
    private static Map<String, Object> afterUpdate(int kind, String pk, String rk, int revision, boolean whole) {
        Map<String, Object> next = SyntheticEntities.properties(pk, rk, revision);
        Map<String, Object> p;
        if (kind == 0) {
            p = whole ? SyntheticEntities.properties(pk, rk) : new LinkedHashMap<>();
            p.put(SyntheticEntities.SCORE, next.get(SyntheticEntities.SCORE));
        } else {
            p = next;
            p.remove(SyntheticEntities.LABEL);
        }
        p.put(SyntheticEntities.REVISION, revision);
        return p;
    }

    /** Distinct loaded entities: the first 100 for merges, the next 100 for replaces. */
    private List<String[]> updateTargets(int kind) {
        int perKind = (int) Math.min(UPDATE_TARGETS, layout.size() / 2);
        Random random = new Random(options.seed());
        Set<String> chosen = new LinkedHashSet<>();
        while (chosen.size() < 2 * perKind) {
            int p = random.nextInt(layout.partitions());
            long r = (long) (random.nextDouble() * layout.rowsIn(p));
            chosen.add(layout.loadedPartition(p) + "/" + KeyLayout.rowKey(r));
        }
        List<String[]> targets = new ArrayList<>();
        for (String key : new ArrayList<>(chosen).subList(kind * perKind, (kind + 1) * perKind)) {
            targets.add(key.split("/"));
        }
        return targets;
    }

    // --- helpers ---

    private SplittableRandom random(Workload workload, long k) {
        return new SplittableRandom(options.seed() * 1_000_003L + workload.ordinal() * 1_000_000_007L + k);
    }

    private static void expectStatus(String what, Response<?> response, int status) {
        if (response.getStatusCode() != status) {
            throw new WrongAnswer(what + ": status " + response.getStatusCode() + ", expected " + status);
        }
    }

    private static String etagHeader(String what, Response<?> response) {
        String etag = response.getHeaders().getValue(HttpHeaderName.ETAG);
        if (etag == null || etag.isEmpty()) {
            throw new WrongAnswer(what + ": no ETag in the answer");
        }
        return etag;
    }

    /**
     * Whether two ETags are the same, one possibly from a response header and the other from an
     * entity body: the Java SDK's Netty client hands out header values without their closing quote
     * (on the wire they are whole: {@code W/"datetime'...'"}), so the closing quote is not compared.
     */
    private static boolean sameETag(String a, String b) {
        return a != null && b != null && withoutClosingQuote(a).equals(withoutClosingQuote(b));
    }

    private static String withoutClosingQuote(String etag) {
        return etag.endsWith("\"") ? etag.substring(0, etag.length() - 1) : etag;
    }

    private void report(WorkloadResult result) {
        results.add(result);
        System.out.println(result.resultLine(options.target(), options.size()));
        System.out.flush();
    }

    private void sampleMemory(String phase) {
        String line = ServerMemory.sample(options.serverPid(), options.target(), options.size(), phase);
        memory.add(line);
        System.out.println(line);
        System.out.flush();
    }

    private void printSummary() {
        System.out.printf("%nSummary: %s, %,d entities over %,d partitions (table %s), %d cores, Java %s%n",
                options.target(), options.size(), options.partitions(), options.tableName(),
                Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"));
        for (WorkloadResult r : results) {
            System.out.println(r.summaryLine());
        }
        for (String m : memory) {
            String[] f = m.split(" ");
            System.out.printf("  server memory %-10s VmRSS %s MiB, peak %s MiB%n", f[3], f[4], f[5]);
        }
        System.out.printf("  every answer checked; %,d HTTP attempts, %d server errors (5xx/429), %d transport errors%n",
                errors.attempts(), errors.serverErrors(), errors.transportErrors());
    }

    private static void progress(String format, Object... args) {
        System.err.printf(format + "%n", args);
    }
}
