package io.tablestream.protocol.http;

import io.javalin.http.Context;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BiConsumer;

/** Headers every response carries. */
public final class ResponseHeaders {
    /** The last second a {@code Date} was written for, and how: most responses fall in the same second as the one before. */
    private static volatile DateText lastDate = new DateText(Long.MIN_VALUE, "");

    private record DateText(long epochSecond, String text) {
    }

    private ResponseHeaders() {
    }

    /** {@code receivedAt} as the {@code Date} header writes it (RFC 1123: to the second). */
    static String date(Instant receivedAt) {
        DateText last = lastDate;
        if (last.epochSecond() != receivedAt.getEpochSecond()) {
            last = new DateText(receivedAt.getEpochSecond(),
                    DateTimeFormatter.RFC_1123_DATE_TIME.format(receivedAt.atOffset(ZoneOffset.UTC)));
            lastDate = last;
        }
        return last.text();
    }

    public static void standard(Context http, RequestContext request) {
        fields(request, http::header);
    }

    /** The standard headers, by name, for writers that have no Javalin context. */
    static Map<String, String> fields(RequestContext request) {
        Map<String, String> fields = new LinkedHashMap<>();
        fields(request, fields::put);
        return fields;
    }

    /** Each standard header, in order, to {@code sink}: straight onto a response, without a map in between. */
    private static void fields(RequestContext request, BiConsumer<String, String> sink) {
        sink.accept(Headers.REQUEST_ID, request.requestId());
        sink.accept(Headers.VERSION, request.version());
        sink.accept("Date", date(request.receivedAt()));
        sink.accept("Cache-Control", "no-cache");
        sink.accept("X-Content-Type-Options", "nosniff");
        if (request.clientRequestId() != null) {
            sink.accept(Headers.CLIENT_REQUEST_ID, request.clientRequestId());
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
