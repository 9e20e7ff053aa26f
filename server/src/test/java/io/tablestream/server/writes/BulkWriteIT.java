package io.tablestream.server.writes;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.sas.TableSasPermission;
import com.azure.data.tables.sas.TableSasSignatureValues;
import io.tablestream.server.RawTableClient;
import io.tablestream.server.ServiceErrors;
import io.tablestream.server.TablestreamServerExtension;
import io.tablestream.server.TablestreamServerExtension.RunningServer;
import io.tablestream.server.queries.TableFixtures;
import io.tablestream.testsupport.KafkaExtension;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Bulk Write ({@code POST <table>()/$bulk}, an extension) over raw HTTP, read back through the
 * official SDK: entities of any PartitionKeys, one per line, in each mode; a bad line fails alone;
 * {@code Prefer: respond-async}; the errors of the request as a whole; a SAS authorizes it as the
 * write of each entity.
 */
@ExtendWith({KafkaExtension.class, TablestreamServerExtension.class})
class BulkWriteIT {
    private static final String NDJSON = "application/x-ndjson";

    private static String line(String pk, String rk, String more) {
        return "{\"PartitionKey\":\"" + pk + "\",\"RowKey\":\"" + rk + "\"" + more + "}\n";
    }

    private static RawTableClient.Response bulk(RunningServer server, String target, String body, String... headers) {
        RawTableClient.Request r = RawTableClient.to(server).request("POST", target).contentType(NDJSON)
                .body(body.getBytes(StandardCharsets.UTF_8));
        for (int i = 0; i < headers.length; i += 2) {
            r.set(headers[i], headers[i + 1]);
        }
        return r.send();
    }

    private static List<String> failed(RawTableClient.Response r) {
        List<String> out = new ArrayList<>();
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> failed = (List<Map<String, Object>>) r.json().get("Failed");
        failed.forEach(f -> out.add(f.get("Line") + " " + f.get("Code")));
        return out;
    }

    private static long count(TableClient table) {
        return table.listEntities().stream().count();
    }

    @Test
    void entitiesOfManyPartitionKeysAreWrittenWithTheirTypesAndReadBackThroughTheSdk(TableServiceClient service,
                                                                                     RunningServer server) {
        TableClient table = TableFixtures.givenTable(service, "Bulk");
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < 1_000; i++) {
            body.append(line("device-" + (i % 100), String.format("%05d", i),
                    ",\"N\":" + i + ",\"Big@odata.type\":\"Edm.Int64\",\"Big\":\"" + (10_000_000_000L + i) + "\""
                            + ",\"At@odata.type\":\"Edm.DateTime\",\"At\":\"2026-01-02T03:04:05.1234567Z\""
                            + ",\"Id@odata.type\":\"Edm.Guid\",\"Id\":\"" + new UUID(0, i) + "\""));
        }

        RawTableClient.Response r = bulk(server, table.getTableName() + "()/$bulk", body.toString());

