package io.tablestream.protocol.batch;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Hand-written bodies in the shapes other clients send (the REST reference's samples, the .NET, Python
 * and JS SDKs, the older Cosmos Table library) and the MIME latitude the parser grants.
 */
class BatchRequestParserTest {

    /** The text with every LF made CRLF, as most clients write. */
    static String crlf(String lfText) {
        return lfText.replace("\n", "\r\n");
    }

    static BatchRequest parse(String body, String contentType) {
        return BatchRequest.parse(body.getBytes(StandardCharsets.UTF_8), contentType);
    }

    static String text(BatchOperation op) {
        return new String(op.body(), StandardCharsets.UTF_8);
    }

    static List<String> headerLines(BatchOperation op) {
        return op.headers().asList().stream().map(f -> f.name() + ": " + f.value()).collect(Collectors.toList());
    }

    @Test
    void readsTheRestReferenceSampleWhoseBatchEndsWithAPlainDelimiter() {
        String body = crlf("""
                --batch_a1e9d677-b28b-435e-a89e-87e6a768a431
                Content-Type: multipart/mixed; boundary=changeset_8a28b620-b4bb-458c-a177-0959fb14c977

                --changeset_8a28b620-b4bb-458c-a177-0959fb14c977
                Content-Type: application/http
                Content-Transfer-Encoding: binary

                POST https://myaccount.table.core.windows.net/Blogs HTTP/1.1
                Content-Type: application/json
                Accept: application/json;odata=minimalmetadata
                Prefer: return-no-content
                DataServiceVersion: 3.0;

                {"PartitionKey":"Channel_19", "RowKey":"1", "Rating":9, "Text":".NET..."}
                --changeset_8a28b620-b4bb-458c-a177-0959fb14c977
                Content-Type: application/http
                Content-Transfer-Encoding: binary

                POST https://myaccount.table.core.windows.net/Blogs HTTP/1.1
                Content-Type: application/json
                Accept: application/json;odata=minimalmetadata
                Prefer: return-no-content
                DataServiceVersion: 3.0;

                {"PartitionKey":"Channel_17", "RowKey":"2", "Rating":9, "Text":"Azure..."}
                --changeset_8a28b620-b4bb-458c-a177-0959fb14c977
                Content-Type: application/http
                Content-Transfer-Encoding: binary

                MERGE https://myaccount.table.core.windows.net/Blogs(PartitionKey='Channel_17', RowKey='3') HTTP/1.1
                Content-Type: application/json
                Accept: application/json;odata=minimalmetadata
                DataServiceVersion: 3.0;

                {"PartitionKey":"Channel_19", "RowKey":"3", "Rating":9, "Text":"PDC 2008..."}

                --changeset_8a28b620-b4bb-458c-a177-0959fb14c977--
                --batch_a1e9d677-b28b-435e-a89e-87e6a768a431
                """);

        BatchRequest batch = parse(body, "multipart/mixed; boundary=batch_a1e9d677-b28b-435e-a89e-87e6a768a431");

        assertThat(batch.kind()).isEqualTo(BatchRequest.Kind.CHANGE_SET);
        assertThat(batch.operations()).extracting(BatchOperation::method).containsExactly(
                BatchOperation.Method.POST, BatchOperation.Method.POST, BatchOperation.Method.MERGE);
        assertThat(batch.operations().get(0).url()).isEqualTo("https://myaccount.table.core.windows.net/Blogs");
        assertThat(headerLines(batch.operations().get(0))).containsExactly(
                "Content-Type: application/json", "Accept: application/json;odata=minimalmetadata",
                "Prefer: return-no-content", "DataServiceVersion: 3.0;");
        assertThat(text(batch.operations().get(1)))
                .isEqualTo("{\"PartitionKey\":\"Channel_17\", \"RowKey\":\"2\", \"Rating\":9, \"Text\":\"Azure...\"}");
        BatchOperation merge = batch.operations().get(2);
        assertThat(merge.url())
                .isEqualTo("https://myaccount.table.core.windows.net/Blogs(PartitionKey='Channel_17', RowKey='3')");
        assertThat(text(merge)).isEqualTo(
                "{\"PartitionKey\":\"Channel_19\", \"RowKey\":\"3\", \"Rating\":9, \"Text\":\"PDC 2008...\"}\r\n");
    }

