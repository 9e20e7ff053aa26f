package io.tablestream.server.robustness;

import static io.tablestream.server.RawTableClient.encode;
import static io.tablestream.server.ServiceErrors.assertServiceError;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import io.tablestream.server.RawTableClient;
import io.tablestream.server.TablestreamServerExtension;
import io.tablestream.server.TablestreamServerExtension.RunningServer;
import io.tablestream.testsupport.KafkaExtension;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Query options, continuation tokens, session tokens and formats the SDK would not send. */
@ExtendWith({KafkaExtension.class, TablestreamServerExtension.class})
class QueryOptionsIT {
    private static RawTableClient client;
    private static String table;

    @BeforeAll
    static void createTable(RunningServer server) {
        client = new RawTableClient(server.port());
        table = "RobustQuery" + System.nanoTime() % 1_000_000;
        TableClient t = server.client().createTable(table);
        t.createEntity(new TableEntity("p", "r").addProperty("N", 1));
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "PartitionKey eq",
            "PartitionKey eq 'unterminated",
            "N eq 1 and",
            "(N eq 1",
            "N eq 1)",
            "N eq 1 xor N eq 2",
            "N === 1",
            "N eq datetime'yesterday'",
            "N eq guid'not-a-guid'",
            "N eq X'zz'",
            "N eq 99999999999999999999",
            "N eq 1.5.5",
            "not 'text'",
            "N eq 1 and 'text'",
            "''",
            "\u0000"})
    void rejectsAMalformedFilter(String filter) {
        assertServiceError(client.get(table + "()?$filter=" + encode(filter)).send(), 400, "InvalidInput");
    }

    @Test
    void rejectsAFilterOfSixteenComparisons() {
        String filter = IntStream.range(0, 16).mapToObj(i -> "N eq " + i).collect(Collectors.joining(" or "));

        assertServiceError(client.get(table + "()?$filter=" + encode(filter)).send(), 400, "InvalidInput");
    }

    @Test
    void acceptsAFilterOfFifteenComparisons() {
        String filter = IntStream.range(0, 15).mapToObj(i -> "N eq " + i).collect(Collectors.joining(" or "));

        assertThat(client.get(table + "()?$filter=" + encode(filter)).send().status()).isEqualTo(200);
    }

    @Test
    void answersAHundredKilobyteFilterWithTheServiceError() {
        String filter = "PartitionKey eq '" + "x".repeat(100 * 1024) + "'";

        assertServiceError(client.get(table + "()?$filter=" + encode(filter)).send(), 400, "InvalidInput");
    }

    @Test
    void servesAFilterLongerThanEightKilobytes() {
        String filter = "PartitionKey eq '" + "x".repeat(12 * 1024) + "' or PartitionKey eq 'p'";

        RawTableClient.Response r = client.get(table + "()?$filter=" + encode(filter)).send();

        assertThat(r.status()).as("%s", r).isEqualTo(200);
        assertThat(r.body()).contains("\"RowKey\":\"r\"");
    }

    @Test
    void rejectsATableFilterThatDoesNotParse() {
        assertServiceError(client.get("Tables?$filter=" + encode("TableName eq")).send(), 400, "InvalidInput");
    }

    @ParameterizedTest
    @ValueSource(strings = {"-1", "1001", "abc", "1.5", "", "2147483648", "1e3"})
    void rejectsAnInvalidTop(String top) {
        assertServiceError(client.get(table + "()?$top=" + encode(top)).send(), 400, "InvalidInput");
        assertServiceError(client.get("Tables?$top=" + encode(top)).send(), 400, "InvalidInput");
    }

    @ParameterizedTest
    @ValueSource(strings = {",", "N,,RowKey", "N RowKey", "*x", "N/Sub", "$x", "N)"})
    void rejectsAnInvalidSelect(String select) {
        assertServiceError(client.get(table + "()?$select=" + encode(select)).send(), 400, "InvalidInput");
        assertServiceError(client.get(table + "(PartitionKey='p',RowKey='r')?$select=" + encode(select)).send(),
                400, "InvalidInput");
    }

    static Stream<Arguments> forgedEntityContinuations() {
        return Stream.of(
                Arguments.of("garbage", "x"),
                Arguments.of("' or 1 eq 1 or ''='", "'"),
                Arguments.of("1!AAAA", "1!BB"),
                Arguments.of("../../etc/passwd", "%00"),
                Arguments.of("1!YQ--", ""),
                Arguments.of("", "1!YQ--"),
                Arguments.of("1!!!!!!", "1!YQ--"),
                Arguments.of("<script>", "1!YQ--"),
                Arguments.of("1!YQ--\r\nX-Injected: 1", "1!YQ--"));
    }

    @ParameterizedTest
    @MethodSource("forgedEntityContinuations")
    void rejectsAForgedEntityContinuation(String nextPartitionKey, String nextRowKey) {
        String target = table + "()?NextPartitionKey=" + encode(nextPartitionKey)
                + (nextRowKey.isEmpty() ? "" : "&NextRowKey=" + encode(nextRowKey));

        assertServiceError(client.get(target).send(), 400, "InvalidInput");
    }

    @Test
    void rejectsAHugeContinuationToken() {
        String token = "1!" + "QUFB".repeat(20_000);

        assertServiceError(client.get(table + "()?NextPartitionKey=" + token + "&NextRowKey=" + token).send(),
                400, "InvalidInput");
    }

    @ParameterizedTest
    @ValueSource(strings = {"garbage", "1!", "' or ''='", "1!@@@@"})
    void rejectsAForgedTableContinuation(String token) {
        assertServiceError(client.get("Tables?NextTableName=" + encode(token)).send(), 400, "InvalidInput");
    }

    @ParameterizedTest
    @ValueSource(strings = {"abc", "1:", ":1", "-1:5", "0:-5", "0:1;1:2", "0:99999999999999999999", "0:1 1:2", "x:y"})
    void rejectsAMalformedSessionToken(String token) {
        assertServiceError(client.get(table + "()").header("x-ms-session-token", token).send(), 400,
                "InvalidHeaderValue");
    }

    @Test
    void rejectsASessionTokenOfTooManyPositions() {
        String token = IntStream.range(0, 100).mapToObj(i -> "0:" + i).collect(Collectors.joining(","));

        assertServiceError(client.get(table + "()").header("x-ms-session-token", token).send(), 400,
                "InvalidHeaderValue");
    }

    @Test
    void rejectsASessionTokenNamingAPartitionTheLogDoesNotHave() {
        long started = System.nanoTime();

        RawTableClient.Response r = client.get(table + "()").header("x-ms-session-token", "0:0,4096:1").send();

        assertServiceError(r, 400, "InvalidHeaderValue");
        assertThat((System.nanoTime() - started) / 1_000_000).as("ms to answer").isLessThan(4_000);
    }

    @ParameterizedTest
    @CsvSource({
            "application/atom+xml, AtomFormatNotSupported",
            "application/xml, AtomFormatNotSupported",
            "'application/json;odata=verbose', JsonFormatNotSupported",
            "text/html, MediaTypeNotSupported",
            "image/png, MediaTypeNotSupported"})
    void rejectsAnUnsupportedAccept(String accept, String code) {
        assertServiceError(client.get(table + "()").accept(accept).send(), 415, code);
        assertServiceError(client.get(table + "(PartitionKey='p',RowKey='r')").accept(accept).send(), 415, code);
        assertServiceError(client.get("Tables").accept(accept).send(), 415, code);
    }

    @ParameterizedTest
    @CsvSource({
            "atom, AtomFormatNotSupported",
            "xml, AtomFormatNotSupported",
            "'application/json;odata=verbose', JsonFormatNotSupported",
            "csv, MediaTypeNotSupported"})
    void rejectsAnUnsupportedFormat(String format, String code) {
        assertServiceError(client.get(table + "()?$format=" + encode(format)).send(), 415, code);
    }

    @Test
    void rejectsAQueryWithoutAcceptOrFormatAsAtom() {
        assertServiceError(client.get(table + "()").accept(null).send(), 415, "AtomFormatNotSupported");
    }

    /**
     * A query option whose value holds a malformed escape is read as absent (a value that does not
     * decode counts for nothing), never refused: the entity comes back whole, in the format Accept
     * asks for; a later well-formed value of the same option counts.
     */
    @ParameterizedTest
    @ValueSource(strings = {"%zz", "%4", "%", "N%"})
    void readsAQueryOptionWhoseValueHasAMalformedEscapeAsAbsent(String malformed) {
        String entity = table + "(PartitionKey=%27p%27,RowKey=%27r%27)"; // sent as is, over a socket
        RawTableClient.Response plain = client.get(entity).accept("application/json;odata=nometadata").sendOverSocket();

        RawTableClient.Response r = client.get(entity + "?$select=" + malformed + "&$format=" + malformed)
                .accept("application/json;odata=nometadata").sendOverSocket();

        assertThat(r.status()).isEqualTo(200);
        assertThat(r.json()).isEqualTo(plain.json()).containsKey("N");
        assertThat(r.header("Content-Type")).isEqualTo(plain.header("Content-Type"));
        RawTableClient.Response later = client.get(entity + "?$select=" + malformed + "&$select=RowKey")
                .accept("application/json;odata=nometadata").sendOverSocket();
        assertThat(later.json()).containsKey("RowKey").doesNotContainKey("N");
        RawTableClient.Response rows = client.get(table + "()?$top=" + malformed).sendOverSocket();
        assertThat(rows.status()).isEqualTo(200);
        assertThat(rows.rows()).hasSize(1);
    }
}
