package io.tablestream.protocol.http;

import io.javalin.http.Context;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.odata.ErrorJsonWriter;
import io.tablestream.protocol.request.Operation;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * The one place errors are written: status, {@code x-ms-error-code}, the request headers, and the
 * body — {@code odata.error} JSON for OData operations, the storage {@code <Error>} XML for the XML
 * ones (ACL, service properties and stats) and for a refused preflight, nothing for a HEAD.
 */
public final class ErrorResponses {
    /** The Content-Type of an {@code odata.error} body. */
    static final String JSON_CONTENT_TYPE = "application/json;odata=minimalmetadata;streaming=true;charset=utf-8";
    /** Seconds a client should wait before retrying a 503. */
    static final String RETRY_AFTER_SECONDS = "1";

    private ErrorResponses() {
    }

    public static void write(Context http, RequestContext request, TableServiceException error) {
        ErrorCode code = error.errorCode();
        http.status(code.httpStatus());
        ResponseHeaders.standard(http, request);
        http.header(Headers.ERROR_CODE, code.code());
        if (code == ErrorCode.SERVER_BUSY) {
            http.header(Headers.RETRY_AFTER, RETRY_AFTER_SECONDS);
        }
        Operation operation = request.operation();
        if ("HEAD".equals(http.method().name())) {
            return;
        }
        if (operation != null && operation.body() == Operation.Body.XML) {
            http.contentType("application/xml");
            http.result(xml(error, request));
        } else {
            http.contentType(JSON_CONTENT_TYPE);
            http.result(json(error, request));
        }
    }

    /** The {@code odata.error} body (also used inside a batch response). */
    public static byte[] json(TableServiceException error, RequestContext request) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        try {
            ErrorJsonWriter.write(out, error, request.requestId(), Instant.now());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    static byte[] xml(TableServiceException error, RequestContext request) {
        String message = error.getMessage() + "\nRequestId:" + request.requestId() + "\nTime:"
                + EdmDateTime.of(Instant.now()).toIso();
        String body = "<?xml version=\"1.0\" encoding=\"utf-8\"?><Error><Code>" + escape(error.errorCode().code())
                + "</Code><Message>" + escape(message) + "</Message></Error>";
        return body.getBytes(StandardCharsets.UTF_8);
    }

    private static String escape(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '&' -> sb.append("&amp;");
                case '"' -> sb.append("&quot;");
                default -> {
                    if (c < 0x20 && c != '\n' && c != '\r' && c != '\t') {
                        sb.append(' ');
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.toString();
    }
}
