package io.tablestream.server.jobs;

import static io.tablestream.server.RawTableClient.query;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.sas.TableAccountSasPermission;
import com.azure.data.tables.sas.TableAccountSasResourceType;
import com.azure.data.tables.sas.TableAccountSasService;
import com.azure.data.tables.sas.TableAccountSasSignatureValues;
import com.azure.data.tables.sas.TableSasPermission;
import com.azure.data.tables.sas.TableSasSignatureValues;
import io.tablestream.server.IndexRequests;
import io.tablestream.server.JobRequests;
import io.tablestream.server.RawTableClient;
import io.tablestream.server.TablestreamServerExtension;
import io.tablestream.server.TablestreamServerExtension.RunningServer;
import io.tablestream.server.queries.TableFixtures;
import io.tablestream.testsupport.KafkaExtension;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Jobs over raw HTTP (the official SDK cannot send a restore or a deletion by filter; its reads are
 * used to check the results): a restore to a point in time creates a table holding exactly what
 * the source held then, with the source's settings; a deletion by filter deletes what matched,
 * each deletion in the table's history and change feed under the job; both are followed through
 * {@code $jobs}; each is authorized like the operations it resembles; and the requests they extend
 * get the service's answers as before.
 */
@ExtendWith({KafkaExtension.class, TablestreamServerExtension.class})
class JobsIT {
    private static final Duration DONE = Duration.ofSeconds(60);

    private static String now() {
        return OffsetDateTime.now(ZoneOffset.UTC).toString();
    }

