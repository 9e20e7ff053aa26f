package io.tablestream.server.robustness;

import static io.tablestream.server.ServiceErrors.assertServiceError;
import static io.tablestream.server.ServiceErrors.assertWellFormedClientError;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import io.tablestream.server.RawTableClient;
import io.tablestream.core.rules.Limits;
import io.tablestream.server.TablestreamServerExtension;
import io.tablestream.server.TablestreamServerExtension.RunningServer;
import io.tablestream.testsupport.KafkaExtension;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Requests whose framing is broken (chunk sizes, request lines, bodies cut short, absurd lengths)
 * and keys no entity can have, sent byte for byte: a 4xx with the service's error — with
 * {@code Connection: close} when the server cannot go on reading the connection — never a 5xx; and
 * a connection that was answered without {@code Connection: close} serves the next request.
 */
@ExtendWith({KafkaExtension.class, TablestreamServerExtension.class})
class MalformedFramingIT {
    /** Far longer than any of these answers takes, far shorter than waiting for a body that never comes. */
    private static final Duration PROMPT = Duration.ofSeconds(5);

    private static RawTableClient client;
    private static TableClient sdk;
    private static String table;

    @BeforeAll
    static void createTable(RunningServer server) {
        client = new RawTableClient(server.port());
        table = "RobustFraming" + System.nanoTime() % 1_000_000;
        sdk = server.client().createTable(table);
        sdk.createEntity(new TableEntity("p", "r").addProperty("N", 1));
    }

    /**
     * {@code %00} alone the HTTP server refuses in any URI, before routing (400 InvalidUri); after a
     * {@code ;} it reaches the key rules, as every other character a key may not hold.
     */
    @ParameterizedTest
    @CsvSource({";%00, OutOfRangeInput", "%00, InvalidUri", "a%01b, OutOfRangeInput", "%7F, OutOfRangeInput",
            "%C2%80, OutOfRangeInput", "a%2Fb, OutOfRangeInput", "a%5Cb, OutOfRangeInput", "a%23b, OutOfRangeInput",
            "a%3Fb, OutOfRangeInput"})
    void refusesAReadOfAKeyNoEntityCanHaveAsAWriteOfItIsRefused(String key, String code) {
        String inPartitionKey = table + "(PartitionKey=%27" + key + "%27,RowKey=%27r%27)";
        String inRowKey = table + "(PartitionKey=%27p%27,RowKey=%27" + key + "%27)";

        for (String path : new String[] {inPartitionKey, inRowKey}) {
            assertServiceError(client.get(path).sendOverSocket(), 400, code);
            assertServiceError(client.request("PUT", path).body("{\"N\":2}").sendOverSocket(), 400, code);
            assertServiceError(client.request("PATCH", path).body("{\"N\":2}").sendOverSocket(), 400, code);
            assertServiceError(client.request("DELETE", path).header("If-Match", "*").sendOverSocket(), 400, code);
        }
    }

    @Test
    void refusesAReadOfAKeyOverOneKibibyteAsAWriteOfItIsRefused() {
        String path = table + "(PartitionKey=%27p%27,RowKey=%27" + "k".repeat(513) + "%27)";

        assertServiceError(client.get(path).send(), 400, "PropertyValueTooLarge");
        assertServiceError(client.request("PUT", path).body("{\"N\":2}").send(), 400, "PropertyValueTooLarge");
    }

    @ParameterizedTest
    @ValueSource(strings = {"zz", "-1", "ffffffffffffffffffff", "1 2", "0x10", ""})
    void refusesAnInvalidChunkSize(String size) {
        byte[] head = client.request("POST", table).head("Content-Type: application/json",
                "Transfer-Encoding: chunked");
        try (RawTableClient.Connection c = client.connect().timeout(PROMPT)) {
            RawTableClient.Response r = c.exchange(concat(head, ascii(size + "\r\n{\"PartitionKey\":\"p\"}\r\n0\r\n\r\n")));

            assertServiceError(r, 400, "InvalidInput");
            assertThat(r.header("Connection")).as("%s", r).isEqualToIgnoringCase("close");
        }
        assertServerStillServes();
    }

    static Stream<Arguments> requestLinesWithoutAVersion() {
        return Stream.of(
                Arguments.of("GET /devstoreaccount1/Tables\r\n\r\n"),
                Arguments.of("GET /devstoreaccount1/Tables\r\nHost: x\r\n\r\n"),
                Arguments.of("GET /devstoreaccount1/Tables HTTP\r\n\r\n"),
                Arguments.of("GET /devstoreaccount1/Tables HTTP/9.9\r\n\r\n"),
                Arguments.of("GET\r\n\r\n"));
    }

