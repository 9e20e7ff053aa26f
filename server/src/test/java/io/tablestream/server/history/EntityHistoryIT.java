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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The entity history over HTTP ({@code GET <table>(PartitionKey='p',RowKey='r')/$history}) of a
 * table created with {@code HistoryRetentionInSeconds}: every version with its operation,
 * Timestamp, ETag and principal, newest first, paged; a table created without it keeps none.
 */
@ExtendWith({KafkaExtension.class, TablestreamServerExtension.class})
class EntityHistoryIT {

    /** A table created through raw HTTP with the history extension. */
    static String givenTableWithHistory(RunningServer server, int retentionSeconds) {
        return TableFixtures.givenTableWithHistory(server, retentionSeconds);
    }

    static RawTableClient.Response history(RunningServer server, String table, String pk, String rk, String q) {
        return RawTableClient.to(server).read(table + "(PartitionKey='" + pk + "',RowKey='" + rk + "')/$history"
                + (q == null ? "" : "?" + q));
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> versions(RawTableClient.Response r) {
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return (List<Map<String, Object>>) r.json().get("value");
    }

    @Test
    void everyVersionComesNewestFirstWithOperationTimestampETagAndPrincipal(RunningServer server,
                                                                             TableServiceClient service) {
        String name = givenTableWithHistory(server, 3600);
        TableClient table = service.getTableClient(name);
        List<String> etags = new ArrayList<>();
        etags.add(table.createEntityWithResponse(new TableEntity("p", "r").addProperty("V", 1), null, null)
                .getHeaders().getValue("ETag"));
        etags.add(table.updateEntityWithResponse(new TableEntity("p", "r").addProperty("V", 2),
                TableEntityUpdateMode.REPLACE, false, null, null).getHeaders().getValue("ETag"));
        etags.add(table.updateEntityWithResponse(new TableEntity("p", "r").addProperty("W", 3),
                TableEntityUpdateMode.MERGE, false, null, null).getHeaders().getValue("ETag"));
        table.deleteEntity("p", "r");
        table.createEntity(new TableEntity("p", "other"));

        List<Map<String, Object>> versions = versions(history(server, name, "p", "r", null));

        assertThat(versions).extracting(v -> v.get("Operation"))
                .containsExactly("Deleted", "Merged", "Replaced", "Inserted");
        assertThat(versions).extracting(v -> tagTime((String) v.get("ETag")))
                .containsExactly(null, tagTime(etags.get(2)), tagTime(etags.get(1)), tagTime(etags.get(0)));
        assertThat(versions).allSatisfy(v -> {
            assertThat((String) v.get("Principal")).contains("devstoreaccount1");
            assertThat(v.get("CommandId")).isNotNull();
            assertThat(v.get("RowKey")).isEqualTo("r");
        });
        List<String> times = versions.stream().map(v -> (String) v.get("Timestamp")).toList();
        assertThat(times).isSortedAccordingTo((a, b) -> b.compareTo(a)).doesNotHaveDuplicates();
        Map<String, Object> merged = cast(versions.get(1).get("Entity"));
        assertThat(merged).containsEntry("V", 2).containsEntry("W", 3).containsEntry("Timestamp", times.get(1));
        assertThat(versions.get(0).get("Entity")).isNull();
    }

    @Test
    void pagesWithTopAndNextVersionWithoutSkippingOrRepeating(RunningServer server, TableServiceClient service) {
        String name = givenTableWithHistory(server, 3600);
        TableClient table = service.getTableClient(name);
        for (int i = 0; i < 7; i++) {
            table.upsertEntity(new TableEntity("p", "r").addProperty("N", i));
        }
        List<Object> seen = new ArrayList<>();
        String next = null;
        int pages = 0;
        do {
            RawTableClient.Response r = history(server, name, "p", "r",
                    query("$top", "3") + (next == null ? "" : "&" + query("NextVersion", next)));
            List<Map<String, Object>> page = versions(r);
            assertThat(page).hasSizeLessThanOrEqualTo(3);
            page.forEach(v -> seen.add(cast(v.get("Entity")).get("N")));
            next = r.header("x-ms-continuation-NextVersion");
            pages++;
        } while (next != null && pages < 10);

        assertThat(seen).containsExactly(6, 5, 4, 3, 2, 1, 0);
        assertThat(pages).isEqualTo(3);
    }

    @Test
    void anEntityWithoutVersionsHasAnEmptyHistory(RunningServer server) {
        String name = givenTableWithHistory(server, 3600);

        assertThat(versions(history(server, name, "p", "never", null))).isEmpty();
    }

    @Test
    void aTableWithoutHistoryAnswers404SayingHowToKeepOne(RunningServer server, TableServiceClient service) {
        TableClient table = TableFixtures.givenTable(service, "NoHistory");
        table.createEntity(new TableEntity("p", "r"));

        RawTableClient.Response r = history(server, table.getTableName(), "p", "r", null);

        assertThat(r.status()).isEqualTo(404);
        assertThat(r.errorCode()).isEqualTo("ResourceNotFound");
        assertThat(r.body()).contains("HistoryRetentionInSeconds");
    }

    @Test
    void aBadRetentionOrContinuationIsRefused(RunningServer server) {
        RawTableClient.Response create = RawTableClient.to(server).send("POST", "Tables",
                "{\"TableName\":\"" + TableFixtures.uniqueName("Bad") + "\",\"HistoryRetentionInSeconds\":0}",
                "Content-Type", "application/json");
        String name = givenTableWithHistory(server, 60);
        RawTableClient.Response badNext = history(server, name, "p", "r", query("NextVersion", "soon"));

        assertThat(create.status()).isEqualTo(400);
        assertThat(create.body()).contains("HistoryRetentionInSeconds");
        assertThat(badNext.status()).isEqualTo(400);
        assertThat(RawTableClient.to(server).send("DELETE",
                name + "(PartitionKey='p',RowKey='r')/$history", null).status()).isEqualTo(405);
    }

    /**
     * The target, recorded (not asserted: the machine is shared): the first page of the
     * history of an entity with 1,000 versions.
     */
    @Test
    void firstPageOfAThousandVersions(RunningServer server, TableServiceClient service) {
        String name = givenTableWithHistory(server, 3600);
        TableClient table = service.getTableClient(name);
        for (int i = 0; i < 1_000; i++) {
            table.upsertEntity(new TableEntity("p", "r").addProperty("N", i).addProperty("Pad", "x".repeat(100)));
        }
        String q = query("$top", "100");
        for (int i = 0; i < 20; i++) {
            history(server, name, "p", "r", q); // warm up
        }
        long[] nanos = new long[200];
        for (int i = 0; i < nanos.length; i++) {
            long start = System.nanoTime();
            RawTableClient.Response r = history(server, name, "p", "r", q);
            nanos[i] = System.nanoTime() - start;
            assertThat(versions(r)).hasSize(100);
        }
        Arrays.sort(nanos);
        System.out.printf("history of 1,000 versions, first page of 100: p50 %.2f ms, p99 %.2f ms%n",
                nanos[nanos.length / 2] / 1e6, nanos[nanos.length * 99 / 100] / 1e6);
        RawTableClient.Response all = history(server, name, "p", "r", null);
        assertThat(versions(all)).hasSize(1_000);
        assertThat(cast(versions(all).get(0).get("Entity")).get("N")).isEqualTo(999);
    }

    /** The time an ETag names (the SDK hands its header over without the closing quote). */
    private static String tagTime(String etag) {
        if (etag == null) {
            return null;
        }
        int open = etag.indexOf('\'');
        return etag.substring(open + 1, etag.indexOf('\'', open + 1));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> cast(Object o) {
        return (Map<String, Object>) o;
    }
}
