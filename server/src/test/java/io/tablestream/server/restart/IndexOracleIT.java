package io.tablestream.server.restart;

import static io.tablestream.testsupport.Eventually.eventually;
import static io.tablestream.testsupport.Eventually.eventuallyPasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableEntityUpdateMode;
import io.tablestream.server.IndexRequests;
import io.tablestream.server.RawTableClient;
import io.tablestream.testsupport.TestDirectories;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * Secondary indexes against a full-scan oracle: random inserts, replaces, merges, deletes and rows
 * that expire (TTL), before and after a restart of the server on the same data, on a table whose
 * index was created with rows already in it. After each phase every indexed query answers what a
 * full scan filtered by the test answers, in the same order, and each partition's index holds
 * exactly one entry per stored row with the property: none points at a deleted, replaced or
 * expired-and-deleted version. The seed is printed; {@code -Dindex.seed=<n>} replays a run.
 */
class IndexOracleIT {
    private static final int KEYS = 60;

    private final long seed = Long.getLong("index.seed", System.nanoTime());
    private final Random random = new Random(seed);
    /** When the last write of the latest phase was sent, at the latest. */
    private Instant lastWrite = Instant.now();

    @Test
    void indexedQueriesMatchAFullScanAcrossWritesDeletesExpiriesAndARestart() throws Exception {
        System.out.println("IndexOracleIT seed " + seed);
        Path data = Files.createTempDirectory("tablestream-index-oracle");
        String name = "Oracle" + Math.abs(seed % 1_000_000);
        try (OwnServer first = OwnServer.start(data)) {
            TableClient table = first.client().createTable(name);
            randomWrites(table, 150);
            IndexRequests indexes = new IndexRequests(new RawTableClient(first.port()));
            assertThat(indexes.create(name, "ByV", "V").status()).isEqualTo(201);
            assertThat(indexes.create(name, "ByS", "S").status()).isEqualTo(201);
            randomWrites(table, 150); // while the builds run
            indexes.awaitReady(name, "ByV", Duration.ofSeconds(30));
            indexes.awaitReady(name, "ByS", Duration.ofSeconds(30));
            randomWrites(table, 150);
            assertMatchesOracle(indexes, table, name);
        }
        try (OwnServer second = OwnServer.start(data)) {
            TableClient table = second.client().getTableClient(name);
            IndexRequests indexes = new IndexRequests(new RawTableClient(second.port()));
            assertMatchesOracle(indexes, table, name);
            randomWrites(table, 200);
            assertMatchesOracle(indexes, table, name);
        }
        TestDirectories.delete(data);
    }

    private void randomWrites(TableClient table, int count) {
        for (int i = 0; i < count; i++) {
            int k = random.nextInt(KEYS);
            String pk = "p" + (k % 7);
            String rk = "r" + k;
            TableEntity e = new TableEntity(pk, rk);
            if (random.nextInt(10) > 0) {
                e.addProperty("V", random.nextInt(5));
            }
            if (random.nextBoolean()) {
                e.addProperty("S", "s" + random.nextInt(4));
            }
            if (random.nextInt(8) == 0) {
                e.addProperty("TTLInSeconds", 1);
            }
            switch (random.nextInt(4)) {
                case 0 -> table.upsertEntityWithResponse(e, TableEntityUpdateMode.REPLACE, null, null);
                case 1 -> table.upsertEntityWithResponse(e, TableEntityUpdateMode.MERGE, null, null);
                case 2 -> table.deleteEntity(pk, rk);
                default -> {
                    // replace V only when present: another version of the same row
                    e.getProperties().remove("S");
                    table.upsertEntityWithResponse(e, TableEntityUpdateMode.MERGE, null, null);
                }
            }
        }
        lastWrite = Instant.now(); // each write was answered: none is later than this
    }

    /**
     * Waits until the expiries of this phase are due (TTL 1 s after the last write), then until the
     * index matches the oracle: expiry rounds (every second) delete the due rows soon after, and an
     * index entry left behind by any change keeps the two apart until the deadline.
     */
    private void assertMatchesOracle(IndexRequests indexes, TableClient table, String name) {
        Instant due = lastWrite.plusSeconds(1);
        eventually("every TTL of this phase due", () -> Instant.now().isAfter(due), Duration.ofSeconds(5));
        eventuallyPasses(() -> compareWithOracle(indexes, name), Duration.ofSeconds(15));
    }

    private void compareWithOracle(IndexRequests indexes, String name) {
        List<Map<String, Object>> all = indexes.query(name, null).rows();
        for (int v = 0; v < 5; v++) {
            int value = v;
            check(indexes, name, all, "V eq " + v, "ByV", r -> Integer.valueOf(value).equals(r.get("V")));
        }
        check(indexes, name, all, "V ge 1 and V lt 3", "ByV",
                r -> r.get("V") instanceof Integer n && n >= 1 && n < 3);
        check(indexes, name, all, "S eq 's2' and V gt 0", "ByS",
                r -> "s2".equals(r.get("S")) && r.get("V") instanceof Integer n && n > 0);
        check(indexes, name, all, "S gt 's1'", "ByS", r -> r.get("S") instanceof String s && s.compareTo("s1") > 0);
        // one entry per stored row with the property: nothing left pointing at a gone version
        assertThat(entries(indexes, name, "ByV")).as("seed %d", seed)
                .isEqualTo(all.stream().filter(r -> r.get("V") instanceof Integer).count());
        assertThat(entries(indexes, name, "ByS")).as("seed %d", seed)
                .isEqualTo(all.stream().filter(r -> r.get("S") instanceof String).count());
    }

    private void check(IndexRequests indexes, String name, List<Map<String, Object>> all, String filter, String index,
                       Predicate<Map<String, Object>> oracle) {
        IndexRequests.Result indexed = indexes.query(name, filter);
        List<String> expected = new ArrayList<>();
        for (Map<String, Object> r : all) {
            if (oracle.test(r)) {
                expected.add(r.get("PartitionKey") + "/" + r.get("RowKey"));
            }
        }
        assertThat(indexed.index()).isEqualTo(index);
        assertThat(indexed.keys()).as("%s, seed %d", filter, seed).isEqualTo(expected);
    }

    @SuppressWarnings("unchecked")
    private static long entries(IndexRequests indexes, String name, String index) {
        long total = 0;
        for (Object o : (List<Object>) indexes.list(name).json().get("value")) {
            Map<String, Object> i = (Map<String, Object>) o;
            if (i.get("Name").equals(index)) {
                for (Object p : ((Map<String, Object>) i.get("Partitions")).values()) {
                    total += ((Number) ((Map<String, Object>) p).get("Entries")).longValue();
                }
            }
        }
        return total;
    }
}
