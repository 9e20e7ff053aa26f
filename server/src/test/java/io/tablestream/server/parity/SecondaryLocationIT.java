package io.tablestream.server.parity;

import static io.tablestream.server.ServiceErrors.assertServiceError;
import static io.tablestream.server.ServiceErrors.assertXmlServiceError;
import static org.assertj.core.api.Assertions.assertThat;

import io.tablestream.core.model.EmulatorAccount;
import com.azure.core.credential.AzureNamedKeyCredential;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableServiceGeoReplicationStatus;
import com.azure.data.tables.models.TableServiceStatistics;
import io.tablestream.server.RawTableClient;
import io.tablestream.server.TablestreamServerExtension;
import io.tablestream.server.TablestreamServerExtension.RunningServer;
import io.tablestream.testsupport.KafkaExtension;
import java.time.OffsetDateTime;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The account's secondary location, {@code /<account>-secondary/}, as the storage emulators serve
 * it: reads of the account's data and Get Service Stats, signed as the SDKs sign for the account;
 * writes refused. Stats on the primary are refused as the service refuses them.
 */
@ExtendWith({KafkaExtension.class, TablestreamServerExtension.class})
class SecondaryLocationIT {
    private static final String SECONDARY = "/devstoreaccount1-secondary";

    private static RawTableClient http;
    private static String table;
    private static TableServiceClient secondary;

    @BeforeAll
    static void seed(RunningServer server) {
        http = RawTableClient.to(server);
        table = "Secondary" + System.nanoTime() % 1_000_000;
        TableClient primary = server.client().createTable(table);
        primary.createEntity(new TableEntity("p", "r1").addProperty("N", 1));
        primary.createEntity(new TableEntity("p", "r2").addProperty("N", 2));
        secondary = new TableServiceClientBuilder().endpoint(server.endpoint() + "-secondary")
                .credential(new AzureNamedKeyCredential("devstoreaccount1", EmulatorAccount.KEY))
                .buildClient();
    }

    @Test
    void servesServiceStatsOnTheSecondaryLocation() {
        for (RawTableClient.Signing signing : RawTableClient.Signing.values()) {
            if (signing == RawTableClient.Signing.NONE) {
                continue;
            }
            RawTableClient.Response r = http.requestAt("GET", SECONDARY + "/?restype=service&comp=stats")
                    .signing(signing).send();

            assertThat(r.status()).as("%s: %s", signing, r).isEqualTo(200);
            assertThat(r.header("Content-Type")).startsWith("application/xml");
            assertThat(r.body()).contains("<StorageServiceStats><GeoReplication><Status>live</Status><LastSyncTime>")
                    .containsPattern("<LastSyncTime>[A-Z][a-z]{2}, \\d{2} [A-Z][a-z]{2} \\d{4} \\d{2}:\\d{2}:\\d{2} GMT"
                            + "</LastSyncTime>");
        }
    }

    @Test
    void servesServiceStatsAtThePathThePythonSdkSends() {
        // the Python SDK puts its secondary host (host/<account>-secondary) in front of the primary's path
        RawTableClient.Response r = http.requestAt("GET", SECONDARY + "/devstoreaccount1/?restype=service&comp=stats")
                .send();

        assertThat(r.status()).as("%s", r).isEqualTo(200);
        assertThat(r.body()).contains("<Status>live</Status>");
    }

    @Test
    void servesServiceStatsToTheJavaSdkPointedAtTheSecondaryLocation() {
        OffsetDateTime before = OffsetDateTime.now().minusSeconds(1);

        TableServiceStatistics stats = secondary.getStatistics();

        assertThat(stats.getGeoReplication().getStatus()).isEqualTo(TableServiceGeoReplicationStatus.LIVE);
        assertThat(stats.getGeoReplication().getLastSyncTime()).isAfter(before.minusSeconds(1))
                .isBefore(OffsetDateTime.now().plusSeconds(2));
    }

    @Test
    void refusesServiceStatsOnThePrimary(RunningServer server) {
        RawTableClient.Response r = http.requestAt("GET", "/devstoreaccount1/?restype=service&comp=stats").send();

        assertXmlServiceError(r, 400, "InvalidQueryParameterValue");
        assertThat(r.body()).contains("-secondary");
        Throwable thrown = org.assertj.core.api.Assertions.catchThrowable(() -> server.client().getStatistics());
        assertThat(thrown).as("%s", thrown).isInstanceOf(com.azure.core.exception.HttpResponseException.class);
        com.azure.core.exception.HttpResponseException sdk = (com.azure.core.exception.HttpResponseException) thrown;
        assertThat(sdk.getResponse().getStatusCode()).isEqualTo(400);
        assertThat(sdk.getResponse().getHeaderValue("x-ms-error-code")).isEqualTo("InvalidQueryParameterValue");
    }

    @Test
    void servesTheAccountsDataForReads() {
        TableClient t = secondary.getTableClient(table);

        assertThat(t.getEntity("p", "r1").getProperty("N")).isEqualTo(1);
        assertThat(t.listEntities(new ListEntitiesOptions().setFilter("N ge 2"), null, null).stream()
                .map(TableEntity::getRowKey).toList()).containsExactly("r2");
        assertThat(secondary.listTables().stream().map(x -> x.getName()).toList()).contains(table);
        assertThat(secondary.getProperties()).isNotNull();
        RawTableClient.Response raw = http.requestAt("GET", SECONDARY + "/" + table + "(PartitionKey='p',RowKey='r2')")
                .send();
        assertThat(raw.status()).as("%s", raw).isEqualTo(200);
        assertThat(raw.json()).containsEntry("N", 2);
    }

    @Test
    void refusesWritesAsTheReadOnlySecondaryDoes() {
        TableClient t = secondary.getTableClient(table);

        assertServiceError(() -> t.createEntity(new TableEntity("p", "r3")), 403, "InsufficientAccountPermissions");
        assertServiceError(() -> t.deleteEntity("p", "r1"), 403, "InsufficientAccountPermissions");
        assertServiceError(() -> secondary.createTable("NeverMade" + System.nanoTime() % 1000), 403,
                "InsufficientAccountPermissions");
        RawTableClient.Response acl = http.requestAt("PUT", SECONDARY + "/" + table + "?comp=acl")
                .contentType("application/xml").body("<?xml version=\"1.0\" encoding=\"utf-8\"?><SignedIdentifiers />")
                .send();
        assertXmlServiceError(acl, 403, "InsufficientAccountPermissions");
        assertThat(secondary.getTableClient(table).getEntity("p", "r1")).isNotNull();
        assertThat(t.listEntities().stream().count()).isEqualTo(2L);
    }
}
