package io.tablestream.protocol.batch;

import static io.tablestream.protocol.batch.BatchRequestParserTest.changeSet;
import static io.tablestream.protocol.batch.BatchRequestParserTest.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.OptionalInt;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Malformed batches and the error each gets: code, and the failed operation's index when there is one. */
class BatchRequestRejectionTest {
    private static final String CT = "multipart/mixed; boundary=b";
    private static final String NO_INDEX = "-";
    private static final String DELETE = "DELETE http://h/a/t(PartitionKey='p',RowKey='1') HTTP/1.1";
    private static final String OK = request(DELETE, "If-Match: *", "");

    static Stream<Arguments> rejections() {
        return Stream.of(
                // the envelope: answered as a plain error, no index
                row("no Content-Type", null, changeSet(OK), ErrorCode.INVALID_INPUT, NO_INDEX),
                row("Content-Type not multipart", "application/json", changeSet(OK), ErrorCode.INVALID_INPUT, NO_INDEX),
                row("multipart/related", "multipart/related; boundary=b", changeSet(OK), ErrorCode.INVALID_INPUT, NO_INDEX),
                row("no boundary parameter", "multipart/mixed", changeSet(OK), ErrorCode.INVALID_INPUT, NO_INDEX),
                row("empty boundary", "multipart/mixed; boundary=", changeSet(OK), ErrorCode.INVALID_INPUT, NO_INDEX),
                row("empty quoted boundary", "multipart/mixed; boundary=\"\"", changeSet(OK), ErrorCode.INVALID_INPUT, NO_INDEX),
                row("unclosed quoted boundary", "multipart/mixed; boundary=\"b", changeSet(OK), ErrorCode.INVALID_INPUT, NO_INDEX),
                row("boundary with a character RFC 2046 forbids", "multipart/mixed; boundary=\"b@\"", changeSet(OK),
                        ErrorCode.INVALID_INPUT, NO_INDEX),
                row("boundary of 71 characters", "multipart/mixed; boundary=" + "x".repeat(71), changeSet(OK),
                        ErrorCode.INVALID_INPUT, NO_INDEX),
                row("empty body", CT, "", ErrorCode.INVALID_INPUT, NO_INDEX),
                row("body without the boundary", CT, "--other\r\n\r\n--other--\r\n", ErrorCode.INVALID_INPUT, NO_INDEX),
                row("batch without parts", CT, "--b--\r\n", ErrorCode.INVALID_INPUT, NO_INDEX),
                row("two change sets", CT, twoParts(csPart(OK), csPart(OK)), ErrorCode.INVALID_INPUT, NO_INDEX),
                row("a query beside a change set", CT, twoParts(csPart(OK), queryPart("GET http://h/a/t HTTP/1.1\r\n")),
                        ErrorCode.INVALID_INPUT, NO_INDEX),
                row("batch part of another type", CT, "--b\r\nContent-Type: text/plain\r\n\r\nhello\r\n--b--\r\n",
                        ErrorCode.INVALID_INPUT, NO_INDEX),
                row("batch part without Content-Type", CT, "--b\r\n\r\n--cs\r\n--cs--\r\n--b--\r\n",
                        ErrorCode.INVALID_INPUT, NO_INDEX),
                row("change set with the batch's boundary", CT,
                        "--b\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n--b--\r\n--b--\r\n",
                        ErrorCode.INVALID_INPUT, NO_INDEX),
                row("change set without its boundary line", CT,
                        "--b\r\nContent-Type: multipart/mixed; boundary=cs\r\n\r\nnothing here\r\n--b--\r\n",
                        ErrorCode.INVALID_INPUT, NO_INDEX),
                row("empty change set", CT, "--b\r\nContent-Type: multipart/mixed; boundary=cs\r\n\r\n--cs--\r\n--b--\r\n",
                        ErrorCode.INVALID_INPUT, NO_INDEX),
                row("change set cut short", CT, "--b\r\nContent-Type: multipart/mixed; boundary=cs\r\n\r\n--cs\r\n"
                        + "Content-Type: application/http\r\n\r\n" + OK + "\r\n--b--\r\n", ErrorCode.INVALID_INPUT, NO_INDEX),
                row("batch cut short", CT, changeSet(OK).substring(0, changeSet(OK).indexOf("--cs--")),
                        ErrorCode.INVALID_INPUT, NO_INDEX),
                row("batch cut inside a request", CT, changeSet(OK).substring(0, changeSet(OK).indexOf("If-Match")),
                        ErrorCode.INVALID_INPUT, NO_INDEX),
                row("lone request that is not a GET", CT, "--b\r\n" + queryPart(OK) + "--b--\r\n",
                        ErrorCode.INVALID_INPUT, NO_INDEX),
                row("change set whose Content-Type lacks a boundary", CT,
                        "--b\r\nContent-Type: multipart/mixed\r\n\r\n--b--\r\n", ErrorCode.INVALID_INPUT, NO_INDEX),

                // one operation: answered inside a 202, at the operation's index
                row("operation part of another type", CT, "--b\r\nContent-Type: multipart/mixed; boundary=cs\r\n\r\n"
                        + "--cs\r\nContent-Type: application/http\r\n\r\n" + OK + "\r\n"
                        + "--cs\r\nContent-Type: text/plain\r\n\r\n" + OK + "\r\n--cs--\r\n--b--\r\n",
                        ErrorCode.INVALID_INPUT, "1"),
                row("operation part without Content-Type", CT, "--b\r\nContent-Type: multipart/mixed; boundary=cs\r\n\r\n"
                        + "--cs\r\n\r\n" + OK + "\r\n--cs--\r\n--b--\r\n", ErrorCode.INVALID_INPUT, "0"),
                row("a change set nested in a change set", CT, "--b\r\nContent-Type: multipart/mixed; boundary=cs\r\n\r\n"
                        + "--cs\r\nContent-Type: application/http\r\n\r\n" + OK + "\r\n"
                        + "--cs\r\nContent-Type: multipart/mixed; boundary=inner\r\n\r\n--inner\r\n"
                        + "Content-Type: application/http\r\n\r\n" + OK + "\r\n--inner--\r\n--cs--\r\n--b--\r\n",
                        ErrorCode.INVALID_INPUT, "1"),
                row("base64 transfer encoding", CT, "--b\r\nContent-Type: multipart/mixed; boundary=cs\r\n\r\n"
                        + "--cs\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: base64\r\n\r\n" + OK
                        + "\r\n--cs--\r\n--b--\r\n", ErrorCode.INVALID_INPUT, "0"),
                row("part with no request", CT, changeSet("\r\n\r\n"), ErrorCode.INVALID_INPUT, "0"),
                row("request line of one word", CT, changeSet(OK, request("DELETE", "", "")), ErrorCode.INVALID_INPUT, "1"),
                row("request line without version", CT, changeSet(request("DELETE http://h/a/t", "", "")),
                        ErrorCode.INVALID_INPUT, "0"),
                row("request line without target", CT, changeSet(request("DELETE  HTTP/1.1", "", "")),
                        ErrorCode.INVALID_INPUT, "0"),
                row("HTTP/2.0", CT, changeSet(request("DELETE http://h/a/t HTTP/2.0", "", "")), ErrorCode.INVALID_INPUT, "0"),
                row("lower-case method", CT, changeSet(request("delete http://h/a/t HTTP/1.1", "", "")),
                        ErrorCode.INVALID_INPUT, "0"),
                row("unknown method", CT, changeSet(OK, OK, request("COPY http://h/a/t HTTP/1.1", "", "")),
                        ErrorCode.INVALID_INPUT, "2"),
                row("method with a separator", CT, changeSet(request("DEL(ETE http://h/a/t HTTP/1.1", "", "")),
                        ErrorCode.INVALID_INPUT, "0"),
                row("query inside the change set", CT, changeSet(OK, request("GET http://h/a/t HTTP/1.1", "", "")),
                        ErrorCode.INVALID_INPUT, "1"),
                row("control character in the target", CT, changeSet(request("DELETE http://h/\u0001 HTTP/1.1", "", "")),
                        ErrorCode.INVALID_INPUT, "0"),
                row("header line without colon", CT, changeSet(request(DELETE, "If-Match *", "")),
                        ErrorCode.INVALID_INPUT, "0"),
                row("space before a header's colon", CT, changeSet(request(DELETE, "If-Match : *", "")),
                        ErrorCode.INVALID_INPUT, "0"),
                row("bare CR inside a header value", CT, changeSet(request(DELETE, "If-Match: a\rb", "")),
                        ErrorCode.INVALID_INPUT, "0"),
                row("NUL inside a header value", CT, changeSet(request(DELETE, "If-Match: a\u0000b", "")),
                        ErrorCode.INVALID_INPUT, "0"),
                row("headers starting with a continuation", CT, changeSet(request(DELETE, " If-Match: *", "")),
                        ErrorCode.INVALID_INPUT, "0"),
                row("body shorter than Content-Length", CT,
                        changeSet(OK, request("POST http://h/a/t HTTP/1.1", "Content-Length: 20", "{}")),
                        ErrorCode.INVALID_INPUT, "1"),
                row("bytes after Content-Length", CT,
                        changeSet(request("POST http://h/a/t HTTP/1.1", "Content-Length: 2", "{}}")),
                        ErrorCode.INVALID_INPUT, "0"),
                row("Content-Length not a number", CT,
                        changeSet(request("POST http://h/a/t HTTP/1.1", "Content-Length: -2", "{}")),
                        ErrorCode.INVALID_INPUT, "0"),
                row("Content-Length too long to be a count", CT,
                        changeSet(request("POST http://h/a/t HTTP/1.1", "Content-Length: 99999999999", "{}")),
                        ErrorCode.INVALID_INPUT, "0"),
                row("conflicting Content-Lengths", CT,
                        changeSet(request("POST http://h/a/t HTTP/1.1", "Content-Length: 2\r\nContent-Length: 3", "{}")),
                        ErrorCode.INVALID_INPUT, "0"),
                row("X-HTTP-Method on a PUT", CT, changeSet(request("PUT http://h/a/t HTTP/1.1", "X-HTTP-Method: MERGE", "{}")),
                        ErrorCode.X_METHOD_NOT_USING_POST, "0"),
                row("two X-HTTP-Method headers", CT, changeSet(OK,
                        request("POST http://h/a/t HTTP/1.1", "X-HTTP-Method: MERGE\r\nX-HTTP-Method: PUT", "{}")),
                        ErrorCode.X_METHOD_INCORRECT_COUNT, "1"),
                row("X-HTTP-Method tunnelling a GET", CT,
                        changeSet(request("POST http://h/a/t HTTP/1.1", "X-HTTP-Method: GET", "")),
                        ErrorCode.X_METHOD_INCORRECT_VALUE, "0"),
                row("X-HTTP-Method of nonsense", CT,
                        changeSet(request("POST http://h/a/t HTTP/1.1", "X-HTTP-Method: FROB", "")),
                        ErrorCode.X_METHOD_INCORRECT_VALUE, "0"),
                row("101 header fields", CT, changeSet(request(DELETE, "X-A: 1\r\n".repeat(100) + "If-Match: *", "")),
                        ErrorCode.INVALID_INPUT, "0"),
                row("header section over 64 KiB", CT, changeSet(request(DELETE, "X-A: " + "a".repeat(65 * 1024), "")),
                        ErrorCode.INVALID_INPUT, "0"),
                row("request line over 64 KiB", CT,
                        changeSet(request("DELETE http://h/" + "a".repeat(65 * 1024) + " HTTP/1.1", "", "")),
                        ErrorCode.INVALID_INPUT, "0"),
                row("MIME header section over 64 KiB", CT, "--b\r\nContent-Type: multipart/mixed; boundary=cs\r\n\r\n--cs\r\n"
                        + "X-A: " + "a".repeat(65 * 1024) + "\r\nContent-Type: application/http\r\n\r\n" + OK
                        + "\r\n--cs--\r\n--b--\r\n", ErrorCode.INVALID_INPUT, "0"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rejections")
    void rejectsMalformedBatchesWithTheirErrorCodeAndIndex(String name, String contentType, String body,
                                                           ErrorCode code, String index) {
        assertThatThrownBy(() -> BatchRequest.parse(body.getBytes(StandardCharsets.UTF_8), contentType))
                .isInstanceOfSatisfying(TableServiceException.class, e -> {
                    assertThat(e.errorCode()).isEqualTo(code);
                    assertThat(e.failedIndex()).isEqualTo(
                            index.equals(NO_INDEX) ? OptionalInt.empty() : OptionalInt.of(Integer.parseInt(index)));
                    assertThat(e.getMessage()).isNotBlank();
                });
    }

    @Test
    void rejectsAHundredAndOneOperationsWithTheServicesMessageAtIndexZero() {
        String[] ops = new String[101];
        Arrays.fill(ops, OK);

        assertThatThrownBy(() -> BatchRequest.parse(changeSet(ops).getBytes(StandardCharsets.UTF_8), CT))
                .isInstanceOfSatisfying(TableServiceException.class, e -> {
                    assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_INPUT);
                    assertThat(e.failedIndex()).hasValue(0);
                    assertThat(e.getMessage())
                            .isEqualTo("The batch request operation exceeds the maximum 100 changes per change set.");
                });
    }

    @Test
    void acceptsExactlyAHundredOperationsAndAHundredHeaderFields() {
        String[] ops = new String[100];
        Arrays.fill(ops, request(DELETE, "X-A: 1\r\n".repeat(99) + "If-Match: *", ""));

        assertThat(BatchRequest.parse(changeSet(ops).getBytes(StandardCharsets.UTF_8), CT).operations()).hasSize(100);
    }

    @Test
    void rejectsABodyOverFourMebibytesAsTooLarge() {
        byte[] body = new byte[4 * 1024 * 1024 + 1];

        assertThatThrownBy(() -> BatchRequest.parse(body, CT))
                .isInstanceOfSatisfying(TableServiceException.class, e -> {
                    assertThat(e.errorCode()).isEqualTo(ErrorCode.REQUEST_BODY_TOO_LARGE);
                    assertThat(e.httpStatus()).isEqualTo(413);
                    assertThat(e.failedIndex()).isEmpty();
                });
    }

    @Test
    void acceptsABodyOfExactlyFourMebibytes() {
        String batch = changeSet(request("POST http://h/a/t HTTP/1.1", "", "{}"));
        byte[] body = new byte[4 * 1024 * 1024];
        Arrays.fill(body, (byte) ' ');
        byte[] bytes = batch.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(bytes, 0, body, body.length - bytes.length, bytes.length);
        body[body.length - bytes.length - 1] = '\n'; // a preamble of spaces, then the batch on its own line

        assertThat(BatchRequest.parse(body, CT).operations()).hasSize(1);
    }

    @Test
    void rejectsATargetThatIsNotUtf8() {
        byte[] body = changeSet(request("DELETE http://h/\u00ff HTTP/1.1", "", "")).getBytes(StandardCharsets.ISO_8859_1);

        assertThatThrownBy(() -> BatchRequest.parse(body, CT))
                .isInstanceOfSatisfying(TableServiceException.class, e -> {
                    assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_INPUT);
                    assertThat(e.failedIndex()).hasValue(0);
                });
    }

    private static Arguments row(String name, String contentType, String body, ErrorCode code, String index) {
        return arguments(name, contentType, body, code, index);
    }

    private static String csPart(String operation) {
        return "Content-Type: multipart/mixed; boundary=cs\r\n\r\n--cs\r\nContent-Type: application/http\r\n\r\n"
                + operation + "\r\n--cs--\r\n";
    }

    private static String queryPart(String request) {
        return "Content-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n" + request + "\r\n";
    }

    private static String twoParts(String first, String second) {
        return "--b\r\n" + first + "--b\r\n" + second + "--b--\r\n";
    }
}
