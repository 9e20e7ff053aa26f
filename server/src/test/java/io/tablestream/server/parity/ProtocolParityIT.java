package io.tablestream.server.parity;

import static io.tablestream.server.RawTableClient.encode;
import static io.tablestream.server.ServiceErrors.assertServiceError;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.sas.TableSasPermission;
import com.azure.data.tables.sas.TableSasSignatureValues;
import io.tablestream.server.RawTableClient;
import io.tablestream.server.TablestreamServerExtension;
import io.tablestream.server.TablestreamServerExtension.RunningServer;
import io.tablestream.testsupport.KafkaExtension;
import java.time.OffsetDateTime;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Protocol details the service documents (or is known to do) and Tablestream follows: Boolean
 * constants of a filter in any case, {@code $top=0}, the form of {@code x-ms-version} (and that
 * requests signed with an account key must name one), the 4 MiB request limit, a client request
 * id echoed only when it is up to 1 KiB of visible ASCII, response headers as long as the longest
 * keys make them, and answers without a body that name no Content-Type — over raw HTTP and through
 * the Java SDK.
 */
@ExtendWith({KafkaExtension.class, TablestreamServerExtension.class})
class ProtocolParityIT {
    private static RawTableClient http;
    private static TableClient table;

    @BeforeAll
    static void seed(RunningServer server) {
        http = RawTableClient.to(server);
        table = server.client().createTable("Parity" + System.nanoTime() % 1_000_000);
        table.createEntity(new TableEntity("p", "on").addProperty("Active", true));
        table.createEntity(new TableEntity("p", "off").addProperty("Active", false));
    }

    @ParameterizedTest
    @ValueSource(strings = {"true", "True", "TRUE", "tRuE"})
    void readsTheBooleanTrueInAnyCase(String literal) {
        RawTableClient.Response r = http.get(table.getTableName() + "()?$filter=" + encode("Active eq " + literal))
                .send();

        assertThat(r.status()).as("%s", r).isEqualTo(200);
        assertThat(r.rows()).extracting(row -> row.get("RowKey")).containsExactly("on");
        assertThat(table.listEntities(new ListEntitiesOptions().setFilter("Active eq " + literal), null, null)
                .stream().map(TableEntity::getRowKey).toList()).containsExactly("on");
    }

    @ParameterizedTest
    @ValueSource(strings = {"false", "False", "FALSE"})
    void readsTheBooleanFalseInAnyCase(String literal) {
        RawTableClient.Response r = http.get(table.getTableName() + "()?$filter=" + encode("Active eq " + literal))
                .send();

        assertThat(r.rows()).extracting(row -> row.get("RowKey")).containsExactly("off");
    }

    @Test
    void keepsOperatorsLowerCase() {
        assertServiceError(http.get(table.getTableName() + "()?$filter=" + encode("Active EQ true")).send(), 400,
                "InvalidInput");
    }

    @Test
    void answersTopZeroWithNoEntitiesAndNoContinuation() {
        RawTableClient.Response entities = http.get(table.getTableName() + "()?$top=0").send();
        RawTableClient.Response tables = http.get("Tables?$top=0").send();

        for (RawTableClient.Response r : java.util.List.of(entities, tables)) {
            assertThat(r.status()).as("%s", r).isEqualTo(200);
            assertThat(r.rows()).isEmpty();
            assertThat(r.header("x-ms-continuation-NextPartitionKey")).isNull();
            assertThat(r.header("x-ms-continuation-NextTableName")).isNull();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"invalid", "2019-2-2", "2019-02-30", "2019/02/02", "2011-08-18"})
    void refusesAnXmsVersionThatIsNotAServedVersion(String version) {
        RawTableClient.Response r = http.get("Tables").set("x-ms-version", version).send();

        assertServiceError(r, 400, "InvalidHeaderValue");
        assertThat(r.header("x-ms-version")).isNotEqualTo(version);
    }

    @Test
    void servesAndEchoesAWellFormedVersion() {
        RawTableClient.Response r = http.get("Tables").set("x-ms-version", "2023-11-03").send();

        assertThat(r.status()).as("%s", r).isEqualTo(200);
        assertThat(r.header("x-ms-version")).isEqualTo("2023-11-03");
    }