    @Test
    void readsTheDotNetSdkShape() {
        String body = crlf("""
                --batch_8e4fe0c7-37cb-4a08-8e3b-0a1f2f44d3b8
                Content-Type: multipart/mixed; boundary=changeset_4e6de2a0-1d9e-4e8d-a0c3-3c6d6c1b9a77

                --changeset_4e6de2a0-1d9e-4e8d-a0c3-3c6d6c1b9a77
                Content-Type: application/http
                Content-Transfer-Encoding: binary

                POST http://127.0.0.1:10002/devstoreaccount1/table0?$format=application%2Fjson%3Bodata%3Dminimalmetadata HTTP/1.1
                Accept: application/json
                Content-Type: application/json; odata=nometadata
                DataServiceVersion: 3.0
                Prefer: return-no-content

                {"PartitionKey":"PK","RowKey":"RK1","Value":"x"}
                --changeset_4e6de2a0-1d9e-4e8d-a0c3-3c6d6c1b9a77
                Content-Type: application/http
                Content-Transfer-Encoding: binary

                MERGE http://127.0.0.1:10002/devstoreaccount1/table0(PartitionKey='PK',RowKey='RK2')?$format=application%2Fjson%3Bodata%3Dminimalmetadata HTTP/1.1
                Accept: application/json
                Content-Type: application/json
                DataServiceVersion: 3.0
                If-Match: W/"datetime'2021-12-13T18%3A50%3A53.7412345Z'"

                {"PartitionKey":"PK","RowKey":"RK2","Value":"y"}
                --changeset_4e6de2a0-1d9e-4e8d-a0c3-3c6d6c1b9a77
                Content-Type: application/http
                Content-Transfer-Encoding: binary

                DELETE http://127.0.0.1:10002/devstoreaccount1/table0(PartitionKey='PK',RowKey='RK3')?$format=application%2Fjson%3Bodata%3Dminimalmetadata HTTP/1.1
                Accept: application/json
                DataServiceVersion: 3.0
                If-Match: *


                --changeset_4e6de2a0-1d9e-4e8d-a0c3-3c6d6c1b9a77--

                --batch_8e4fe0c7-37cb-4a08-8e3b-0a1f2f44d3b8--
                """);

        BatchRequest batch = parse(body, "multipart/mixed; boundary=batch_8e4fe0c7-37cb-4a08-8e3b-0a1f2f44d3b8");

        assertThat(batch.operations()).hasSize(3);
        assertThat(batch.operations().get(0).url()).endsWith("/table0?$format=application%2Fjson%3Bodata%3Dminimalmetadata");
        assertThat(batch.operations().get(1).headers().first("if-match"))
                .hasValue("W/\"datetime'2021-12-13T18%3A50%3A53.7412345Z'\"");
        assertThat(batch.operations().get(2).method()).isEqualTo(BatchOperation.Method.DELETE);
        assertThat(batch.operations().get(2).body()).isEmpty();
    }