    @ParameterizedTest
    @MethodSource("requestLinesWithoutAVersion")
    void answersARequestLineWithoutAVersionWithAClientError(String wire) {
        try (RawTableClient.Connection c = client.connect().timeout(PROMPT)) {
            RawTableClient.Response r = c.exchange(ascii(wire));

            assertWellFormedClientError(r);
            assertThat(r.header("Connection")).as("%s", r).isEqualToIgnoringCase("close");
        }
        assertServerStillServes();
    }

    @Test
    void answersABodyShorterThanItsContentLengthFollowedByAHalfClose() {
        byte[] head = client.request("POST", table).head("Content-Type: application/json", "Content-Length: 100");
        try (RawTableClient.Connection c = client.connect().timeout(PROMPT)) {
            RawTableClient.Response r = c.write(concat(head, ascii("{\"PartitionKey\":"))).halfClose().read();

            assertServiceError(r, 400, "InvalidInput");
            assertThat(r.header("Connection")).as("%s", r).isEqualToIgnoringCase("close");
        }
        assertServerStillServes();
    }

    @ParameterizedTest
    @ValueSource(strings = {"POST", "PUT", "GET"})
    void refusesAContentLengthOverTheRequestLimitFromTheHeaderAlone(String method) {
        String target = method.equals("POST") ? table : table + "(PartitionKey=%27p%27,RowKey=%27r%27)";
        byte[] head = client.request(method, target).head("Content-Type: application/json",
                "Content-Length: 99999999999999");
        try (RawTableClient.Connection c = client.connect().timeout(PROMPT)) {
            RawTableClient.Response r = c.exchange(head); // and no body follows

            assertServiceError(r, 413, "RequestBodyTooLarge");
            assertThat(r.header("Connection")).as("%s", r).isEqualToIgnoringCase("close");
        }
        assertServerStillServes();
    }

    /**
     * A body of a plausible size over the limit is read and dropped before the answer: a client still
     * sending it would otherwise meet a connection reset that can swallow the 413. The connection then
     * stays usable.
     */
    @ParameterizedTest
    @ValueSource(strings = {"POST", "PUT"})
    void readsAndDropsABodyJustOverTheLimitThenAnswersAndKeepsTheConnection(String method) {
        String target = method.equals("POST") ? table : table + "(PartitionKey=%27p%27,RowKey=%27r%27)";
        int overLimitByOne = Limits.MAX_REQUEST_BODY_BYTES + 1;
        byte[] head = client.request(method, target).head("Content-Type: application/json",
                "Content-Length: " + overLimitByOne);
        byte[] request = java.util.Arrays.copyOf(head, head.length + overLimitByOne);
        java.util.Arrays.fill(request, head.length, request.length, (byte) ' ');
        try (RawTableClient.Connection c = client.connect().timeout(PROMPT)) {
            RawTableClient.Response r = c.exchange(request);

            assertServiceError(r, 413, "RequestBodyTooLarge");
            assertThat(r.header("Connection")).as("%s", r).isNull();
            assertThat(c.exchange(client.request("GET", "Tables").head()).status()).isEqualTo(200);
        }
        assertServerStillServes();
    }

    @ParameterizedTest
    @ValueSource(strings = {"99999999999999999999999", "-5", "abc", "1, 2"})
    void refusesAContentLengthThatIsNotANumberOfBytes(String length) {
        try (RawTableClient.Connection c = client.connect().timeout(PROMPT)) {
            RawTableClient.Response r = c.exchange(client.request("POST", table)
                    .head("Content-Type: application/json", "Content-Length: " + length));

            assertWellFormedClientError(r);
            assertThat(r.header("Connection")).as("%s", r).isEqualToIgnoringCase("close");
        }
        assertServerStillServes();
    }

