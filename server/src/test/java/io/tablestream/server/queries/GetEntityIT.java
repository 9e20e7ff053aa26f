package io.tablestream.server.queries;

import static io.tablestream.server.RawTableClient.query;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.core.http.rest.Response;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.models.TableEntity;
import io.tablestream.server.RawTableClient;
import io.tablestream.server.ServiceErrors;
import io.tablestream.server.TablestreamServerExtension;
import io.tablestream.server.TablestreamServerExtension.RunningServer;
import io.tablestream.testsupport.KafkaExtension;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Get Entity through the SDK ({@code $select}, 404s) and raw HTTP: the three JSON metadata levels
 * asked for with {@code Accept} or {@code $format}, for a single entity and for a query feed.
 */
@ExtendWith({KafkaExtension.class, TablestreamServerExtension.class})
class GetEntityIT {
    private static TableClient table;
    private static String name;

    @BeforeAll
    static void givenOneEntityOfEveryType(TableServiceClient service) {
        table = TableFixtures.givenTable(service, "Get");
        name = table.getTableName();
        table.createEntity(new TableEntity("pk", "rk")
                .addProperty("Name", "one")
                .addProperty("Count", 7)
                .addProperty("Big", 1L << 40)
                .addProperty("Ratio", 0.5)
                .addProperty("Flag", true)
                .addProperty("When", OffsetDateTime.of(2024, 5, 6, 7, 8, 9, 0, ZoneOffset.UTC))
                .addProperty("Id", new UUID(1, 2))
                .addProperty("Blob", new byte[] {1, 2, 3}));
    }

    private static String entityPath() {
        return name + "(PartitionKey='pk',RowKey='rk')";
    }

    @Test
    void selectReturnsTheNamedPropertiesAndNullForMissingOnes() {
        Response<TableEntity> r = table.getEntityWithResponse("pk", "rk", List.of("Name", "Big", "Missing"), null, null);

        assertThat(r.getStatusCode()).isEqualTo(200);
        assertThat(r.getValue().getProperties()).containsEntry("Name", "one").containsEntry("Big", 1L << 40)
                .containsKey("Missing").doesNotContainKeys("Count", "Flag", "Blob");
        assertThat(r.getValue().getProperty("Missing")).isNull();
    }

    @Test
    void aMissingEntityIsResourceNotFound() {
        ServiceErrors.assertHttpError(404, "ResourceNotFound", () -> table.getEntity("pk", "nope"));
        ServiceErrors.assertHttpError(404, "ResourceNotFound", () -> table.getEntity("nope", "rk"));
    }

    @Test
    void anEntityOfAMissingTableIsTableNotFound(TableServiceClient service) {
        TableClient missing = service.getTableClient(TableFixtures.uniqueName("Missing"));

        ServiceErrors.assertHttpError(404, "TableNotFound", () -> missing.getEntity("pk", "rk"));
        ServiceErrors.assertHttpError(404, "TableNotFound", () -> missing.listEntities().stream().count());
    }

    @Test
    void noMetadataCarriesOnlyTheValues(RunningServer server) {
        RawTableClient.Response r = RawTableClient.to(server).read(entityPath(),
                "Accept", "application/json;odata=nometadata");

        assertThat(r.status()).as(r.body()).isEqualTo(200);
        assertThat(r.header("Content-Type")).startsWith("application/json;odata=nometadata");
        Map<String, Object> json = r.json();
        assertThat(json.keySet()).noneMatch(k -> k.startsWith("odata.") || k.contains("@odata"));
        assertThat(json).containsEntry("PartitionKey", "pk").containsEntry("RowKey", "rk")
                .containsEntry("Big", Long.toString(1L << 40)).containsEntry("Id", new UUID(1, 2).toString())
                .containsEntry("Blob", "AQID").containsEntry("When", "2024-05-06T07:08:09.0000000Z")
                .containsEntry("Flag", true).containsKey("Timestamp");
        assertThat(r.header("ETag")).startsWith("W/\"datetime'");
    }