    @Test
    void readsThePythonSdkShapeWithContentIdsAsPartHeaders() {
        String body = crlf("""
                --batch_0d8d2f6b-c1a4-11ee-9b2f-0242ac120002
                Content-Type: multipart/mixed; boundary=changeset_0d8d3108-c1a4-11ee-9b2f-0242ac120002

                --changeset_0d8d3108-c1a4-11ee-9b2f-0242ac120002
                Content-Type: application/http
                Content-Transfer-Encoding: binary
                Content-ID: 0

                POST https://acct.table.core.windows.net/uttable HTTP/1.1
                x-ms-date: Mon, 05 Feb 2024 10:00:00 GMT
                Date: Mon, 05 Feb 2024 10:00:00 GMT
                Content-Type: application/json
                Accept: application/json;odata=minimalmetadata
                Content-Length: 30
                Prefer: return-no-content
                DataServiceVersion: 3.0

                {"PartitionKey":"a","RowKey":"1"}
                --changeset_0d8d3108-c1a4-11ee-9b2f-0242ac120002
                Content-Type: application/http
                Content-Transfer-Encoding: binary
                Content-ID: 1

                PATCH https://acct.table.core.windows.net/uttable(PartitionKey='a',RowKey='2') HTTP/1.1
                x-ms-date: Mon, 05 Feb 2024 10:00:00 GMT
                Content-Type: application/json
                Accept: application/json;odata=minimalmetadata
                Content-Length: 33
                If-Match: *
                DataServiceVersion: 3.0

                {"PartitionKey":"a","RowKey":"2"}
                --changeset_0d8d3108-c1a4-11ee-9b2f-0242ac120002--

                --batch_0d8d2f6b-c1a4-11ee-9b2f-0242ac120002--
                """.replace("Content-Length: 30", "Content-Length: 33"));

        BatchRequest batch = parse(body, "multipart/mixed; boundary=batch_0d8d2f6b-c1a4-11ee-9b2f-0242ac120002");

        assertThat(batch.operations()).extracting(BatchOperation::contentId)
                .containsExactly(Optional.of("0"), Optional.of("1"));
        assertThat(batch.operations().get(1).method()).isEqualTo(BatchOperation.Method.PATCH);
        assertThat(text(batch.operations().get(0))).isEqualTo("{\"PartitionKey\":\"a\",\"RowKey\":\"1\"}");
    }

    @Test
    void readsLineFeedOnlyBodiesWithQuotedBoundariesAndLowerCaseHeaders() {
        String body = """
                --batch_mockBatchId
                content-type: multipart/mixed; boundary="changeset_mockChangesetId"

                --changeset_mockChangesetId
                content-type: application/http
                content-transfer-encoding: binary

                POST https://fakeaccount.table.core.windows.net/batchTableTest HTTP/1.1
                content-id: 0
                content-type: application/json;odata=nometadata
                accept: application/json;odata=minimalmetadata
                dataserviceversion: 3.0
                prefer: return-no-content


                {"PartitionKey":"batchTest","RowKey":"1","name":"first"}
                --changeset_mockChangesetId
                content-type: application/http
                content-transfer-encoding: binary

                DELETE https://fakeaccount.table.core.windows.net/batchTableTest(PartitionKey='batchTest',RowKey='3') HTTP/1.1
                content-id: 1
                accept: application/json;odata=minimalmetadata
                dataserviceversion: 3.0
                if-match: *


                --changeset_mockChangesetId--
                --batch_mockBatchId
                """;

        BatchRequest batch = parse(body, "multipart/mixed; boundary=\"batch_mockBatchId\"");

        assertThat(batch.operations()).hasSize(2);
        BatchOperation insert = batch.operations().get(0);
        assertThat(insert.contentId()).hasValue("0");
        assertThat(insert.headers().first("Prefer")).hasValue("return-no-content");
        assertThat(text(insert).strip()).isEqualTo("{\"PartitionKey\":\"batchTest\",\"RowKey\":\"1\",\"name\":\"first\"}");
        assertThat(batch.operations().get(1).contentId()).hasValue("1");
        assertThat(text(batch.operations().get(1))).isBlank();
    }

    @Test
    void readsTheCosmosTableLibraryShape() {
        String body = crlf("""
                --batch_eaa7e47a-6b1c-4f69-97fa-41fa16ebfcf3
                Content-Type: multipart/mixed; boundary=changeset_198b105c-425f-4b3e-8818-8329903fca83

                --changeset_198b105c-425f-4b3e-8818-8329903fca83
                Content-Type: application/http
                Content-Transfer-Encoding: binary

                POST https://podlocaltests.table.core.windows.net/dsadasdas() HTTP/1.1
                Accept: application/json;odata=minimalmetadata
                Content-Type: application/json
                Prefer: return-no-content
                DataServiceVersion: 3.0;

                {"PartitionKey":"pk2","RowKey":"1","StringField":"thing"}
                --changeset_198b105c-425f-4b3e-8818-8329903fca83--
                --batch_eaa7e47a-6b1c-4f69-97fa-41fa16ebfcf3--
                """);

        BatchRequest batch = parse(body, "multipart/mixed; boundary=batch_eaa7e47a-6b1c-4f69-97fa-41fa16ebfcf3");

        assertThat(batch.operations()).singleElement().satisfies(op -> {
            assertThat(op.url()).isEqualTo("https://podlocaltests.table.core.windows.net/dsadasdas()");
            assertThat(text(op)).isEqualTo("{\"PartitionKey\":\"pk2\",\"RowKey\":\"1\",\"StringField\":\"thing\"}");
        });
    }