    /**
     * Client errors on a kept-alive connection, and whether the answer closes it: what the HTTP
     * server refuses before the pipeline sees the request (a URI it cannot decode, a head over its
     * limit) does; what the pipeline answers keeps it — unless the answer came before a large body
     * had arrived, whose rest the server then does not wait for (it says so).
     */
    static Stream<Arguments> clientErrorsOnAKeptAliveConnection() {
        String entity = "T(PartitionKey=%27p%27,RowKey=%27r%27)";
        return Stream.of(
                Arguments.of("malformed entity path", get("T(PartitionKey=%27p%27"), After.KEEPS),
                Arguments.of("control character in a key", get("T(PartitionKey=%27;%00%27,RowKey=%27r%27)"), After.KEEPS),
                Arguments.of("key over 1 KiB", get("T(PartitionKey=%27p%27,RowKey=%27" + "k".repeat(600) + "%27)"), After.KEEPS),
                Arguments.of("unknown entity", get("T(PartitionKey=%27none%27,RowKey=%27none%27)"), After.KEEPS),
                Arguments.of("unknown table", get("NoSuchTable999()"), After.KEEPS),
                Arguments.of("unknown verb", (Request) () -> client.request("FOO", "Tables"), After.KEEPS),
                Arguments.of("unsigned", (Request) () -> client.get("Tables").unsigned(), After.KEEPS),
                Arguments.of("bad $filter", get("T()?$filter=" + RawTableClient.encode("PartitionKey eq")), After.KEEPS),
                Arguments.of("bad $top", get("T()?$top=-1"), After.KEEPS),
                Arguments.of("malformed body", (Request) () -> client.request("POST", table).body("{\"PartitionKey\":"),
                        After.KEEPS),
                Arguments.of("malformed If-Match",
                        (Request) () -> client.request("PUT", t(entity)).header("If-Match", "abc").body("{}"), After.KEEPS),
                Arguments.of("malformed batch",
                        (Request) () -> client.request("POST", "$batch").contentType("multipart/mixed").body("x"), After.KEEPS),
                Arguments.of("bad session token",
                        (Request) () -> client.get(t(entity)).header("x-ms-session-token", "x"), After.KEEPS),
                Arguments.of("unsigned insert of 1 MiB", (Request) () -> client.request("POST", table).unsigned()
                        .body(entityOfBytes(1024 * 1024)), After.KEEPS_OR_SAYS_CLOSE),
                Arguments.of("1 MiB body on a malformed path", (Request) () -> client.request("PUT",
                        t("T(PartitionKey=%27p%27")).body(entityOfBytes(1024 * 1024)), After.KEEPS_OR_SAYS_CLOSE),
                Arguments.of("bad percent-escape", get("T(PartitionKey=%27p%zz,RowKey=%27r%27)"), After.CLOSES),
                Arguments.of("not UTF-8", get("T(PartitionKey=%27%ff%27,RowKey=%27r%27)"), After.CLOSES),
                Arguments.of("request head over the limit",
                        (Request) () -> client.get("Tables").header("x-ms-client-request-id", "c".repeat(300 * 1024)),
                        After.CLOSES));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clientErrorsOnAKeptAliveConnection")
    void keepsTheConnectionAfterAClientErrorOrSaysItCloses(String name, Request bad, After after) {
        try (RawTableClient.Connection c = client.connect().timeout(PROMPT)) {
            RawTableClient.Response r = c.exchange(bad.build().toKeepAliveBytes());

            assertWellFormedClientError(r);
            boolean saysClose = "close".equalsIgnoreCase(r.header("Connection"));
            if (after == After.CLOSES || after == After.KEEPS_OR_SAYS_CLOSE && saysClose) {
                assertThat(r.header("Connection")).as("%s", r).isEqualToIgnoringCase("close");
                assertThat(c.closedByServer(PROMPT)).as("closed after %s", r).isTrue();
            } else {
                assertThat(r.header("Connection")).as("%s", r).isNull();
                RawTableClient.Response next = c.exchange(client.get(table + "(PartitionKey=%27p%27,RowKey=%27r%27)")
                        .toKeepAliveBytes());
                assertThat(next.status()).as("the next request on the connection after %s", r).isEqualTo(200);
            }
        }
    }

    /** What becomes of a connection after a client error. */
    enum After { KEEPS, CLOSES, KEEPS_OR_SAYS_CLOSE }

    /** A request built when the test runs (the table name is only known then). */
    @FunctionalInterface
    interface Request {
        RawTableClient.Request build();
    }

    private static Request get(String target) {
        return () -> client.get(t(target));
    }

    /** {@code target} with the placeholder table {@code T} replaced by this test's table. */
    private static String t(String target) {
        return target.startsWith("T(") ? table + target.substring(1) : target;
    }

    private static void assertServerStillServes() {
        RawTableClient.Response r = client.get(table + "(PartitionKey=%27p%27,RowKey=%27r%27)").send();
        assertThat(r.status()).as("%s", r).isEqualTo(200);
    }

    /** An entity body of {@code size} bytes. */
    private static byte[] entityOfBytes(int size) {
        byte[] body = new byte[size];
        java.util.Arrays.fill(body, (byte) 'x');
        byte[] prefix = ascii("{\"PartitionKey\":\"p\",\"RowKey\":\"big\",\"A\":\"");
        System.arraycopy(prefix, 0, body, 0, prefix.length);
        body[size - 2] = '"';
        body[size - 1] = '}';
        return body;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
