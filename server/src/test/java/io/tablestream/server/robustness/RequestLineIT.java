package io.tablestream.server.robustness;

import static io.tablestream.server.ServiceErrors.assertServiceError;
import static io.tablestream.server.ServiceErrors.assertWellFormedClientError;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import io.tablestream.server.RawTableClient;
import io.tablestream.server.TablestreamServerExtension;
import io.tablestream.server.TablestreamServerExtension.RunningServer;
import io.tablestream.testsupport.KafkaExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Malformed paths, verbs the service does not have, and misused method and condition headers. */
@ExtendWith({KafkaExtension.class, TablestreamServerExtension.class})
class RequestLineIT {
    private static RawTableClient client;
    private static TableClient sdk;
    private static String table;
    private static String entity;

    @BeforeAll
    static void createTable(RunningServer server) {
        client = new RawTableClient(server.port());
        table = "RobustLine" + System.nanoTime() % 1_000_000;
        sdk = server.client().createTable(table);
        sdk.createEntity(new TableEntity("p", "r").addProperty("N", 1));
        entity = table + "(PartitionKey='p',RowKey='r')";
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "T(PartitionKey='p',RowKey='r'",
            "T(PartitionKey='p,RowKey='r')",
            "T(PartitionKey='p',RowKey='r)",
            "T(PartitionKey='p')",
            "T(RowKey='r')",
            "T(PartitionKey='p',PartitionKey='r')",
            "T(Foo='p',Bar='r')",
            "T(PartitionKey=p,RowKey=r)",
            "T(PartitionKey='p';RowKey='r')",
            "T(PartitionKey='p',RowKey='r',Extra='x')",
            "T(PartitionKey='p',RowKey='r')trailing",
            "T(PartitionKey='p',RowKey='r')/child",
            "T/child",
            "Tables('unterminated)",
            "Tables(name)",
            "Tables('a','b')",
            "(PartitionKey='p',RowKey='r')"})
    void rejectsAMalformedEntityPath(String path) {
        assertServiceError(client.get(path.replace("T(", table + "(").replace("T/", table + "/")
                .replace("'", "%27")).send(), 400, "InvalidUri");
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "T(PartitionKey=%27p%zz,RowKey=%27r%27)",
            "T(PartitionKey=%27p%2,RowKey=%27r%27)",
            "T(PartitionKey=%27p%27,RowKey=%27r%",
            "T(PartitionKey=%27%ff%27,RowKey=%27r%27)",
            "T(PartitionKey=%27%c3%28%27,RowKey=%27r%27)",
            "T(PartitionKey=%27%ed%a0%80%27,RowKey=%27r%27)",
            "T%00(PartitionKey=%27p%27,RowKey=%27r%27)",
            "T(PartitionKey=%27p%27,RowKey=%27r%27)%2F..%2F..",
            "%zz"})
    void rejectsABadPercentEscapeWithTheServiceError(String path) {
        RawTableClient.Response r = client.get(path.replace("T", table)).sendOverSocket();

        assertServiceError(r, 400, "InvalidUri");
    }

    @Test
    void answersConnectWithAClientError() {
        RawTableClient.Response r = client.request("CONNECT", "Tables").sendOverSocket();

        assertWellFormedClientError(r);
    }

    @Test
    void answersAnEntityPathOfUnknownKeysAsNotFound() {
        assertServiceError(client.get(table + "(PartitionKey='nope',RowKey='none')".replace("'", "%27")).send(), 404,
                "ResourceNotFound");
    }

    @ParameterizedTest
    @ValueSource(strings = {"FOO", "TRACE", "PROPFIND", "M-SEARCH"})
    void rejectsAVerbTheServiceDoesNotHave(String method) {
        RawTableClient.Response onEntity = client.request(method, entity.replace("'", "%27")).sendOverSocket();
        RawTableClient.Response onTables = client.request(method, "Tables").sendOverSocket();

        assertServiceError(onEntity, 405, "UnsupportedHttpVerb");
        assertServiceError(onTables, 405, "UnsupportedHttpVerb");
    }

    @Test
    void rejectsHeadWithoutABody() {
        for (String target : new String[] {entity.replace("'", "%27"), table + "()", "Tables"}) {
            RawTableClient.Response r = client.request("HEAD", target).send();

            assertThat(r.status()).as("HEAD %s: %s", target, r).isEqualTo(405);
            assertThat(r.header("x-ms-error-code")).isEqualTo("UnsupportedHttpVerb");
            assertThat(r.header("x-ms-request-id")).isNotBlank();
            assertThat(r.body()).isEmpty();
        }
    }

    @ParameterizedTest
    // (DELETE of T() is Delete Entities by $filter, an extension: without a $filter it is 400, see JobsIT)
    @CsvSource({"PUT, Tables", "DELETE, Tables", "PATCH, Tables", "PUT, T()",
            "POST, 'T(PartitionKey=%27p%27,RowKey=%27r%27)'"})
    void rejectsAVerbTheResourceDoesNotTake(String method, String target) {
        assertServiceError(client.request(method, target.replace("T(", table + "(")).body("{}").send(), 405,
                "UnsupportedHttpVerb");
    }

    @Test
    void rejectsXHttpMethodOnAnythingButPost() {
        assertServiceError(client.get(entity).header("X-HTTP-Method", "DELETE").send(), 400, "XMethodNotUsingPost");
        assertServiceError(client.request("PUT", entity).header("X-HTTP-Method", "MERGE").body("{}").send(), 400,
                "XMethodNotUsingPost");
    }

    @Test
    void rejectsTwoXHttpMethodHeaders() {
        RawTableClient.Response r = client.request("POST", entity).header("X-HTTP-Method", "MERGE")
                .header("X-HTTP-Method", "DELETE").header("If-Match", "*").body("{}").send();

        assertServiceError(r, 400, "XMethodIncorrectCount");
        assertThat(sdk.getEntity("p", "r").getProperty("N")).isEqualTo(1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"FOO", "GET", "POST", "OPTIONS", ""})
    void rejectsAnXHttpMethodTheTunnelDoesNotCarry(String value) {
        assertServiceError(client.request("POST", entity).header("X-HTTP-Method", value).body("{}").send(), 400,
                "XMethodIncorrectValue");
    }

    @ParameterizedTest
    @ValueSource(strings = {"abc", "\"a\", \"b\"", "W/", "W/abc", "\"unterminated", "**"})
    void rejectsAMalformedIfMatch(String ifMatch) {
        assertServiceError(client.request("PUT", entity).header("If-Match", ifMatch).body("{\"N\":2}").send(), 400,
                "InvalidInput");
        assertServiceError(client.request("PATCH", entity).header("If-Match", ifMatch).body("{\"N\":2}").send(), 400,
                "InvalidInput");
        assertServiceError(client.request("DELETE", entity).header("If-Match", ifMatch).send(), 400, "InvalidInput");
        assertThat(sdk.getEntity("p", "r").getProperty("N")).isEqualTo(1);
    }

    @Test
    void rejectsTwoIfMatchHeaders() {
        String etag = sdk.getEntity("p", "r").getETag();

        assertServiceError(client.request("PUT", entity).header("If-Match", etag).header("If-Match", "*")
                .body("{\"N\":2}").send(), 400, "InvalidInput");
        assertServiceError(client.request("DELETE", entity).header("If-Match", "*").header("If-Match", "*").send(),
                400, "InvalidInput");
        assertThat(sdk.getEntity("p", "r").getProperty("N")).isEqualTo(1);
    }

    @Test
    void rejectsIfNoneMatchOnAnEntityWrite() {
        assertServiceError(client.request("PUT", entity).header("If-None-Match", "*").body("{\"N\":2}").send(), 400,
                "InvalidInput");
        assertServiceError(client.request("DELETE", entity).header("If-Match", "*").header("If-None-Match", "*").send(),
                400, "InvalidInput");
        assertThat(sdk.getEntity("p", "r").getProperty("N")).isEqualTo(1);
    }

    @Test
    void answersAStaleButWellFormedIfMatchWithPreconditionFailed() {
        RawTableClient.Response r = client.request("PUT", entity)
                .header("If-Match", "W/\"datetime'2020-01-01T00%3A00%3A00.0000000Z'\"").body("{\"N\":2}").send();

        assertServiceError(r, 412, "UpdateConditionNotSatisfied");
    }

    @Test
    void rejectsADeleteWithoutIfMatch() {
        assertServiceError(client.request("DELETE", entity).send(), 400, "MissingRequiredHeader");
    }
}