    private static void pause() {
        try {
            Thread.sleep(20); // the next write's Timestamp is later than the time just read
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Every entity as "pk/rk" → its properties, each value with its Java type (so Edm types are compared). */
    private static Map<String, Map<String, String>> typed(Iterable<TableEntity> entities) {
        Map<String, Map<String, String>> out = new TreeMap<>();
        for (TableEntity e : entities) {
            Map<String, String> props = new TreeMap<>();
            e.getProperties().forEach((name, value) -> {
                if (!name.equals("Timestamp") && !name.startsWith("odata.")) {
                    String v = value instanceof byte[] b ? Base64.getEncoder().encodeToString(b) : String.valueOf(value);
                    props.put(name, value.getClass().getSimpleName() + ":" + v);
                }
            });
            out.put(e.getPartitionKey() + "/" + e.getRowKey(), props);
        }
        return out;
    }

    private static TableEntity entity(int i) {
        return new TableEntity("p" + i % 5, String.format("r%03d", i)).addProperty("N", i)
                .addProperty("L", (long) i << 33).addProperty("D", i / 4.0).addProperty("B", i % 2 == 0)
                .addProperty("S", "s" + i).addProperty("G", new UUID(7, i))
                .addProperty("T", OffsetDateTime.of(2024, 1, 1, 0, 0, 0, i * 1000, ZoneOffset.UTC))
                .addProperty("Bin", new byte[] {(byte) i, 1, 2});
    }

    @Test
    void aRestoreAsOfATimeHoldsWhatTheSourceHeldThenWithItsSettings(RunningServer server, TableServiceClient service) {
        RawTableClient raw = RawTableClient.to(server);
        String name = TableFixtures.uniqueName("Orders");
        assertThat(raw.send("POST", "Tables", "{\"TableName\":\"" + name
                + "\",\"HistoryRetentionInSeconds\":3600,\"TTLInSeconds\":86400}").status()).isEqualTo(201);
        assertThat(new IndexRequests(raw).create(name, "ByN", "N").status()).isEqualTo(201);
        TableClient source = service.getTableClient(name);
        List<TableEntity> all = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            all.add(entity(i));
        }
        TableFixtures.insertAll(source, all);
        pause();
        String asOf = now();
        Map<String, Map<String, String>> then = typed(source.listEntities());
        pause();
        for (int i = 0; i < 10; i++) {
            source.deleteEntity("p" + i % 5, String.format("r%03d", i));
        }
        source.upsertEntity(new TableEntity("p1", "r011").addProperty("N", "changed"));
        source.createEntity(new TableEntity("p9", "later"));
        String target = TableFixtures.uniqueName("Then");

        RawTableClient.Response accepted = new JobRequests(raw).restore(name, target, asOf);

        String id = JobRequests.jobId(accepted);
        assertThat(accepted.json()).containsEntry("Kind", "Restore").containsEntry("Table", name)
                .containsEntry("State", "Running").containsEntry("Target", target);
        // the new table is there at once (it fills as the job runs)
        assertThat(raw.read("Tables('" + target + "')").status()).isEqualTo(200);
        Map<String, Object> done = new JobRequests(raw).awaitFinished(id, DONE);
        assertThat(done).containsEntry("State", "Completed").containsEntry("Error", null);
        assertThat(entities(done)).isEqualTo(60);
        assertThat(done.get("FinishedAt")).isNotNull();
        assertThat(typed(service.getTableClient(target).listEntities())).isEqualTo(then);
        Map<String, Object> settings = raw.read("Tables('" + target + "')", "Accept",
                "application/json;odata=nometadata").json();
        assertThat(((Number) settings.get("TTLInSeconds")).intValue()).isEqualTo(86400);
        assertThat(((Number) settings.get("HistoryRetentionInSeconds")).intValue()).isEqualTo(3600);
        assertThat(raw.read(target + "?comp=indexes").body()).contains("ByN");
        // each restored entity's history says who restored it, and which job
        List<Map<String, Object>> versions = raw.read(target + "(PartitionKey='p3',RowKey='r013')/$history").rows();
        assertThat(versions).hasSize(1);
        assertThat(versions.get(0)).containsEntry("Operation", "Inserted").containsEntry("CommandId", id);
        assertThat((String) versions.get(0).get("Principal")).contains("devstoreaccount1");
        assertThat(raw.read("$jobs").rows()).extracting(j -> j.get("Id")).contains(id);
    }

    @Test
    void aRestoreWithoutAsOfCopiesATableWithoutHistoryAsItIs(RunningServer server, TableServiceClient service) {
        TableClient source = TableFixtures.givenTable(service, "Plain");
        List<TableEntity> all = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            all.add(entity(i));
        }
        TableFixtures.insertAll(source, all);
        String target = TableFixtures.uniqueName("Copy");
        JobRequests jobs = new JobRequests(RawTableClient.to(server));

        String id = JobRequests.jobId(jobs.restore(source.getTableName(), target, null));

        Map<String, Object> done = jobs.awaitFinished(id, DONE);
        assertThat(done).containsEntry("State", "Completed").containsEntry("AsOf", null);
        assertThat(entities(done)).isEqualTo(40);
        assertThat(typed(service.getTableClient(target).listEntities())).isEqualTo(typed(source.listEntities()));
    }