    @Test
    void refusesABodyOverFourMebibytesWith413() {
        TableEntity big = new TableEntity("p", "big");
        for (int i = 0; i < 140; i++) {
            big.addProperty("P" + i, "x".repeat(32_000)); // ~4.5 MB of JSON
        }

        assertServiceError(() -> table.createEntity(big), 413, "RequestBodyTooLarge");
        assertThat(table.getEntity("p", "on")).isNotNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"SHARED_KEY_LITE", "SHARED_KEY"})
    void refusesARequestSignedWithAnAccountKeyThatNamesNoVersion(RawTableClient.Signing signing) {
        RawTableClient.Response r = http.get("Tables").signing(signing).set("x-ms-version", null).send();

        assertServiceError(r, 400, "MissingRequiredHeader");
        assertThat(r.body()).contains("x-ms-version");
        assertThat(r.header("x-ms-version")).isEqualTo("2019-02-02");
    }

    @Test
    void servesASasRequestThatNamesNoVersion() {
        String sas = table.generateSas(new TableSasSignatureValues(OffsetDateTime.now().plusHours(1),
                TableSasPermission.parse("r")));
        RawTableClient.Response r = http.get(table.getTableName() + "()?" + sas).unsigned()
                .set("x-ms-version", null).send();

        assertThat(r.status()).as("%s", r).isEqualTo(200);
        assertThat(r.rows()).hasSize(2);
    }

    @Test
    void echoesAClientRequestIdOfOneKibibyte() {
        String id = "i".repeat(1024);
        RawTableClient.Response r = http.get("Tables").set("x-ms-client-request-id", id).send();

        assertThat(r.status()).as("%s", r).isEqualTo(200);
        assertThat(r.header("x-ms-client-request-id")).isEqualTo(id);
    }

    @ParameterizedTest
    @ValueSource(strings = {"1025", "20000", "200000", "with space"})
    void servesALongerOrNotVisibleAsciiClientRequestIdWithoutEchoingIt(String lengthOrId) {
        String id = lengthOrId.matches("\\d+") ? "i".repeat(Integer.parseInt(lengthOrId)) : lengthOrId;
        RawTableClient.Response r = http.get("Tables").set("x-ms-client-request-id", id).send();

        assertThat(r.status()).as("%s", r).isEqualTo(200);
        assertThat(r.header("x-ms-client-request-id")).isNull();
    }

    @Test
    void answersAWriteWhoseKeysMakeTheLongestLocationHeaders() {
        String key = "\u4e2d".repeat(512); // 1 KiB of UTF-16, 4.5 KiB percent-encoded in each URL header
        RawTableClient.Response r = http.request("POST", table.getTableName())
                .body("{\"PartitionKey\":\"" + key + "\",\"RowKey\":\"" + key + "\"}")
                .set("Prefer", "return-no-content").send();

        assertThat(r.status()).as("%s", r).isEqualTo(204);
        assertThat(r.header("Location")).hasSizeGreaterThan(9_000);
        assertThat(table.getEntity(key, key).getRowKey()).isEqualTo(key);
    }

    @Test
    void namesNoContentTypeOnAnAnswerWithoutBody() {
        RawTableClient.Response noContent = http.request("PUT", table.getTableName() + "(PartitionKey='p',RowKey='put')")
                .body("{\"A\":1}").send();
        RawTableClient.Response accepted = http.request("PUT", table.getTableName() + "(PartitionKey='p',RowKey='async')")
                .body("{\"A\":1}").set("Prefer", "respond-async").send();

        assertThat(noContent.status()).as("%s", noContent).isEqualTo(204);
        assertThat(accepted.status()).as("%s", accepted).isEqualTo(202);
        for (RawTableClient.Response r : java.util.List.of(noContent, accepted)) {
            assertThat(r.bytes()).isEmpty();
            assertThat(r.header("Content-Type")).as("%s", r).isNull();
        }
    }
}
