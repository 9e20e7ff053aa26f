package io.tablestream.server.entities;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import io.tablestream.server.RawTableClient;
import io.tablestream.server.TableNames;
import io.tablestream.server.TablestreamServerExtension;
import io.tablestream.server.TablestreamServerExtension.RunningServer;
import io.tablestream.testsupport.KafkaExtension;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The {@code Prefer} header on entity writes, over raw HTTP (the SDK always sends return-no-content):
 * {@code return-content} echoes the inserted entity with 201, {@code return-no-content} answers 204,
 * and Tablestream's {@code respond-async} answers 202 with a session token that a later read carries
 * to see the write.
 */
@ExtendWith({KafkaExtension.class, TablestreamServerExtension.class})
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PreferIT {
    private RawTableClient http;
    private TableClient table;
    private String base;
    private String pk;

    @BeforeAll
    void createTable(RunningServer server) {
        http = RawTableClient.to(server);
        table = server.client().createTable(TableNames.unique("Prefer"));
        base = server.endpoint() + "/" + table.getTableName();
    }

    @BeforeEach
    void partitionFor(TestInfo test) {
        pk = test.getTestMethod().orElseThrow().getName();
    }

    private String entityPath(String rowKey) {
        return table.getTableName() + "(PartitionKey='" + pk + "',RowKey='" + rowKey + "')";
    }

    private String body(String rowKey, String properties) {
        return "{\"PartitionKey\":\"" + pk + "\",\"RowKey\":\"" + rowKey + "\"" + (properties.isEmpty() ? "" : ",")
                + properties + "}";
    }

    private RawTableClient.Response insert(String rowKey, String properties, String... headers) {
        return http.send("POST", table.getTableName(), body(rowKey, properties), headers);
    }

    private RawTableClient.Response get(String rowKey, String sessionToken) {
        return sessionToken == null ? http.send("GET", entityPath(rowKey), null)
                : http.send("GET", entityPath(rowKey), null, "x-ms-session-token", sessionToken);
    }

    private static String header(RawTableClient.Response response, String name) {
        return response.header(name);
    }

    // ------------------------------------------------------------------ return-content / return-no-content

    @Test
    void returnContentAnswers201WithTheStoredEntity() {
        RawTableClient.Response response = insert("r", "\"Name\":\"n\",\"Big\":\"12\",\"Big@odata.type\":\"Edm.Int64\"",
                "Prefer", "return-content");

        TableEntity stored = table.getEntity(pk, "r");
        String url = base + "(PartitionKey='" + pk + "',RowKey='r')";
        assertThat(response.status()).isEqualTo(201);
        assertThat(header(response, "Preference-Applied")).isEqualTo("return-content");
        assertThat(header(response, "Content-Type")).startsWith("application/json;odata=minimalmetadata");
        assertThat(header(response, "Location")).isEqualTo(url);
        assertThat(header(response, "DataServiceId")).isNull();
        assertThat(header(response, "ETag")).isEqualTo(stored.getETag());
        assertThat(header(response, "x-ms-session-token")).matches("[0-9]+:[0-9]+");
        assertThat(response.body())
                .contains("\"odata.metadata\":\"" + base.replace("/" + table.getTableName(), "") + "/$metadata#"
                        + table.getTableName() + "/@Element\"")
                .contains("\"odata.etag\":\"" + stored.getETag().replace("\"", "\\\"") + "\"")
                .contains("\"PartitionKey\":\"" + pk + "\"", "\"RowKey\":\"r\"", "\"Name\":\"n\"",
                        "\"Big@odata.type\":\"Edm.Int64\",\"Big\":\"12\"");
        Matcher timestamp = Pattern.compile("\"Timestamp\":\"([^\"]+)\"").matcher(response.body());
        assertThat(timestamp.find()).isTrue();
        assertThat(timestamp.group(1)).matches(".*\\.[0-9]{7}Z");
        assertThat(OffsetDateTime.parse(timestamp.group(1))).isEqualTo(stored.getTimestamp());
    }

    @Test
    void withoutAPreferenceAnInsertAnswers201WithoutPreferenceApplied() {
        RawTableClient.Response response = insert("r", "\"V\":1");

        assertThat(response.status()).isEqualTo(201);
        assertThat(header(response, "Preference-Applied")).isNull();
        assertThat(response.body()).contains("\"RowKey\":\"r\"", "\"V\":1");
    }

    @Test
    void returnContentHonoursTheAcceptedMetadataLevel() {
        RawTableClient.Response full = insert("full", "\"V\":1", "Prefer", "return-content",
                "Accept", "application/json;odata=fullmetadata");
        RawTableClient.Response none = insert("none", "\"V\":1", "Prefer", "return-content",
                "Accept", "application/json;odata=nometadata");

        assertThat(header(full, "Content-Type")).startsWith("application/json;odata=fullmetadata");
        assertThat(full.body()).contains("\"odata.type\":\"devstoreaccount1." + table.getTableName() + "\"",
                "\"odata.id\":\"" + base + "(PartitionKey='" + pk + "',RowKey='full')\"", "\"odata.editLink\"",
                "\"Timestamp@odata.type\":\"Edm.DateTime\"");
        assertThat(header(none, "Content-Type")).startsWith("application/json;odata=nometadata");
        assertThat(none.body()).doesNotContain("odata.").contains("\"RowKey\":\"none\"", "\"V\":1");
    }

    @Test
    void returnNoContentAnswers204WithTheEntityUrlAndETag() {
        RawTableClient.Response response = insert("r", "\"V\":1", "Prefer", "return-no-content");

        String url = base + "(PartitionKey='" + pk + "',RowKey='r')";
        assertThat(response.status()).isEqualTo(204);
        assertThat(response.body()).isEmpty();
        assertThat(header(response, "Preference-Applied")).isEqualTo("return-no-content");
        assertThat(header(response, "Location")).isEqualTo(url);
        assertThat(header(response, "DataServiceId")).isEqualTo(url);
        assertThat(header(response, "ETag")).isEqualTo(table.getEntity(pk, "r").getETag());
    }

    @Test
    void returnContentDoesNotApplyToUpdates() {
        insert("r", "\"V\":1");

        RawTableClient.Response merge = http.send("MERGE", entityPath("r"), "{\"V\":2}", "Prefer", "return-content",
                "If-Match", "*");

        assertThat(merge.status()).isEqualTo(204);
        assertThat(merge.body()).isEmpty();
        assertThat(header(merge, "Preference-Applied")).isNull();
        assertThat(header(merge, "ETag")).isEqualTo(table.getEntity(pk, "r").getETag());
    }

    // ------------------------------------------------------------------ respond-async and session tokens

    @Test
    void respondAsyncAnswers202WithASessionTokenThatAReadCarriesToSeeTheWrite() {
        RawTableClient.Response response = insert("r", "\"V\":1", "Prefer", "respond-async");

        String token = header(response, "x-ms-session-token");
        RawTableClient.Response read = get("r", token);

        assertThat(response.status()).isEqualTo(202);
        assertThat(response.body()).isEmpty();
        assertThat(header(response, "Preference-Applied")).isEqualTo("respond-async");
        assertThat(token).matches("[0-9]+:[0-9]+");
        assertThat(read.status()).isEqualTo(200);
        assertThat(read.body()).contains("\"RowKey\":\"r\"", "\"V\":1");
    }

    @Test
    void aReadWithTheLastSessionTokenSeesEveryEarlierAsyncWriteOfThePartition() {
        String token = null;
        for (int v = 1; v <= 20; v++) {
            RawTableClient.Response write = http.send("PUT", entityPath("r"), body("r", "\"V\":" + v), "Prefer",
                    "respond-async");
            assertThat(write.status()).isEqualTo(202);
            token = header(write, "x-ms-session-token");
        }
        RawTableClient.Response deleted = http.send("DELETE", entityPath("gone"), null, "If-Match", "*", "Prefer",
                "respond-async");

        RawTableClient.Response read = get("r", token);
        RawTableClient.Response query = http.send("GET", table.getTableName() + "()?$filter="
                + URLEncoder.encode("PartitionKey eq '" + pk + "'", StandardCharsets.UTF_8).replace("+", "%20"), null,
                "x-ms-session-token", header(deleted, "x-ms-session-token"));

        assertThat(read.status()).isEqualTo(200);
        assertThat(read.body()).contains("\"V\":20");
        assertThat(deleted.status()).isEqualTo(202);
        assertThat(query.status()).isEqualTo(200);
        assertThat(query.body()).contains("\"RowKey\":\"r\"").doesNotContain("\"RowKey\":\"gone\"");
    }

    @Test
    void anAsyncWriteTheProcessorRefusesLeavesTheEntityAsItWas() {
        insert("r", "\"V\":1");

        RawTableClient.Response conflicting = insert("r", "\"V\":2", "Prefer", "respond-async");
        RawTableClient.Response read = get("r", header(conflicting, "x-ms-session-token"));

        assertThat(conflicting.status()).isEqualTo(202);
        assertThat(read.status()).isEqualTo(200);
        assertThat(read.body()).contains("\"V\":1");
    }

    @Test
    void anAsyncWriteIsStillCheckedBeforeItIsAccepted() {
        RawTableClient.Response invalid = insert("r", "\"1nvalid\":1", "Prefer", "respond-async");
        RawTableClient.Response badKey = insert("a#b", "", "Prefer", "respond-async");

        assertThat(invalid.status()).isEqualTo(400);
        assertThat(header(invalid, "x-ms-error-code")).isEqualTo("PropertyNameInvalid");
        assertThat(badKey.status()).isEqualTo(400);
        assertThat(header(badKey, "x-ms-error-code")).isEqualTo("OutOfRangeInput");
    }

    @Test
    void aMalformedSessionTokenIsInvalidHeaderValue() {
        RawTableClient.Response read = get("r", "not-a-token");

        assertThat(read.status()).isEqualTo(400);
        assertThat(header(read, "x-ms-error-code")).isEqualTo("InvalidHeaderValue");
    }
}