        assertThat(r.status()).as(r.body()).isEqualTo(200);
        assertThat(r.json()).containsEntry("Entities", 1_000);
        assertThat(failed(r)).isEmpty();
        assertThat(r.header("x-ms-session-token")).isNotNull();
        assertThat(count(table)).isEqualTo(1_000);
        TableEntity e = table.getEntity("device-17", "00317");
        assertThat(e.getProperty("N")).isEqualTo(317);
        assertThat(e.getProperty("Big")).isEqualTo(10_000_000_317L);
        assertThat(e.getProperty("At")).isEqualTo(OffsetDateTime.parse("2026-01-02T03:04:05.1234567Z"));
        assertThat(e.getProperty("Id")).isEqualTo(new UUID(0, 317));
        assertThat(table.listEntities(new ListEntitiesOptions().setFilter("PartitionKey eq 'device-5'"), null, null)
                .stream().count()).isEqualTo(10);
    }

    @Test
    void replaceMergeAndInsertWriteAsTheirSingleEntityOperations(TableServiceClient service, RunningServer server) {
        TableClient table = TableFixtures.givenTable(service, "BulkModes");
        table.createEntity(new TableEntity("p", "a").addProperty("Old", 1).addProperty("Kept", "x"));
        table.createEntity(new TableEntity("p", "b").addProperty("Old", 1).addProperty("Kept", "x"));
        String path = table.getTableName() + "()/$bulk";

        assertThat(bulk(server, path + "?mode=replace", line("p", "a", ",\"New\":2")).json()).containsEntry("Entities", 1);
        assertThat(bulk(server, path + "?mode=merge", line("p", "b", ",\"New\":2")).json()).containsEntry("Entities", 1);
        RawTableClient.Response insert = bulk(server, path + "?mode=insert",
                line("p", "a", "") + line("p", "c", "") + line("q", "c", ""));

        assertThat(table.getEntity("p", "a").getProperties()).containsKey("New").doesNotContainKeys("Old", "Kept");
        assertThat(table.getEntity("p", "b").getProperties()).containsKeys("New", "Old", "Kept");
        assertThat(insert.json()).containsEntry("Entities", 2);
        assertThat(failed(insert)).containsExactly("1 EntityAlreadyExists");
        assertThat(count(table)).isEqualTo(4);
    }

    @Test
    void aBadLineFailsAloneAndNamesItsLine(TableServiceClient service, RunningServer server) {
        TableClient table = TableFixtures.givenTable(service, "BulkBad");
        String body = line("p", "1", "") + "{\"PartitionKey\":\"p\",\"RowKey\":\n" + "\n" + line("p", "bad#key", "")
                + line("p", "2", ",\"Int@odata.type\":\"Edm.Int64\",\"Int\":5") + line("p", "3", "");

        RawTableClient.Response r = bulk(server, table.getTableName() + "()/$bulk", body);

        assertThat(r.status()).isEqualTo(200);
        assertThat(r.json()).containsEntry("Entities", 2);
        assertThat(failed(r)).containsExactly("2 InvalidInput", "4 OutOfRangeInput", "5 InvalidInput");
        assertThat(count(table)).isEqualTo(2);
    }

    @Test
    void respondAsyncIsAcceptedOnceTheLogHasEveryCommandAndItsTokenReadsThemAll(TableServiceClient service,
                                                                                RunningServer server) {
        TableClient table = TableFixtures.givenTable(service, "BulkAsync");
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < 500; i++) {
            body.append(line("k" + (i % 50), "r" + i, ""));
        }

        RawTableClient.Response r = bulk(server, table.getTableName() + "()/$bulk", body.toString(),
                "Prefer", "respond-async");

        assertThat(r.status()).as(r.body()).isEqualTo(202);
        assertThat(r.header("Preference-Applied")).isEqualTo("respond-async");
        assertThat(r.json()).containsEntry("Entities", 500);
        RawTableClient.Response read = RawTableClient.to(server).read(table.getTableName() + "()",
                "x-ms-session-token", r.header("x-ms-session-token"));
        assertThat(read.rows()).hasSize(500);
    }

    @Test
    void theRequestAsAWholeIsRefusedAsTheServiceRefusesAWrite(TableServiceClient service, RunningServer server) {
        TableClient table = TableFixtures.givenTable(service, "BulkRefused");
        String path = table.getTableName() + "()/$bulk";
        RawTableClient raw = RawTableClient.to(server);

        ServiceErrors.assertServiceError(raw.request("POST", path).body(line("p", "r", "")).send(), 415,
                "MediaTypeNotSupported");
        ServiceErrors.assertServiceError(bulk(server, path + "?mode=upsert", line("p", "r", "")), 400,
                "InvalidQueryParameterValue");
        ServiceErrors.assertServiceError(bulk(server, "Missing()/$bulk", line("p", "r", "")), 404, "TableNotFound");
        assertThat(raw.read(path).status()).isEqualTo(405);
        byte[] overTheLimit = new byte[16 * 1024 * 1024 + 1];
        Arrays.fill(overTheLimit, (byte) ' ');
        RawTableClient.Response tooLarge = raw.request("POST", path).contentType(NDJSON).body(overTheLimit).send();
        ServiceErrors.assertServiceError(tooLarge, 413, "RequestBodyTooLarge");
        assertThat(count(table)).isZero();
    }

    @Test
    void aSasAuthorizesItAsTheWriteOfEachEntityWithinItsKeyRange(TableServiceClient service, RunningServer server) {
        TableClient table = TableFixtures.givenTable(service, "BulkSas");
        OffsetDateTime expiry = OffsetDateTime.now(ZoneOffset.UTC).plusHours(1);
        String addOnly = table.generateSas(new TableSasSignatureValues(expiry, TableSasPermission.parse("a")));
        String addUpdateBToC = table.generateSas(new TableSasSignatureValues(expiry, TableSasPermission.parse("au"))
                .setStartPartitionKey("b").setStartRowKey("0").setEndPartitionKey("c").setEndRowKey("9"));
        String body = line("a", "1", "") + line("b", "1", "") + line("c", "1", "") + line("d", "1", "");
        String path = table.getTableName() + "()/$bulk?";

        RawTableClient.Response replaceWithAddOnly = RawTableClient.to(server).request("POST", path + addOnly)
                .signing(RawTableClient.Signing.NONE).contentType(NDJSON).body(body.getBytes(StandardCharsets.UTF_8))
                .send();
        RawTableClient.Response insertWithAddOnly = RawTableClient.to(server).request("POST",
                        path + "mode=insert&" + addOnly).signing(RawTableClient.Signing.NONE).contentType(NDJSON)
                .body(line("x", "1", "").getBytes(StandardCharsets.UTF_8)).send();
        RawTableClient.Response inRange = RawTableClient.to(server).request("POST", path + addUpdateBToC)
                .signing(RawTableClient.Signing.NONE).contentType(NDJSON).body(body.getBytes(StandardCharsets.UTF_8))
                .send();

        ServiceErrors.assertServiceError(replaceWithAddOnly, 403, "AuthorizationPermissionMismatch");
        assertThat(insertWithAddOnly.json()).containsEntry("Entities", 1);
        assertThat(inRange.json()).containsEntry("Entities", 2);
        assertThat(failed(inRange)).containsExactly("1 AuthorizationFailure", "4 AuthorizationFailure");
        assertThat(count(table)).isEqualTo(3);
    }
}