    @Test
    void aRestoreIsRefusedWithTheServicesErrors(RunningServer server, TableServiceClient service) {
        RawTableClient raw = RawTableClient.to(server);
        JobRequests jobs = new JobRequests(raw);
        String withHistory = TableFixtures.givenTableWithHistory(server, 3600);
        String plain = TableFixtures.givenTable(service, "Plain").getTableName();
        String taken = TableFixtures.givenTable(service, "Taken").getTableName();
        String fresh = TableFixtures.uniqueName("Fresh");

        assertError(jobs.restore(TableFixtures.uniqueName("Missing"), fresh, null), 404, "TableNotFound");
        assertError(jobs.restore(plain, taken.toUpperCase(), null), 409, "TableAlreadyExists");
        assertError(jobs.restore(plain, plain, null), 409, "TableAlreadyExists");
        assertError(jobs.restore(withHistory, fresh, "2020-01-01T00:00:00Z"), 400, "InvalidInput");
        assertError(jobs.restore(withHistory, fresh, OffsetDateTime.now(ZoneOffset.UTC).plusHours(1).toString()), 400,
                "InvalidInput");
        assertError(jobs.restore(withHistory, fresh, "yesterday"), 400, "InvalidInput");
        assertError(jobs.restore(plain, fresh, now()), 400, "InvalidInput"); // no history to restore from
        assertError(jobs.restore(plain, "1bad", null), 400, "InvalidResourceName");
        assertError(raw.send("POST", plain + "()/$restore", "{\"AsOf\":null}"), 400, "InvalidInput");
        assertError(raw.send("GET", plain + "()/$restore", null), 405, "UnsupportedHttpVerb");
        // a service SAS cannot create tables; an account SAS needs to create and to read
        OffsetDateTime expiry = OffsetDateTime.now(ZoneOffset.UTC).plusHours(1);
        String tableSas = service.getTableClient(plain).generateSas(new TableSasSignatureValues(expiry,
                TableSasPermission.parse("raud")));
        RawTableClient unsigned = raw.signing(RawTableClient.Signing.NONE);
        String body = "{\"TableName\":\"" + fresh + "\"}";
        assertThat(unsigned.send("POST", plain + "()/$restore?" + tableSas, body).status()).isEqualTo(403);
        assertThat(unsigned.send("POST", plain + "()/$restore?" + accountSas(server, "rl", "co"), body).status())
                .isEqualTo(403);
        assertThat(raw.read("Tables('" + fresh + "')").status()).isEqualTo(404);
        String id = JobRequests.jobId(unsigned.send("POST", plain + "()/$restore?" + accountSas(server, "rc", "co"),
                body));
        assertThat(jobs.awaitFinished(id, DONE)).containsEntry("State", "Completed");
    }

    @Test
    void aDeletionByFilterDeletesWhatMatchedEachUnderTheJob(RunningServer server, TableServiceClient service) {
        RawTableClient raw = RawTableClient.to(server);
        String name = TableFixtures.givenTableWithHistory(server, 3600);
        TableClient table = service.getTableClient(name);
        List<TableEntity> all = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            all.add(new TableEntity("p" + i % 7, String.format("r%03d", i)).addProperty("N", i));
        }
        TableFixtures.insertAll(table, all);
        JobRequests jobs = new JobRequests(raw);

        RawTableClient.Response accepted = jobs.deleteWhere(name, "N lt 100 or RowKey eq 'r299'", null);