    @Test
    void readsALoneQueryWrittenDirectlyInTheBatch() {
        String body = crlf("""
                --batch_f351702c-c8c8-48c6-af2c-91b809c651ce
                Content-Type: application/http
                Content-Transfer-Encoding: binary

                GET https://myaccount.table.core.windows.net/Blogs(PartitionKey='Channel_19',RowKey='2') HTTP/1.1
                Accept: application/json;odata=minimalmetadata

                --batch_f351702c-c8c8-48c6-af2c-91b809c651ce--
                """);

        BatchRequest batch = parse(body, "multipart/mixed; boundary=batch_f351702c-c8c8-48c6-af2c-91b809c651ce");

        assertThat(batch.isQuery()).isTrue();
        assertThat(batch.operations()).singleElement().satisfies(op -> {
            assertThat(op.method()).isEqualTo(BatchOperation.Method.GET);
            assertThat(op.url()).endsWith("/Blogs(PartitionKey='Channel_19',RowKey='2')");
            assertThat(headerLines(op)).containsExactly("Accept: application/json;odata=minimalmetadata");
            assertThat(op.body()).isEmpty();
        });
    }

    @Test
    void tunnelsMethodsThroughXHttpMethodOnAPost() {
        BatchRequest batch = parse(changeSet(
                request("POST http://h/a/t(PartitionKey='p',RowKey='1') HTTP/1.1", "X-HTTP-Method: MERGE", "{}"),
                request("POST http://h/a/t(PartitionKey='p',RowKey='2') HTTP/1.1", "x-http-method: delete", "")),
                "multipart/mixed; boundary=b");

        assertThat(batch.operations()).extracting(BatchOperation::method)
                .containsExactly(BatchOperation.Method.MERGE, BatchOperation.Method.DELETE);
        assertThat(batch.operations().get(0).headers().first("X-HTTP-Method")).hasValue("MERGE");
    }

    @Test
    void toleratesPreambleEpilogueTransportPaddingAndAMissingFinalLineBreak() {
        String body = "This preamble is ignored.\r\n"
                + "--b \t\r\n"
                + "Content-Type: multipart/mixed;boundary=\"cs\"; charset=utf-8\r\n\r\n"
                + "ignored change set preamble\r\n"
                + "--cs  \r\n"
                + "Content-Type: Application/HTTP; msgtype=request\r\n"
                + "Content-Transfer-Encoding: 8BIT\r\n\r\n"
                + "DELETE http://h/a/t(PartitionKey='p',RowKey='1') HTTP/1.1\r\n"
                + "If-Match: *\r\n\r\n\r\n"
                + "--cs-- trailing words\r\n"
                + "change set epilogue\r\n"
                + "--b--";

        BatchRequest batch = parse(body, "Multipart/Mixed ; Boundary=b");

        assertThat(batch.operations()).singleElement()
                .satisfies(op -> assertThat(op.method()).isEqualTo(BatchOperation.Method.DELETE));
    }

    @Test
    void unfoldsFoldedHeaderLinesWithOneSpace() {
        BatchRequest batch = parse(changeSet(request("PUT http://h/a/t(PartitionKey='p',RowKey='1') HTTP/1.1",
                "Accept: application/json;\r\n\t odata=minimalmetadata\r\nIf-Match: *", "{}")),
                "multipart/mixed; boundary=b");

        assertThat(batch.operations().get(0).headers().first("Accept"))
                .hasValue("application/json; odata=minimalmetadata");
        assertThat(batch.operations().get(0).headers().first("If-Match")).hasValue("*");
    }

    @Test
    void takesOnlyWholeDelimiterLinesAsDelimiters() {
        String json = "{\"PartitionKey\":\"p\",\"RowKey\":\"1\",\"s\":\"x --cs y\"}\r\n--cs2\r\n--csx\r\n -- cs";
        BatchRequest batch = parse(changeSet(request("PUT http://h/a/t(PartitionKey='p',RowKey='1') HTTP/1.1",
                "If-Match: *", json)), "multipart/mixed; boundary=b");

        assertThat(text(batch.operations().get(0))).isEqualTo(json);
    }

