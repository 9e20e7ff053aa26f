package io.tablestream.server.history;

import static io.tablestream.server.RawTableClient.query;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableEntityUpdateMode;
import io.tablestream.server.RawTableClient;
import io.tablestream.server.TablestreamServerExtension;
import io.tablestream.server.TablestreamServerExtension.RunningServer;
import io.tablestream.server.queries.TableFixtures;
import io.tablestream.testsupport.KafkaExtension;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Point-in-time reads over HTTP ({@code asOf=<UTC time>} on Get Entity, Query Entities and
 * Count Entities) of a table created with {@code HistoryRetentionInSeconds}: each answers what the
 * same read answered at that time, paged exactly, across partitions; bad times are 400s.
 */
@ExtendWith({KafkaExtension.class, TablestreamServerExtension.class})
class PointInTimeIT {
    private static final List<String> PARTITIONS = List.of("p0", "p1", "p2", "p3");

    @Test
    void readsAsOfATimeSeeThatTimesVersionsAcrossPagesAndPartitions(RunningServer server, TableServiceClient service)
            throws InterruptedException {
        String name = EntityHistoryIT.givenTableWithHistory(server, 3600);
        TableClient table = service.getTableClient(name);
        Map<String, String> firstETags = new TreeMap<>();
        for (String pk : PARTITIONS) {
            for (String rk : List.of("r0", "r1", "r2")) {
                firstETags.put(pk + "/" + rk, table.createEntityWithResponse(
                        new TableEntity(pk, rk).addProperty("V", 1), null, null).getHeaders().getValue("ETag"));
            }
        }
        String t1 = latest(firstETags.values());
        Thread.sleep(20);
        List<String> secondETags = new ArrayList<>();
        secondETags.add(table.updateEntityWithResponse(new TableEntity("p0", "r0").addProperty("V", 2),
                TableEntityUpdateMode.REPLACE, false, null, null).getHeaders().getValue("ETag"));
        secondETags.add(table.updateEntityWithResponse(new TableEntity("p1", "r1").addProperty("W", 9),
                TableEntityUpdateMode.MERGE, false, null, null).getHeaders().getValue("ETag"));
        table.deleteEntity("p2", "r2");
        table.deleteEntity("p3", "r0");
        secondETags.add(table.createEntityWithResponse(new TableEntity("p0", "new").addProperty("V", 2), null, null)
                .getHeaders().getValue("ETag"));
        String t2 = latest(secondETags);
        Thread.sleep(20);
        table.updateEntity(new TableEntity("p0", "r0").addProperty("V", 3), TableEntityUpdateMode.REPLACE);
        table.upsertEntity(new TableEntity("p2", "r2").addProperty("V", 3));

        Map<String, String> atT1 = new TreeMap<>();
        firstETags.keySet().forEach(k -> atT1.put(k, "V=1"));
        Map<String, String> atT2 = new TreeMap<>(atT1);
        atT2.put("p0/r0", "V=2");
        atT2.put("p1/r1", "V=1,W=9");
        atT2.remove("p2/r2");
        atT2.remove("p3/r0");
        atT2.put("p0/new", "V=2");
        Map<String, String> now = new TreeMap<>(atT2);
        now.put("p0/r0", "V=3");
        now.put("p2/r2", "V=3");

        // a table scan, scatter-gathered, 5 rows a page: exact across page boundaries
        List<Integer> pageSizes = new ArrayList<>();
        assertThat(scan(server, name, t1, pageSizes)).isEqualTo(atT1);
        assertThat(pageSizes).containsExactly(5, 5, 2);
        assertThat(scan(server, name, t2, new ArrayList<>())).isEqualTo(atT2);
        assertThat(scan(server, name, null, new ArrayList<>())).isEqualTo(now);

        // one partition, newest first, with a filter
        RawTableClient.Response p0 = RawTableClient.to(server).read(name + "()?" + query(
                "$filter", "PartitionKey eq 'p0' and V le 2", "$orderby", "RowKey desc", "asOf", t2));
        assertThat(p0.status()).as(p0.body()).isEqualTo(200);
        assertThat(p0.rows()).extracting(r -> r.get("RowKey") + "=" + r.get("V"))
                .containsExactly("r2=1", "r1=1", "r0=2", "new=2");

        // Get Entity: the version of the time, with its own ETag; absent before its insert and after its delete
        RawTableClient.Response old = getAsOf(server, name, "p2", "r2", t1);
        assertThat(old.status()).as(old.body()).isEqualTo(200);
        assertThat(old.json()).containsEntry("V", 1);
        assertThat(time(old.header("ETag"))).isEqualTo(time(firstETags.get("p2/r2")));
        assertThat(getAsOf(server, name, "p2", "r2", t2).errorCode()).isEqualTo("ResourceNotFound");
        assertThat(getAsOf(server, name, "p0", "new", t1).status()).isEqualTo(404);
        assertThat(getAsOf(server, name, "p0", "r0", t2).json()).containsEntry("V", 2);
        assertThat(RawTableClient.to(server).read(name + "(PartitionKey='p0',RowKey='r0')").json())
                .containsEntry("V", 3);

        // Count Entities
        RawTableClient.Response count = RawTableClient.to(server).read(name + "()/$count?" + query("asOf", t2));
        assertThat(count.body()).isEqualTo(Integer.toString(atT2.size()));
    }

