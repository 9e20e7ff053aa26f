package io.tablestream.protocol.http;

import io.javalin.http.Context;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.io.EofException;

/**
 * Requests whose body the pipeline cannot, or will not, read to its end. A declared
 * {@code Content-Length} over the request limit is refused from the header, before any of the body
 * is read or waited for (413 RequestBodyTooLarge). A body whose framing breaks while it is read — an
 * invalid chunk size, a stream that ends before {@code Content-Length} bytes — is the client's
 * error (400 InvalidInput), not the server's. After either, the rest of the body stays unread and
 * the start of a next request cannot be found, so the answer closes the connection
 * ({@code Connection: close}).
 */
final class RequestFraming {
    /** A refused body up to this many times the limit is read and dropped before the answer. */
    private static final int DRAINED_MULTIPLE = 4;
    private static final String DRAINED = "tablestream.refused-body-drained";

    private RequestFraming() {
    }

    /**
     * Refuses a declared body over the limit. A body of a plausible size (up to four times the limit)
     * is read and dropped first: a client still sending it when the server closed the connection
     * would meet a reset that may swallow the answer, and after it the connection stays usable. An
     * absurd length is refused at once, and the connection closed.
     *
     * @throws TableServiceException RequestBodyTooLarge when the request declares a body longer than
     *     {@code maxRequestBytes}
     */
    static void refuseDeclaredLengthOver(long maxRequestBytes, Context http) {
        long declared = http.req().getContentLengthLong();
        if (declared > maxRequestBytes) {
            if (declared <= DRAINED_MULTIPLE * maxRequestBytes && drain(http, declared)) {
                http.attribute(DRAINED, Boolean.TRUE);
            }
            throw TableServiceException.of(ErrorCode.REQUEST_BODY_TOO_LARGE,
                    "The request declares a body of " + declared + " bytes; the service accepts at most "
                            + maxRequestBytes + ".");
        }
    }

    /** Reads and drops the body; false when it ends early or breaks (the connection is closed then). */
    private static boolean drain(Context http, long declared) {
        byte[] buffer = new byte[64 * 1024];
        long read = 0;
        try (java.io.InputStream body = http.req().getInputStream()) {
            for (int n = body.read(buffer); n >= 0; n = body.read(buffer)) {
                read += n;
            }
        } catch (java.io.IOException | RuntimeException e) {
            return false;
        }
        return read == declared;
    }

    /**
     * The client error a failure to read the request body is, or null when {@code failure} is not
     * one: the HTTP server reports a broken body as a 4xx {@link HttpException} (an early end of the
     * stream among them) while the handler reads it.
     */
    static TableServiceException asClientError(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof HttpException h && h.getCode() == 413) {
                return TableServiceException.of(ErrorCode.REQUEST_BODY_TOO_LARGE, ErrorCode.REQUEST_BODY_TOO_LARGE
                        .defaultMessage(), t);
            }
            if (t instanceof EofException || t instanceof HttpException h && h.getCode() >= 400 && h.getCode() < 500) {
                return TableServiceException.of(ErrorCode.INVALID_INPUT,
                        "The request body is not framed correctly: the stream ended before its Content-Length"
                                + " or its last chunk, or a chunk size is malformed.", t);
            }
        }
        return null;
    }

    /** Whether the answer to a request that failed with {@code error} must close the connection. */
    static boolean closesConnection(TableServiceException error, Context http) {
        if (Boolean.TRUE.equals(http.attribute(DRAINED))) {
            return false; // the whole body was read: the next request starts right after it
        }
        return error.errorCode() == ErrorCode.REQUEST_BODY_TOO_LARGE || asClientError(error.getCause()) != null;
    }
}
