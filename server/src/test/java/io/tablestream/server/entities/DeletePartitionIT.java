package io.tablestream.server.entities;

import static io.tablestream.server.RawTableClient.query;
import static io.tablestream.testsupport.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.sas.TableSasPermission;
import com.azure.data.tables.sas.TableSasSignatureValues;
import io.tablestream.server.IndexRequests;
import io.tablestream.server.RawTableClient;
import io.tablestream.server.MetricsScrape;
import io.tablestream.server.ServiceErrors;
import io.tablestream.server.TablestreamServerExtension.RunningServer;
import io.tablestream.server.TablestreamServerExtension;
import io.tablestream.server.queries.TableFixtures;
import io.tablestream.testsupport.KafkaExtension;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Delete Partition ({@code DELETE <table>(PartitionKey='p')/$partition}, an extension) over HTTP:
 * the partition's entities are gone for every read at once (point reads, queries, counts, index
 * reads), other partitions stay, later writes to the partition work and outlive the background
 * sweep, and it is authorized as a delete of every entity of the partition.
 */
@ExtendWith({KafkaExtension.class, TablestreamServerExtension.class})
class DeletePartitionIT {

    static RawTableClient.Response deletePartition(RawTableClient client, String table, String partitionKey,
                                                   String... headers) {
        return client.send("DELETE", table + "(PartitionKey='" + partitionKey + "')/$partition", null, headers);
    }

    static long count(RunningServer server, String table, String filter) {
        RawTableClient.Response r = RawTableClient.to(server).read(table + "()/$count"
                + (filter == null ? "" : "?" + query("$filter", filter)));
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return Long.parseLong(r.body().strip());
    }

    /** Rows of deleted tables and partitions the server's sweep has removed so far. */
    private static double swept(RunningServer server) {
        return MetricsScrape.value(server, "tablestream_rows_swept_total");
    }

