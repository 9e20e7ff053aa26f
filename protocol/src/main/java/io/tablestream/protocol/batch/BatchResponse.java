package io.tablestream.protocol.batch;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * The body of a {@code $batch} response and its {@code Content-Type}. The HTTP layer sends it with
 * status {@code 202 Accepted} (even when the change set failed) and the service's usual headers
 * ({@code Cache-Control: no-cache}, {@code X-Content-Type-Options: nosniff}, {@code x-ms-request-id},
 * {@code x-ms-version}, {@code Date}).
 *
 * <p>The shape is the service's, byte for byte apart from the ids: lines end in CRLF; the batch's
 * boundary is {@code batchresponse_<uuid>} and the change set's {@code changesetresponse_<uuid>}; the
 * body opens directly with the first delimiter (no preamble); each operation is a part with
 * {@code Content-Type: application/http} and {@code Content-Transfer-Encoding: binary}, an empty line,
 * then the response: {@code HTTP/1.1 <status> <reason>}, its header fields, an empty line, its body.
 * The line break before the next delimiter follows every body, empty or not; the close delimiters of
 * the change set and of the batch each end with CRLF. The Java SDK depends on the details: it requires
 * the first line to start with {@code --batchresponse_}, splits operations at lines starting with
 * {@code --changesetresponse_}, and reads the status from characters 9 to 12 of the status line.
 */
public record BatchResponse(String contentType, byte[] body) {
    private static final String CRLF = "\r\n";

    public BatchResponse {
        Objects.requireNonNull(contentType, "contentType");
        body = Objects.requireNonNull(body, "body").clone();
    }

    /** The answer to a change set whose operations all succeeded, one response per operation in order. */
    public static BatchResponse changeSet(List<OperationResponse> responses) {
        return changeSet(responses, UUID.randomUUID(), UUID.randomUUID());
    }

    public static BatchResponse changeSet(List<OperationResponse> responses, UUID batchId, UUID changeSetId) {
        if (responses.isEmpty()) {
            throw new IllegalArgumentException("A change set response holds at least one operation response");
        }
        String batchBoundary = "batchresponse_" + batchId;
        String changeSetBoundary = "changesetresponse_" + changeSetId;
        Writer w = new Writer();
        w.line("--" + batchBoundary);
        w.line("Content-Type: multipart/mixed; boundary=" + changeSetBoundary);
        w.line("");
        for (OperationResponse response : responses) {
            w.line("--" + changeSetBoundary);
            w.httpPart(response);
        }
        w.line("--" + changeSetBoundary + "--");
        w.line("--" + batchBoundary + "--");
        return new BatchResponse(contentTypeFor(batchBoundary), w.bytes());
    }

    /**
     * The answer to a change set that failed and was rolled back: the one failed operation's response
     * (see {@link OperationResponse#failed}), alone in the change set response.
     */
    public static BatchResponse failedChangeSet(OperationResponse failure) {
        return failedChangeSet(failure, UUID.randomUUID(), UUID.randomUUID());
    }

    public static BatchResponse failedChangeSet(OperationResponse failure, UUID batchId, UUID changeSetId) {
        if (failure.status() < 400) {
            throw new IllegalArgumentException("A failed change set is answered with an error status, not "
                    + failure.status());
        }
        return changeSet(List.of(failure), batchId, changeSetId);
    }

    /** The answer to a lone query: its response written directly in the batch, without a change set. */
    public static BatchResponse query(OperationResponse response) {
        return query(response, UUID.randomUUID());
    }

    public static BatchResponse query(OperationResponse response, UUID batchId) {
        String batchBoundary = "batchresponse_" + batchId;
        Writer w = new Writer();
        w.line("--" + batchBoundary);
        w.httpPart(response);
        w.line("--" + batchBoundary + "--");
        return new BatchResponse(contentTypeFor(batchBoundary), w.bytes());
    }

    private static String contentTypeFor(String batchBoundary) {
        return "multipart/mixed; boundary=" + batchBoundary;
    }

    /** A copy of the body. */
    @Override
    public byte[] body() {
        return body.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BatchResponse && contentType.equals(((BatchResponse) o).contentType)
                && Arrays.equals(body, ((BatchResponse) o).body);
    }

    @Override
    public int hashCode() {
        return 31 * contentType.hashCode() + Arrays.hashCode(body);
    }

    @Override
    public String toString() {
        return "BatchResponse[" + contentType + ", " + body.length + " bytes]";
    }

    /** Accumulates the body; text is written as UTF-8. */
    private static final class Writer {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream(1024);

        void line(String s) {
            text(s);
            text(CRLF);
        }

        void text(String s) {
            out.writeBytes(s.getBytes(StandardCharsets.UTF_8));
        }

        /** An application/http part: its MIME headers, the status line, fields, body, and the break after it. */
        void httpPart(OperationResponse response) {
            line("Content-Type: application/http");
            line("Content-Transfer-Encoding: binary");
            line("");
            line("HTTP/1.1 " + response.status() + " " + reasonPhrase(response.status()));
            for (HeaderField f : response.headers().asList()) {
                line(f.name() + ": " + f.value());
            }
            line("");
            out.writeBytes(response.bodyView());
            text(CRLF);
        }

        byte[] bytes() {
            return out.toByteArray();
        }
    }

    /** The reason phrase for {@code status}, as HTTP.sys (the service's front end) writes it. */
    static String reasonPhrase(int status) {
        return switch (status) {
            case 200 -> "OK";
            case 201 -> "Created";
            case 202 -> "Accepted";
            case 204 -> "No Content";
            case 400 -> "Bad Request";
            case 401 -> "Unauthorized";
            case 403 -> "Forbidden";
            case 404 -> "Not Found";
            case 405 -> "Method Not Allowed";
            case 409 -> "Conflict";
            case 411 -> "Length Required";
            case 412 -> "Precondition Failed";
            case 413 -> "Request Entity Too Large";
            case 415 -> "Unsupported Media Type";
            case 416 -> "Requested Range Not Satisfiable";
            case 500 -> "Internal Server Error";
            case 501 -> "Not Implemented";
            case 503 -> "Service Unavailable";
            default -> ""; // an empty reason phrase is valid HTTP; clients read the code
        };
    }
}