        String id = JobRequests.jobId(accepted);
        assertThat(accepted.json()).containsEntry("Kind", "DeleteEntities").containsEntry("Table", name)
                .containsEntry("Filter", "N lt 100 or RowKey eq 'r299'");
        Map<String, Object> done = jobs.awaitFinished(id, DONE);
        assertThat(done).containsEntry("State", "Completed");
        assertThat(entities(done)).isEqualTo(101);
        assertThat(raw.read(name + "()/$count").body().strip()).isEqualTo("199");
        assertThat(raw.read(name + "()/$count?" + query("$filter", "N lt 100")).body().strip()).isEqualTo("0");
        List<Map<String, Object>> versions = raw.read(name + "(PartitionKey='p0',RowKey='r007')/$history").rows();
        assertThat(versions.get(0)).containsEntry("Operation", "Deleted").containsEntry("CommandId", id);
        assertThat((String) versions.get(0).get("Principal")).contains("devstoreaccount1");
        List<Map<String, Object>> feed = raw.read(name + "()/$changes?from=beginning&$top=1000").rows();
        assertThat(feed.stream().filter(e -> "Deleted".equals(e.get("Operation")))).hasSize(101)
                .allMatch(e -> id.equals(e.get("CommandId")));
        assertThat(raw.read("$jobs").rows()).extracting(j -> j.get("Id")).contains(id);
    }

    @Test
    void aDeletionByFilterIsAuthorizedAsADeleteOfEveryMatchItMayTouch(RunningServer server,
                                                                     TableServiceClient service) {
        TableClient table = TableFixtures.givenTable(service, "SasDel");
        String name = table.getTableName();
        TableFixtures.insertAll(table, List.of(new TableEntity("a", "r1").addProperty("N", 1),
                new TableEntity("b", "r1").addProperty("N", 1), new TableEntity("b", "r2").addProperty("N", 2)));
        OffsetDateTime expiry = OffsetDateTime.now(ZoneOffset.UTC).plusHours(1);
        String readOnly = table.generateSas(new TableSasSignatureValues(expiry, TableSasPermission.parse("rau")));
        // PartitionKey b up to RowKey r5 (the SDK sets a RowKey bound with each PartitionKey bound)
        String partitionB = table.generateSas(new TableSasSignatureValues(expiry, TableSasPermission.parse("d"))
                .setStartPartitionKey("b").setStartRowKey("").setEndPartitionKey("b").setEndRowKey("r5"));
        JobRequests jobs = new JobRequests(RawTableClient.to(server).signing(RawTableClient.Signing.NONE));

        assertError(jobs.deleteWhere(name, "PartitionKey eq 'b'", readOnly), 403, "AuthorizationPermissionMismatch");
        assertError(jobs.deleteWhere(name, "N eq 1", partitionB), 403, "AuthorizationFailure");
        assertError(jobs.deleteWhere(name, "PartitionKey ge 'a' and N eq 1", partitionB), 403, "AuthorizationFailure");
        assertError(jobs.deleteWhere(name, "PartitionKey eq 'b' and N eq 1", partitionB), 403, "AuthorizationFailure");
        String id = JobRequests.jobId(jobs.deleteWhere(name, "PartitionKey eq 'b' and RowKey le 'r5' and N eq 1",
                partitionB));

        assertThat(entities(new JobRequests(RawTableClient.to(server)).awaitFinished(id, DONE))).isEqualTo(1);
        assertThat(TableFixtures.keysOf(table.listEntities())).containsExactly("a/r1", "b/r2");
        // the SAS for the job's table reads the job's status
        assertThat(RawTableClient.to(server).signing(RawTableClient.Signing.NONE).read("$jobs/" + id + "?" + partitionB)
                .status()).isEqualTo(200);
    }

    @Test
    void theRequestsJobsExtendAnswerAsTheServiceDoes(RunningServer server, TableServiceClient service) {
        RawTableClient raw = RawTableClient.to(server);
        TableClient table = TableFixtures.givenTable(service, "Plain");
        table.createEntity(new TableEntity("p", "r").addProperty("N", 1));
        String name = table.getTableName();

        assertError(raw.send("DELETE", name + "()", null), 400, "MissingRequiredQueryParameter");
        assertError(raw.send("DELETE", name + "()?" + query("$filter", "N eq"), null), 400, "InvalidInput");
        assertError(raw.send("DELETE", name + "()?" + query("$filter", "N eq 1", "$top", "5"), null), 400,
                "InvalidQueryParameterValue");
        assertError(new JobRequests(raw).deleteWhere(TableFixtures.uniqueName("Missing"), "N eq 1", null), 404,
                "TableNotFound");
        assertThat(table.getEntity("p", "r")).isNotNull();
        assertError(raw.read("$jobs/" + UUID.randomUUID()), 404, "JobNotFound");
        assertError(raw.send("DELETE", "$jobs", null), 405, "UnsupportedHttpVerb");
        // Delete Table is what it was
        assertThat(raw.send("DELETE", "Tables('" + name + "')", null).status()).isEqualTo(204);
        assertError(raw.send("DELETE", "Tables('" + name + "')", null), 404, "ResourceNotFound");
    }

    private static long entities(Map<String, Object> job) {
        return ((Number) job.get("Entities")).longValue();
    }

    private static String accountSas(RunningServer server, String permissions, String resourceTypes) {
        return server.client().generateAccountSas(new TableAccountSasSignatureValues(
                OffsetDateTime.now(ZoneOffset.UTC).plusHours(1), TableAccountSasPermission.parse(permissions),
                TableAccountSasService.parse("t"), TableAccountSasResourceType.parse(resourceTypes)));
    }

    private static void assertError(RawTableClient.Response r, int status, String code) {
        assertThat(r.status()).as(r.body()).isEqualTo(status);
        assertThat(r.errorCode()).as(r.body()).isEqualTo(code);
    }
}