    @Test
    void minimalMetadataAnnotatesOnlyTypesJsonCannotCarry(RunningServer server) {
        RawTableClient.Response r = RawTableClient.to(server).read(entityPath(),
                "Accept", "application/json;odata=minimalmetadata");

        assertThat(r.status()).as(r.body()).isEqualTo(200);
        assertThat(r.header("Content-Type")).startsWith("application/json;odata=minimalmetadata");
        Map<String, Object> json = r.json();
        assertThat((String) json.get("odata.metadata")).endsWith("/devstoreaccount1/$metadata#" + name + "/@Element");
        assertThat(json).containsEntry("odata.etag", r.header("ETag"))
                .containsEntry("Big@odata.type", "Edm.Int64").containsEntry("Id@odata.type", "Edm.Guid")
                .containsEntry("Blob@odata.type", "Edm.Binary").containsEntry("When@odata.type", "Edm.DateTime")
                .doesNotContainKeys("odata.type", "odata.id", "odata.editLink", "Name@odata.type",
                        "Count@odata.type", "Flag@odata.type", "Timestamp@odata.type");
    }

    @Test
    void fullMetadataNamesTheTypeIdAndEditLink(RunningServer server) {
        RawTableClient.Response r = RawTableClient.to(server).read(entityPath(),
                "Accept", "application/json;odata=fullmetadata");

        assertThat(r.status()).as(r.body()).isEqualTo(200);
        assertThat(r.header("Content-Type")).startsWith("application/json;odata=fullmetadata");
        Map<String, Object> json = r.json();
        assertThat(json).containsEntry("odata.type", "devstoreaccount1." + name)
                .containsEntry("odata.editLink", entityPath())
                .containsEntry("Timestamp@odata.type", "Edm.DateTime")
                .containsEntry("Big@odata.type", "Edm.Int64");
        assertThat((String) json.get("odata.id")).endsWith("/devstoreaccount1/" + entityPath());
    }

    @Test
    void formatOverridesAccept(RunningServer server) {
        RawTableClient.Response r = RawTableClient.to(server).read(
                entityPath() + "?" + query("$format", "application/json;odata=fullmetadata"),
                "Accept", "application/json;odata=nometadata");

        assertThat(r.status()).as(r.body()).isEqualTo(200);
        assertThat(r.header("Content-Type")).startsWith("application/json;odata=fullmetadata");
        assertThat(r.json()).containsKey("odata.type");
    }

    @Test
    void selectOverRawHttpKeepsTheEtag(RunningServer server) {
        RawTableClient.Response r = RawTableClient.to(server).read(entityPath() + "?" + query("$select", "Count,Missing"));

        assertThat(r.status()).as(r.body()).isEqualTo(200);
        Map<String, Object> json = r.json();
        assertThat(json).containsEntry("Count", 7).containsEntry("Missing", null).containsKey("odata.etag")
                .doesNotContainKeys("Name", "PartitionKey", "RowKey", "Timestamp");
    }

    @Test
    void queryFeedsFollowTheMetadataLevelToo(RunningServer server) {
        RawTableClient http = RawTableClient.to(server);
        RawTableClient.Response none = http.read(name + "()", "Accept", "application/json;odata=nometadata");
        RawTableClient.Response minimal = http.read(name + "()?" + query("$format", "application/json;odata=minimalmetadata"));
        RawTableClient.Response full = http.read(name + "()", "Accept", "application/json;odata=fullmetadata");

        assertThat(none.json()).containsOnlyKeys("value");
        assertThat(none.rows().get(0)).doesNotContainKeys("odata.etag", "Big@odata.type");
        assertThat((String) minimal.json().get("odata.metadata")).endsWith("/devstoreaccount1/$metadata#" + name);
        assertThat(minimal.rows().get(0)).containsKeys("odata.etag", "Big@odata.type").doesNotContainKey("odata.id");
        assertThat(full.rows().get(0)).containsKeys("odata.type", "odata.id", "odata.editLink", "odata.etag",
                "Timestamp@odata.type");
    }

    @Test
    void anUnsupportedFormatIsRejected(RunningServer server) {
        RawTableClient.Response verbose = RawTableClient.to(server).read(entityPath(),
                "Accept", "application/json;odata=verbose");
        RawTableClient.Response atom = RawTableClient.to(server).read(entityPath(),
                "Accept", "application/atom+xml");

        assertThat(verbose.status()).isEqualTo(415);
        assertThat(verbose.errorCode()).isEqualTo("JsonFormatNotSupported");
        assertThat(atom.status()).isEqualTo(415);
        assertThat(atom.errorCode()).isEqualTo("AtomFormatNotSupported");
    }
}
