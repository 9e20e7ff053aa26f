package io.tablestream.server.robustness;

import static io.tablestream.server.ServiceErrors.assertServiceError;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import io.tablestream.server.RawTableClient;
import io.tablestream.server.TablestreamServerExtension;
import io.tablestream.server.TablestreamServerExtension.RunningServer;
import io.tablestream.testsupport.KafkaExtension;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Entity and Create Table bodies the SDK would never send: each is a 400 with the service's error, never a 5xx. */
@ExtendWith({KafkaExtension.class, TablestreamServerExtension.class})
class MalformedBodyIT {
    private static RawTableClient client;
    private static String table;
    private static String entity;

    @BeforeAll
    static void createTable(RunningServer server) {
        client = new RawTableClient(server.port());
        table = "RobustBody" + System.nanoTime() % 1_000_000;
        TableClient t = server.client().createTable(table);
        t.createEntity(new TableEntity("p", "r").addProperty("N", 1));
        entity = table + "(PartitionKey='p',RowKey='r')";
    }

    static Stream<Arguments> malformedEntityBodies() {
        return Stream.of(
                Arguments.of("empty", bytes(""), "InvalidInput"),
                Arguments.of("truncated object", bytes("{\"PartitionKey\":\"p\",\"RowKey\":\"x\""), "InvalidInput"),
                Arguments.of("truncated value", bytes("{\"PartitionKey\":\"p\",\"RowKey\":\"x\",\"A\":"), "InvalidInput"),
                Arguments.of("array", bytes("[{\"PartitionKey\":\"p\",\"RowKey\":\"x\"}]"), "InvalidInput"),
                Arguments.of("string", bytes("\"PartitionKey\""), "InvalidInput"),
                Arguments.of("number", bytes("42"), "InvalidInput"),
                Arguments.of("null", bytes("null"), "InvalidInput"),
                Arguments.of("trailing object", bytes("{\"PartitionKey\":\"p\",\"RowKey\":\"x\"} {}"), "InvalidInput"),
                Arguments.of("trailing garbage", bytes("{\"PartitionKey\":\"p\",\"RowKey\":\"x\"}garbage"), "InvalidInput"),
                Arguments.of("numeric annotation", bytes(keys() + ",\"A@odata.type\":5,\"A\":\"1\"}"), "InvalidInput"),
                Arguments.of("object annotation", bytes(keys() + ",\"A@odata.type\":{},\"A\":\"1\"}"), "InvalidInput"),
                Arguments.of("unknown Edm type", bytes(keys() + ",\"A@odata.type\":\"Edm.Decimal\",\"A\":\"1\"}"), "InvalidInput"),
                Arguments.of("annotation without value", bytes(keys() + ",\"A@odata.type\":\"Edm.Int64\"}"), "InvalidInput"),
                Arguments.of("Int32 not a number", bytes(keys() + ",\"A@odata.type\":\"Edm.Int32\",\"A\":\"abc\"}"), "InvalidInput"),
                Arguments.of("Int64 as a JSON number", bytes(keys() + ",\"A@odata.type\":\"Edm.Int64\",\"A\":5}"), "InvalidInput"),
                Arguments.of("Int64 overflow", bytes(keys() + ",\"A@odata.type\":\"Edm.Int64\",\"A\":\"99999999999999999999\"}"), "InvalidInput"),
                Arguments.of("Boolean as a number", bytes(keys() + ",\"A@odata.type\":\"Edm.Boolean\",\"A\":1}"), "InvalidInput"),
                Arguments.of("Guid malformed", bytes(keys() + ",\"A@odata.type\":\"Edm.Guid\",\"A\":\"not-a-guid\"}"), "InvalidInput"),
                Arguments.of("Binary not base64", bytes(keys() + ",\"A@odata.type\":\"Edm.Binary\",\"A\":\"***\"}"), "InvalidInput"),
                Arguments.of("DateTime malformed", bytes(keys() + ",\"A@odata.type\":\"Edm.DateTime\",\"A\":\"yesterday\"}"), "InvalidInput"),
                Arguments.of("DateTime out of range", bytes(keys() + ",\"A@odata.type\":\"Edm.DateTime\",\"A\":\"0001-01-01T00:00:00Z\"}"), "OutOfRangeInput"),
                Arguments.of("nested object", bytes(keys() + ",\"A\":{\"B\":1}}"), "InvalidInput"),
                Arguments.of("array value", bytes(keys() + ",\"A\":[1,2]}"), "InvalidInput"),
                Arguments.of("deep nesting", bytes(keys() + ",\"A\":" + "[".repeat(5000) + "]".repeat(5000) + "}"), "InvalidInput"),
                Arguments.of("Double overflow", bytes(keys() + ",\"A\":1e400}"), "InvalidInput"),
                Arguments.of("2000-digit number", bytes(keys() + ",\"A\":" + "9".repeat(2000) + "}"), "InvalidInput"),
                Arguments.of("numeric PartitionKey", bytes("{\"PartitionKey\":1,\"RowKey\":\"x\"}"), "InvalidInput"),
                Arguments.of("duplicate property", bytes(keys() + ",\"A\":1,\"A\":2}"), "DuplicatePropertiesSpecified"),
                Arguments.of("invalid UTF-8", concat(bytes(keys() + ",\"A\":\""), new byte[] {(byte) 0xff, (byte) 0xfe},
                        bytes("\"}")), "InvalidInput"),
                Arguments.of("truncated UTF-8 sequence", concat(bytes(keys() + ",\"A\":\""), new byte[] {(byte) 0xe2, (byte) 0x82},
                        bytes("\"}")), "InvalidInput"),
                Arguments.of("not JSON at all", bytes("<entry xmlns=\"http://www.w3.org/2005/Atom\"/>"), "InvalidInput"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformedEntityBodies")
    void rejectsAMalformedInsertBody(String name, byte[] body, String code) {
        assertServiceError(client.request("POST", table).body(body).send(), 400, code);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformedEntityBodies")
    void rejectsAMalformedUpdateBody(String name, byte[] body, String code) {
        assertServiceError(client.request("PUT", entity).header("If-Match", "*").body(body).send(), 400, code);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformedEntityBodies")
    void rejectsAMalformedMergeBody(String name, byte[] body, String code) {
        assertServiceError(client.request("PATCH", entity).body(body).send(), 400, code);
    }

    static Stream<Arguments> malformedCreateTableBodies() {
        return Stream.of(
                Arguments.of("empty", bytes("")),
                Arguments.of("truncated", bytes("{\"TableName\":\"abc")),
                Arguments.of("array", bytes("[\"abc\"]")),
                Arguments.of("numeric name", bytes("{\"TableName\":5}")),
                Arguments.of("object name", bytes("{\"TableName\":{\"x\":1}}")),
                Arguments.of("trailing garbage", bytes("{\"TableName\":\"abcdef\"},")),
                Arguments.of("invalid UTF-8", concat(bytes("{\"TableName\":\"a"), new byte[] {(byte) 0xc3}, bytes("\"}"))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformedCreateTableBodies")
    void rejectsAMalformedCreateTableBody(String name, byte[] body) {
        assertServiceError(client.request("POST", "Tables").body(body).send(), 400, "InvalidInput");
    }

    @Test
    void rejectsAnInsertWithoutContentType() {
        RawTableClient.Response r = client.request("POST", table).contentType(null)
                .body("{\"PartitionKey\":\"p\",\"RowKey\":\"noContentType\"}").send();

        assertServiceError(r, 400, "InvalidInput");
        assertThat(client.get(table + "(PartitionKey='p',RowKey='noContentType')").send().status()).isEqualTo(404);
    }

    @Test
    void rejectsACreateTableWithoutContentType() {
        assertServiceError(client.request("POST", "Tables").contentType(null)
                .body("{\"TableName\":\"NoContentType" + System.nanoTime() % 100000 + "\"}").send(), 400, "InvalidInput");
    }

    @Test
    void rejectsAnUpdateAndAMergeWithoutContentType() {
        assertServiceError(client.request("PUT", entity).contentType(null).body("{\"N\":2}").send(), 400, "InvalidInput");
        assertServiceError(client.request("PATCH", entity).contentType(null).body("{\"N\":2}").send(), 400, "InvalidInput");
    }

    @Test
    void rejectsAnAtomBodyAsUnsupported() {
        RawTableClient.Response r = client.request("POST", table).contentType("application/atom+xml")
                .body("<?xml version=\"1.0\"?><entry xmlns=\"http://www.w3.org/2005/Atom\"/>").send();

        assertServiceError(r, 415, "AtomFormatNotSupported");
    }

    @Test
    void keepsTheEntityUnchangedAfterRejectedWrites() {
        client.request("PUT", entity).header("If-Match", "*").body("{\"N\":").send();
        client.request("PATCH", entity).body("[]").send();

        RawTableClient.Response r = client.get(entity).send();

        assertThat(r.status()).isEqualTo(200);
        assertThat(r.body()).contains("\"N\":1");
    }

    private static String keys() {
        return "{\"PartitionKey\":\"p\",\"RowKey\":\"x\"";
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] concat(byte[]... parts) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}