    @Test
    void aTimeOutsideTheRetentionOrOnATableWithoutHistoryIsRefused(RunningServer server, TableServiceClient service) {
        String name = EntityHistoryIT.givenTableWithHistory(server, 60);
        service.getTableClient(name).createEntity(new TableEntity("p", "r"));
        TableClient plain = TableFixtures.givenTable(service, "NoHistory");
        plain.createEntity(new TableEntity("p", "r"));
        String anHourAgo = Instant.now().minus(Duration.ofHours(1)).toString();
        String inAnHour = Instant.now().plus(Duration.ofHours(1)).toString();
        String aSecondAgo = Instant.now().minusSeconds(1).toString();

        RawTableClient.Response noHistory = RawTableClient.to(server).read(plain.getTableName() + "()?"
                + query("asOf", aSecondAgo));
        RawTableClient.Response noHistoryGet = getAsOf(server, plain.getTableName(), "p", "r", aSecondAgo);
        RawTableClient.Response beforeHorizon = RawTableClient.to(server).read(name + "()?" + query("asOf", anHourAgo));
        RawTableClient.Response future = getAsOf(server, name, "p", "r", inAnHour);
        RawTableClient.Response malformed = RawTableClient.to(server).read(name + "()?" + query("asOf", "yesterday"));
        RawTableClient.Response countBefore = RawTableClient.to(server).read(name + "()/$count?"
                + query("asOf", anHourAgo));

        for (RawTableClient.Response r : List.of(noHistory, noHistoryGet, beforeHorizon, future, malformed,
                countBefore)) {
            assertThat(r.status()).as(r.body()).isEqualTo(400);
            assertThat(r.errorCode()).isEqualTo("InvalidQueryParameterValue");
            assertThat(r.json()).containsKey("odata.error");
        }
        assertThat(noHistory.body()).contains("HistoryRetentionInSeconds");
        assertThat(beforeHorizon.body()).contains("retention horizon");
        assertThat(future.body()).contains("future");
        // the same reads without asOf are unchanged
        assertThat(RawTableClient.to(server).read(name + "()").rows()).hasSize(1);
        assertThat(RawTableClient.to(server).read(plain.getTableName() + "(PartitionKey='p',RowKey='r')").status())
                .isEqualTo(200);
    }

    /**
     * The cost target at a smaller size than its 1M entities: a scan of 20,000 entities (a filter no
     * entity matches, so every row is examined) as of now, against the same scan without {@code asOf},
     * medians of 7, at most 3 times as long (the target is 2; the rest is room for a shared machine).
     * Opt-in ({@code -Dpit.measure=true}):
     * its 20,000 writes would fill the change feed that later tests of the same server read from
     * its beginning within a record budget.
     */
    @Test
    @org.junit.jupiter.api.condition.EnabledIfSystemProperty(named = "pit.measure", matches = "true")
    void aPointInTimeScanCostsAboutWhatThePlainScanCosts(RunningServer server, TableServiceClient service)
            throws InterruptedException {
        String name = EntityHistoryIT.givenTableWithHistory(server, 3600);
        TableClient table = service.getTableClient(name);
        for (int pk = 0; pk < 200; pk++) {
            List<com.azure.data.tables.models.TableTransactionAction> batch = new ArrayList<>();
            for (int rk = 0; rk < 100; rk++) {
                batch.add(new com.azure.data.tables.models.TableTransactionAction(
                        com.azure.data.tables.models.TableTransactionActionType.CREATE,
                        new TableEntity("p" + pk, "r" + rk).addProperty("N", rk).addProperty("Pad", "x".repeat(100))));
            }
            table.submitTransaction(batch);
        }
        Thread.sleep(20);
        String asOf = Instant.now().toString();
        long[] plain = new long[7];
        long[] pointInTime = new long[7];
        for (int i = 0; i < plain.length; i++) {
            plain[i] = timedScan(server, name, null);
            pointInTime[i] = timedScan(server, name, asOf);
        }
        java.util.Arrays.sort(plain);
        java.util.Arrays.sort(pointInTime);
        double ratio = (double) pointInTime[3] / plain[3];
        System.out.printf("scan of 20,000 entities examining all: plain median %.1f ms, asOf median %.1f ms (x%.2f)%n",
                plain[3] / 1e6, pointInTime[3] / 1e6, ratio);
        // about the same: within the documented target (x2) plus room for a shared machine's noise
        assertThat(ratio).as("asOf scan median / plain scan median").isLessThanOrEqualTo(3.0);
    }