    private static List<TableEntity> rows(String pk, int n) {
        List<TableEntity> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new TableEntity(pk, String.format("r%04d", i)).addProperty("Color", i % 2 == 0 ? "red" : "blue"));
        }
        return out;
    }

    @Test
    void aPartitionsEntitiesAreGoneForEveryReadAtOnceAndOtherPartitionsStay(RunningServer server,
                                                                             TableServiceClient service) {
        TableClient table = TableFixtures.givenTable(service, "PartDel");
        String name = table.getTableName();
        IndexRequests indexes = new IndexRequests(RawTableClient.to(server));
        assertThat(indexes.create(name, "byColor", "Color").status()).isEqualTo(201);
        List<TableEntity> all = new ArrayList<>(rows("doomed", 250));
        all.addAll(rows("kept", 30));
        TableFixtures.insertAll(table, all);
        indexes.awaitReady(name, "byColor", Duration.ofSeconds(30));
        assertThat(count(server, name, null)).isEqualTo(280);

        RawTableClient.Response r = deletePartition(RawTableClient.to(server), name, "doomed");

        assertThat(r.status()).as(r.body()).isEqualTo(204);
        assertThat(r.header("x-ms-session-token")).isNotNull();
        ServiceErrors.assertHttpError(404, "ResourceNotFound", () -> table.getEntity("doomed", "r0000"));
        assertThat(table.listEntities(new ListEntitiesOptions().setFilter("PartitionKey eq 'doomed'"), null, null)
                .stream()).isEmpty();
        assertThat(TableFixtures.keysOf(table.listEntities())).hasSize(30).allMatch(k -> k.startsWith("kept/"));
        assertThat(count(server, name, null)).isEqualTo(30);
        assertThat(count(server, name, "PartitionKey eq 'doomed'")).isZero();
        // read through the index: only the kept partition's rows
        RawTableClient.Response viaIndex = RawTableClient.to(server).read(name + "()?"
                + query("$filter", "Color eq 'red'"));
        assertThat(viaIndex.header("x-tablestream-index")).isEqualTo("byColor");
        assertThat((List<?>) viaIndex.json().get("value")).hasSize(15);
    }

    @Test
    void writesAfterTheDeletionWorkAndOutliveTheSweep(RunningServer server, TableServiceClient service)
            throws InterruptedException {
        TableClient table = TableFixtures.givenTable(service, "PartDel");
        String name = table.getTableName();
        TableFixtures.insertAll(table, rows("p", 120));
        double sweptBefore = swept(server);

        assertThat(deletePartition(RawTableClient.to(server), name, "p").status()).isEqualTo(204);
        // the same key again: an insert, not a conflict; a delete of an old row: not found
        table.createEntity(new TableEntity("p", "r0000").addProperty("Color", "green"));
        table.createEntity(new TableEntity("p", "new"));
        assertThat(RawTableClient.to(server).send("DELETE", name + "(PartitionKey='p',RowKey='r0001')", null,
                "If-Match", "*").status()).isEqualTo(404);
        // a second deletion takes the later rows too; a third of an empty partition is fine
        assertThat(deletePartition(RawTableClient.to(server), name, "p").status()).isEqualTo(204);
        assertThat(count(server, name, null)).isZero();
        assertThat(deletePartition(RawTableClient.to(server), name, "p").status()).isEqualTo(204);
        table.createEntity(new TableEntity("p", "r0002").addProperty("Color", "blue"));

        // the sweep (every 0.5 s on the test server) removes the 120 rows written before the deletions
        eventually("the deleted partition swept", () -> swept(server) >= sweptBefore + 120, Duration.ofSeconds(30));

        assertThat(TableFixtures.keysOf(table.listEntities())).containsExactly("p/r0002");
        assertThat(table.getEntity("p", "r0002").getProperty("Color")).isEqualTo("blue");
        assertThat(count(server, name, null)).isEqualTo(1);
    }

    @Test
    void isAuthorizedAsADeleteOfTheWholePartition(RunningServer server, TableServiceClient service) {
        TableClient table = TableFixtures.givenTable(service, "PartDel");
        String name = table.getTableName();
        TableFixtures.insertAll(table, List.of(new TableEntity("a", "r1"), new TableEntity("b", "r1"),
                new TableEntity("c", "r1")));
        OffsetDateTime expiry = OffsetDateTime.now(ZoneOffset.UTC).plusHours(1);
        String readOnly = table.generateSas(new TableSasSignatureValues(expiry, TableSasPermission.parse("rau")));
        // b whole (from b and any RowKey up to c/r0), c only up to its RowKey r0: b may go, a and c may not
        String bWhole = table.generateSas(new TableSasSignatureValues(expiry, TableSasPermission.parse("d"))
                .setStartPartitionKey("b").setStartRowKey("").setEndPartitionKey("c").setEndRowKey("r0"));
        String partOfB = table.generateSas(new TableSasSignatureValues(expiry, TableSasPermission.parse("d"))
                .setStartPartitionKey("b").setStartRowKey("r5").setEndPartitionKey("c").setEndRowKey("r0"));
        RawTableClient raw = RawTableClient.to(server).signing(RawTableClient.Signing.NONE);

        assertThat(raw.send("DELETE", name + "(PartitionKey='b')/$partition?" + readOnly, null).status()).isEqualTo(403);
        assertThat(raw.send("DELETE", name + "(PartitionKey='b')/$partition?" + partOfB, null).status()).isEqualTo(403);
        assertThat(raw.send("DELETE", name + "(PartitionKey='a')/$partition?" + bWhole, null).status()).isEqualTo(403);
        assertThat(raw.send("DELETE", name + "(PartitionKey='c')/$partition?" + bWhole, null).status()).isEqualTo(403);
        assertThat(TableFixtures.keysOf(table.listEntities())).containsExactly("a/r1", "b/r1", "c/r1");

        assertThat(raw.send("DELETE", name + "(PartitionKey='b')/$partition?" + bWhole, null).status()).isEqualTo(204);
        assertThat(TableFixtures.keysOf(table.listEntities())).containsExactly("a/r1", "c/r1");
    }

    @Test
    void otherFormsAreAzuresErrorsAndAsyncIsAccepted(RunningServer server, TableServiceClient service) {
        TableClient table = TableFixtures.givenTable(service, "PartDel");
        String name = table.getTableName();
        table.createEntity(new TableEntity("p", "r"));
        RawTableClient raw = RawTableClient.to(server);

        // the Azure form without a RowKey is what it was: not a resource
        assertThat(raw.send("DELETE", name + "(PartitionKey='p')", null).status()).isEqualTo(400);
        assertThat(raw.read(name + "(PartitionKey='p')/$partition").status()).isEqualTo(405);
        assertThat(raw.send("DELETE", name + "(RowKey='p')/$partition", null).status()).isEqualTo(400);
        assertThat(raw.send("DELETE", name + "(PartitionKey='a%2Fb')/$partition", null).status()).isEqualTo(400);
        RawTableClient.Response missing = deletePartition(raw, TableFixtures.uniqueName("Missing"), "p");
        assertThat(missing.status()).isEqualTo(404);
        assertThat(missing.header("x-ms-error-code")).isEqualTo("TableNotFound");
        assertThat(table.getEntity("p", "r")).isNotNull();

        RawTableClient.Response async = deletePartition(raw, name, "p", "Prefer", "respond-async");
        assertThat(async.status()).isEqualTo(202);
        // read-your-writes with the session token
        RawTableClient.Response after = raw.read(name + "()/$count", "x-ms-session-token",
                async.header("x-ms-session-token"));
        assertThat(after.body().strip()).isEqualTo("0");
    }

    @Test
    void aPointInTimeReadBeforeTheDeletionSeesThePartitionAndHistoryShowsIt(RunningServer server,
                                                                            TableServiceClient service)
            throws InterruptedException {
        String name = TableFixtures.givenTableWithHistory(server, 3600);
        TableClient table = service.getTableClient(name);
        table.createEntity(new TableEntity("p", "r").addProperty("V", 1));
        table.createEntity(new TableEntity("p", "gone").addProperty("V", 1));
        table.deleteEntity("p", "gone");
        table.createEntity(new TableEntity("q", "r").addProperty("V", 1));
        Thread.sleep(20);
        String before = OffsetDateTime.now(ZoneOffset.UTC).toString();
        Thread.sleep(20);
        assertThat(deletePartition(RawTableClient.to(server), name, "p").status()).isEqualTo(204);
        Thread.sleep(20);
        String between = OffsetDateTime.now(ZoneOffset.UTC).toString();
        Thread.sleep(20);
        table.createEntity(new TableEntity("p", "r").addProperty("V", 2));
        RawTableClient raw = RawTableClient.to(server);

        RawTableClient.Response then = raw.read(name + "(PartitionKey='p',RowKey='r')?" + query("asOf", before));
        assertThat(then.status()).as(then.body()).isEqualTo(200);
        assertThat(then.json()).containsEntry("V", 1);
        assertThat(raw.read(name + "(PartitionKey='p',RowKey='r')?" + query("asOf", between)).status()).isEqualTo(404);
        assertThat(raw.read(name + "()/$count?" + query("asOf", before)).body().strip()).isEqualTo("2");
        assertThat(raw.read(name + "()/$count?" + query("asOf", between)).body().strip()).isEqualTo("1");
        assertThat(raw.read(name + "()/$count").body().strip()).isEqualTo("2");

        @SuppressWarnings("unchecked")
        List<Map<String, Object>> versions = (List<Map<String, Object>>) raw
                .read(name + "(PartitionKey='p',RowKey='r')/$history").json().get("value");
        assertThat(versions).extracting(v -> v.get("Operation"))
                .containsExactly("Inserted", "PartitionDeleted", "Inserted");
        assertThat(versions.get(1)).containsEntry("PartitionKey", "p").containsEntry("RowKey", null)
                .containsEntry("Entity", null);
        assertThat((String) versions.get(1).get("Principal")).contains("devstoreaccount1");
        // an entity deleted before the partition was: no PartitionDeleted version of its own
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> gone = (List<Map<String, Object>>) raw
                .read(name + "(PartitionKey='p',RowKey='gone')/$history").json().get("value");
        assertThat(gone).extracting(v -> v.get("Operation")).containsExactly("Deleted", "Inserted");
    }
}