    @Test
    void keepsBodyBytesThatAreNotText() {
        byte[] head = crlf("""
                --b
                Content-Type: multipart/mixed; boundary=cs

                --cs
                Content-Type: application/http

                POST http://h/a/t HTTP/1.1

                """).getBytes(StandardCharsets.US_ASCII);
        byte[] payload = {0, (byte) 0xFF, (byte) 0xC3, '\r', '\n', '-', '-'};
        byte[] tail = "\r\n--cs--\r\n--b--\r\n".getBytes(StandardCharsets.US_ASCII);
        byte[] body = new byte[head.length + payload.length + tail.length];
        System.arraycopy(head, 0, body, 0, head.length);
        System.arraycopy(payload, 0, body, head.length, payload.length);
        System.arraycopy(tail, 0, body, head.length + payload.length, tail.length);

        BatchRequest batch = BatchRequest.parse(body, "multipart/mixed; boundary=b");

        assertThat(batch.operations().get(0).body()).containsExactly(payload);
    }

    @Test
    void honoursAnInnerContentLengthAndTheWhitespaceAfterIt() {
        BatchRequest batch = parse(changeSet(request("POST http://h/a/t HTTP/1.1", "Content-Length: 2",
                "{}\r\n  \r\n")), "multipart/mixed; boundary=b");

        assertThat(text(batch.operations().get(0))).isEqualTo("{}");
    }

    @Test
    void prefersThePartsContentIdToTheRequests() {
        String body = "--b\r\nContent-Type: multipart/mixed; boundary=cs\r\n\r\n"
                + "--cs\r\nContent-Type: application/http\r\nContent-ID: part-1\r\n\r\n"
                + "POST http://h/a/t HTTP/1.1\r\nContent-ID: request-1\r\n\r\n{}\r\n"
                + "--cs--\r\n--b--\r\n";

        BatchRequest batch = parse(body, "multipart/mixed; boundary=b");

        assertThat(batch.operations().get(0).contentId()).hasValue("part-1");
        assertThat(batch.operations().get(0).headers().first("Content-ID")).hasValue("request-1");
    }

    @Test
    void skipsEmptyLinesBeforeTheRequestLineAndReadsHttp10() {
        BatchRequest batch = parse(changeSet("\r\n\r\nDELETE http://h/a/t(PartitionKey='p',RowKey='1') HTTP/1.0\r\n"
                + "If-Match: *\r\n"), "multipart/mixed; boundary=b");

        assertThat(batch.operations().get(0).method()).isEqualTo(BatchOperation.Method.DELETE);
    }

    @Test
    void readsARequestWhoseHeadersRunToTheDelimiter() {
        String body = "--b\r\nContent-Type: multipart/mixed; boundary=cs\r\n\r\n"
                + "--cs\r\nContent-Type: application/http\r\n\r\n"
                + "DELETE http://h/a/t(PartitionKey='p',RowKey='1') HTTP/1.1\r\nIf-Match: *\r\n"
                + "--cs--\r\n--b--\r\n";

        BatchRequest batch = parse(body, "multipart/mixed; boundary=b");

        assertThat(batch.operations().get(0).headers().first("If-Match")).hasValue("*");
        assertThat(batch.operations().get(0).body()).isEmpty();
    }

    // ---------------------------------------------------------------- builders shared with other tests

    /** A batch with boundary {@code b} holding a change set with boundary {@code cs} of these part contents. */
    static String changeSet(String... requests) {
        StringBuilder sb = new StringBuilder("--b\r\nContent-Type: multipart/mixed; boundary=cs\r\n\r\n");
        for (String r : requests) {
            sb.append("--cs\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n")
                    .append(r).append("\r\n");
        }
        return sb.append("--cs--\r\n--b--\r\n").toString();
    }

    /** An application/http part's content: request line, header lines (CRLF-separated), empty line, body. */
    static String request(String requestLine, String headers, String body) {
        return requestLine + "\r\n" + (headers.isEmpty() ? "" : headers + "\r\n") + "\r\n" + body;
    }
}
