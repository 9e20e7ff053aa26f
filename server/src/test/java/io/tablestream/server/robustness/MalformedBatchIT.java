package io.tablestream.server.robustness;

import static io.tablestream.server.ServiceErrors.assertServiceError;
import static io.tablestream.server.ServiceErrors.odataError;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.ListEntitiesOptions;
import io.tablestream.server.RawTableClient;
import io.tablestream.server.TablestreamServerExtension;
import io.tablestream.server.TablestreamServerExtension.RunningServer;
import io.tablestream.testsupport.KafkaExtension;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code $batch} bodies that cannot be taken apart (a plain 400) or whose change set fails at one
 * operation (a 202 holding that operation's error), and in no case any write.
 */
@ExtendWith({KafkaExtension.class, TablestreamServerExtension.class})
class MalformedBatchIT {
    private static final String BATCH = "batch_7d2e";
    private static final String CHANGE_SET = "changeset_41aa";

    private static RawTableClient client;
    private static TableClient sdk;
    private static String table;
    private static String otherTable;
    private static String base;

    @BeforeAll
    static void createTables(RunningServer server) {
        client = new RawTableClient(server.port());
        long suffix = System.nanoTime() % 1_000_000;
        table = "RobustBatch" + suffix;
        otherTable = "RobustBatchOther" + suffix;
        sdk = server.client().createTable(table);
        server.client().createTable(otherTable);
        base = "http://127.0.0.1:" + server.port() + "/devstoreaccount1/";
    }

    @Test
    void acceptsAWellFormedChangeSet() {
        try {
            RawTableClient.Response r = send(batch(changeSet(insert(table, "ok1"), insert(table, "ok2"))));

            assertThat(r.status()).as("%s", r).isEqualTo(202);
            assertThat(r.body()).contains("HTTP/1.1 204 No Content").doesNotContain("odata.error");
        } finally {
            deleteAll();
        }
    }

    @Test
    void rejectsABodyWhoseBoundaryIsNotTheDeclaredOne() {
        RawTableClient.Response r = client.request("POST", "$batch").contentType("multipart/mixed; boundary=other")
                .body(batch(changeSet(insert(table, "b1")))).send();

        assertServiceError(r, 400, "InvalidInput");
        assertNothingWritten();
    }

    @Test
    void rejectsABatchWithoutBoundaryOrContentType() {
        assertServiceError(client.request("POST", "$batch").contentType("multipart/mixed")
                .body(batch(changeSet(insert(table, "b1")))).send(), 400, "InvalidInput");
        assertServiceError(client.request("POST", "$batch").contentType(null)
                .body(batch(changeSet(insert(table, "b1")))).send(), 400, "InvalidInput");
        assertServiceError(client.request("POST", "$batch").contentType("application/json")
                .body(batch(changeSet(insert(table, "b1")))).send(), 400, "InvalidInput");
        assertNothingWritten();
    }

    @Test
    void rejectsAnEmptyBatch() {
        assertServiceError(send(""), 400, "InvalidInput");
        assertServiceError(send("--" + BATCH + "--\r\n"), 400, "InvalidInput");
    }

    @Test
    void rejectsAChangeWrittenOutsideAChangeSet() {
        String body = "--" + BATCH + "\r\n" + insert(table, "n1") + "--" + BATCH + "--\r\n";

        assertServiceError(send(body), 400, "InvalidInput");
        assertNothingWritten();
    }

    /** A body cut anywhere lacks its closing delimiters: it cannot be taken apart, so it is a plain 400. */
    @Test
    void rejectsATruncatedBatch() {
        String whole = batch(changeSet(insert(table, "t1"), insert(table, "t2")));
        int inBatchDelimiter = 10;
        int inChangeSetHeader = whole.indexOf("boundary=" + CHANGE_SET) + "boundary=".length() + 6;
        int inFirstBody = whole.indexOf("\"RowKey\":\"t1\"");
        int inClosingDelimiter = whole.lastIndexOf("--" + CHANGE_SET + "--") + 6;
        for (int cut : new int[] {inBatchDelimiter, inChangeSetHeader, inFirstBody, inClosingDelimiter}) {
            RawTableClient.Response r = send(whole.substring(0, cut));

            assertServiceError(r, 400, "InvalidInput");
            assertThat(odataError(r.bytes()).get("value")).as("cut at %d", cut)
                    .containsAnyOf("cut short", "no delimiter line");
        }
        assertNothingWritten();
    }

    @Test
    void rejectsTwoChangeSets() {
        String body = "--" + BATCH + "\r\n" + changeSetPart("cs_one", insert(table, "a1"))
                + "--" + BATCH + "\r\n" + changeSetPart("cs_two", insert(table, "a2")) + "--" + BATCH + "--\r\n";

        assertServiceError(send(body), 400, "InvalidInput");
        assertNothingWritten();
    }

    @Test
    void rejectsAChangeSetOfOneHundredAndOneOperations() {
        List<String> ops = new ArrayList<>();
        for (int i = 0; i < 101; i++) {
            ops.add(insert(table, "m" + i));
        }

        RawTableClient.Response r = send(batch(changeSet(ops.toArray(String[]::new))));

        assertFailedOperation(r, 400, "InvalidInput");
        assertThat(failureMessage(r)).startsWith("0:");
        assertNothingWritten();
    }

    @Test
    void rejectsAnOperationOnAnotherAccount() {
        String other = "POST http://127.0.0.1:" + client.port() + "/otheraccount/" + table + " HTTP/1.1";
        RawTableClient.Response r = send(batch(changeSet(insert(table, "x1"),
                insert(table, "x2").replaceFirst("POST [^\r]*", other))));

        assertFailedOperation(r, 400, "InvalidInput");
        assertThat(failureMessage(r)).startsWith("1:");
        assertNothingWritten();
    }

    @Test
    void rejectsAChangeSetSpanningTwoTables() {
        RawTableClient.Response r = send(batch(changeSet(insert(table, "y1"), insert(otherTable, "y2"))));

        assertFailedOperation(r, 400, "InvalidInput");
        assertThat(failureMessage(r)).startsWith("1:");
        assertNothingWritten();
    }

    @Test
    void rejectsAQueryInsideAChangeSet() {
        String get = "Content-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n"
                + "GET " + base + table + "(PartitionKey='p',RowKey='g1') HTTP/1.1\r\n"
                + "Accept: application/json;odata=minimalmetadata\r\n\r\n";

        RawTableClient.Response r = send(batch(changeSet(insert(table, "g0"), get)));

        assertFailedOperation(r, 400, "InvalidInput");
        assertThat(failureMessage(r)).startsWith("1:");
        assertNothingWritten();
    }

    @Test
    void rejectsAnOperationWithAMalformedBody() {
        String broken = insert(table, "z1").replace("\"RowKey\":\"z1\"}", "\"RowKey\":\"z1\"");

        RawTableClient.Response r = send(batch(changeSet(insert(table, "z0"), broken)));

        assertFailedOperation(r, 400, "InvalidInput");
        assertThat(failureMessage(r)).startsWith("1:");
        assertNothingWritten();
    }

    @Test
    void answersAChangeSetOnAMissingTableWithTheOperationsError() {
        RawTableClient.Response r = send(batch(changeSet(insert("NoSuchTable" + System.nanoTime() % 100000, "w1"))));

        assertFailedOperation(r, 404, "TableNotFound");
    }

    @Test
    void rejectsGarbage() {
        assertServiceError(send("\u0000\u0001garbage\r\n\r\n--"), 400, "InvalidInput");
        assertServiceError(send("--" + BATCH + "\r\nContent-Type: multipart/mixed; boundary=" + BATCH + "\r\n\r\n--"
                + BATCH + "--\r\n"), 400, "InvalidInput");
    }

    // ------------------------------------------------------------------ helpers

    private static RawTableClient.Response send(String body) {
        return client.request("POST", "$batch").contentType("multipart/mixed; boundary=" + BATCH)
                .body(body.getBytes(StandardCharsets.UTF_8)).send();
    }

    private static String insert(String tableName, String rowKey) {
        String json = "{\"PartitionKey\":\"p\",\"RowKey\":\"" + rowKey + "\"}";
        return "Content-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n"
                + "POST " + base + tableName + " HTTP/1.1\r\n"
                + "Accept: application/json;odata=minimalmetadata\r\nPrefer: return-no-content\r\n"
                + "Content-Type: application/json\r\nContent-Length: " + json.length() + "\r\n\r\n" + json + "\r\n";
    }

    private static String changeSet(String... operations) {
        return changeSetPart(CHANGE_SET, operations);
    }

    private static String changeSetPart(String boundary, String... operations) {
        StringBuilder sb = new StringBuilder("Content-Type: multipart/mixed; boundary=" + boundary + "\r\n\r\n");
        for (String op : operations) {
            sb.append("--").append(boundary).append("\r\n").append(op);
        }
        return sb.append("--").append(boundary).append("--\r\n").toString();
    }

    private static String batch(String changeSet) {
        return "--" + BATCH + "\r\n" + changeSet + "--" + BATCH + "--\r\n";
    }

    /** A 202 whose change set failed at one operation with {@code status} and {@code code}. */
    private static void assertFailedOperation(RawTableClient.Response r, int status, String code) {
        assertThat(r.status()).as("%s", r).isEqualTo(202);
        assertThat(r.header("x-ms-request-id")).isNotBlank();
        assertThat(r.header("Content-Type")).startsWith("multipart/mixed; boundary=batchresponse_");
        assertThat(r.body()).contains("HTTP/1.1 " + status + " ");
        assertThat(odataError(innerBody(r)).get("code")).isEqualTo(code);
    }

    private static String failureMessage(RawTableClient.Response r) {
        return odataError(innerBody(r)).get("value");
    }

    private static byte[] innerBody(RawTableClient.Response r) {
        Matcher m = Pattern.compile("\\{\"odata\\.error\".*?\\}\\}\\}").matcher(r.body());
        assertThat(m.find()).as("an odata.error inside %s", r).isTrue();
        return m.group().getBytes(StandardCharsets.UTF_8);
    }

    private static void assertNothingWritten() {
        assertThat(sdk.listEntities(new ListEntitiesOptions(), null, null).stream().count()).isZero();
    }

    private static void deleteAll() {
        sdk.listEntities().forEach(e -> sdk.deleteEntity(e.getPartitionKey(), e.getRowKey()));
    }
}
