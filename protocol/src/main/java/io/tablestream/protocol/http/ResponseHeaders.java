package io.tablestream.protocol.http;

import io.javalin.http.Context;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** Headers every response carries. */
public final class ResponseHeaders {
    private ResponseHeaders() {
    }

    public static void standard(Context http, RequestContext request) {
        http.header(Headers.REQUEST_ID, request.requestId());
        http.header(Headers.VERSION, request.version());
        http.header("Date", DateTimeFormatter.RFC_1123_DATE_TIME.format(request.receivedAt().atOffset(ZoneOffset.UTC)));
        http.header("Cache-Control", "no-cache");
        http.header("X-Content-Type-Options", "nosniff");
        if (request.clientRequestId() != null) {
            http.header(Headers.CLIENT_REQUEST_ID, request.clientRequestId());
        }
    }

    /** Headers of an OData (JSON) response; {@code contentType} null when there is no body. */
    public static void odata(Context http, RequestContext request, String contentType) {
        standard(http, request);
        http.header(Headers.DATA_SERVICE_VERSION, "3.0;");
        if (contentType != null) {
            http.contentType(contentType);
        }
    }
}
