package io.tablestream.protocol.http;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.util.Locale;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Answers what the HTTP server refuses before a request reaches the pipeline — a request line or
 * URI it cannot parse (a bad percent-escape, bytes that are not UTF-8, no HTTP version), a request
 * head over its limit, a body whose framing breaks — with the service's error (a 4xx status,
 * {@code x-ms-error-code}, {@code x-ms-request-id}, {@code odata.error}) instead of the server's
 * own HTML page. The server does not read further on a connection whose request it could not
 * parse, so every such answer says {@code Connection: close}: a client knows not to send its next
 * request there.
 */
final class ConnectorErrors implements Request.Handler {
    private final Clock clock;

    ConnectorErrors(Clock clock) {
        this.clock = clock;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        int status = response.getStatus();
        Object attribute = request.getAttribute(ErrorHandler.ERROR_STATUS);
        if (attribute instanceof Integer s) {
            status = s;
        }
        TableServiceException error = TableServiceException.of(codeFor(status, request),
                messageFor(status, request));
        RequestContext context = new RequestContext(clock.instant(),
                request.getHeaders().get(Headers.CLIENT_REQUEST_ID), request.getHeaders().get(Headers.VERSION));
        response.setStatus(error.errorCode().httpStatus());
        response.getHeaders().remove(HttpHeader.CACHE_CONTROL);
        response.getHeaders().put(HttpHeader.CONNECTION, "close");
        ResponseHeaders.fields(context).forEach((name, value) -> response.getHeaders().put(name, value));
        response.getHeaders().put(Headers.ERROR_CODE, error.errorCode().code());
        if ("HEAD".equals(request.getMethod())) {
            callback.succeeded();
            return true;
        }
        byte[] body = ErrorResponses.json(error, context);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, ErrorResponses.JSON_CONTENT_TYPE);
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
        response.write(true, ByteBuffer.wrap(body), callback);
        return true;
    }

    private static ErrorCode codeFor(int status, Request request) {
        return switch (status) {
            case 400 -> switch (reason(request)) {
                case HEADER -> ErrorCode.INVALID_HEADER_VALUE;
                case BODY -> ErrorCode.INVALID_INPUT;
                case REQUEST_LINE -> ErrorCode.INVALID_URI;
            };
            case 404, 414 -> ErrorCode.INVALID_URI;
            case 505 -> ErrorCode.INVALID_INPUT; // a request line without a version, or one the server does not speak
            case 405, 501 -> ErrorCode.UNSUPPORTED_HTTP_VERB;
            case 413 -> ErrorCode.REQUEST_BODY_TOO_LARGE;
            case 415 -> ErrorCode.MEDIA_TYPE_NOT_SUPPORTED;
            case 431 -> ErrorCode.INVALID_HEADER_VALUE;
            case 503 -> ErrorCode.SERVER_BUSY;
            default -> status >= 400 && status < 500 ? ErrorCode.INVALID_INPUT : ErrorCode.INTERNAL_ERROR;
        };
    }

    private static String messageFor(int status, Request request) {
        return switch (status) {
            case 414 -> "The request URI is longer than the service reads.";
            case 431 -> "The request's header section is larger than the service reads.";
            case 505 -> "The request line names no HTTP version, or one the service does not speak (HTTP/1.0, HTTP/1.1).";
            case 400 -> switch (reason(request)) {
                case HEADER -> "A request header is malformed.";
                case BODY -> "The request body is not framed correctly.";
                case REQUEST_LINE -> "The request URI is not valid: it is not well-formed, has a malformed percent-escape,"
                        + " or does not decode to UTF-8.";
            };
            default -> "The request could not be read.";
        };
    }

    /** What part of a request the server could not read. */
    private enum Part { REQUEST_LINE, HEADER, BODY }

    /**
     * Which part the server's reason names; the request line (method, URI, version) unless it
     * speaks of a header or of the body's framing.
     */
    private static Part reason(Request request) {
        StringBuilder text = new StringBuilder();
        for (Object o = request.getAttribute(ErrorHandler.ERROR_EXCEPTION); o instanceof Throwable t && text.length() < 1000;
             o = t.getCause() == t ? null : t.getCause()) {
            text.append(' ').append(t.getMessage());
        }
        text.append(' ').append(request.getAttribute(ErrorHandler.ERROR_MESSAGE));
        String reason = text.toString().toLowerCase(Locale.ROOT);
        if (reason.contains("uri") || reason.contains("path")) {
            return Part.REQUEST_LINE;
        }
        if (reason.contains("header") || reason.contains("field")) {
            return Part.HEADER;
        }
        if (reason.contains("chunk") || reason.contains("content") || reason.contains("body")) {
            return Part.BODY;
        }
        return Part.REQUEST_LINE;
    }
}