    /** Nanoseconds to scan the whole table with a filter nothing matches, following continuations. */
    private static long timedScan(RunningServer server, String table, String asOf) {
        long start = System.nanoTime();
        String nextPk = null;
        String nextRk = null;
        int pages = 0;
        do {
            List<String> q = new ArrayList<>(List.of("$filter", "N eq -1"));
            if (asOf != null) {
                q.addAll(List.of("asOf", asOf));
            }
            if (nextPk != null) {
                q.addAll(List.of("NextPartitionKey", nextPk, "NextRowKey", nextRk));
            }
            RawTableClient.Response r = RawTableClient.to(server).read(table + "()?" + query(q.toArray(String[]::new)));
            assertThat(r.status()).as(r.body()).isEqualTo(200);
            assertThat(r.rows()).isEmpty();
            nextPk = r.header("x-ms-continuation-NextPartitionKey");
            nextRk = r.header("x-ms-continuation-NextRowKey");
            pages++;
        } while (nextPk != null && pages < 1_000);
        return System.nanoTime() - start;
    }

    /** Every entity of the table as of {@code asOf} (now when null), "pk/rk" to its V and W, 5 a page. */
    private static Map<String, String> scan(RunningServer server, String table, String asOf, List<Integer> pageSizes) {
        Map<String, String> seen = new TreeMap<>();
        String nextPk = null;
        String nextRk = null;
        int pages = 0;
        do {
            List<String> q = new ArrayList<>(List.of("$top", "5"));
            if (asOf != null) {
                q.addAll(List.of("asOf", asOf));
            }
            if (nextPk != null) {
                q.addAll(List.of("NextPartitionKey", nextPk, "NextRowKey", nextRk));
            }
            RawTableClient.Response r = RawTableClient.to(server).read(table + "()?" + query(q.toArray(String[]::new)));
            assertThat(r.status()).as(r.body()).isEqualTo(200);
            List<Map<String, Object>> rows = r.rows();
            pageSizes.add(rows.size());
            for (Map<String, Object> row : rows) {
                String value = "V=" + row.get("V") + (row.containsKey("W") ? ",W=" + row.get("W") : "");
                assertThat(seen.put(row.get("PartitionKey") + "/" + row.get("RowKey"), value)).as("repeated").isNull();
            }
            nextPk = r.header("x-ms-continuation-NextPartitionKey");
            nextRk = r.header("x-ms-continuation-NextRowKey");
            pages++;
        } while (nextPk != null && pages < 20);
        return seen;
    }

    private static RawTableClient.Response getAsOf(RunningServer server, String table, String pk, String rk,
                                                   String asOf) {
        return RawTableClient.to(server).read(table + "(PartitionKey='" + pk + "',RowKey='" + rk + "')?"
                + query("asOf", asOf));
    }

    /** The time an ETag names (the SDK hands its header over without the closing quote). */
    private static String time(String etag) {
        int open = etag.indexOf('\'');
        return URLDecoder.decode(etag.substring(open + 1, etag.indexOf('\'', open + 1)), StandardCharsets.UTF_8);
    }

    /** The latest of some ETags' times, as an ISO UTC time. */
    private static String latest(Iterable<String> etags) {
        String latest = null;
        for (String etag : etags) {
            String time = time(etag);
            if (latest == null || Instant.parse(time).isAfter(Instant.parse(latest))) {
                latest = time;
            }
        }
        return latest;
    }
}
