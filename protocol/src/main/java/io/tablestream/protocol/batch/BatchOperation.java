package io.tablestream.protocol.batch;

import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;

/**
 * One request inside a batch, as the client wrote it: the method (after any {@code X-HTTP-Method}
 * override), the request target exactly as written (usually an absolute URL), the request's own
 * header fields, its body bytes, and its {@code Content-ID} (from the MIME part headers, else from the
 * request's headers). What the request means is for the caller to decide.
 *
 * @param index     the operation's position in the change set, from 0; failures name it
 * @param method    the effective method
 * @param url       the request target as written on the request line
 * @param headers   the request's header fields (not the MIME part's)
 * @param body      the request body; empty when there is none
 * @param contentId the {@code Content-ID} the client gave the operation, echoed in its response
 */
public record BatchOperation(int index, Method method, String url, HeaderFields headers, byte[] body,
                             Optional<String> contentId) {

    /** The methods an operation of a batch may use. */
    public enum Method {
        GET, POST, PUT, MERGE, PATCH, DELETE;

        /** The method spelled exactly (methods are case-sensitive) as {@code token}. */
        static Optional<Method> fromToken(String token) {
            for (Method m : values()) {
                if (m.name().equals(token)) {
                    return Optional.of(m);
                }
            }
            return Optional.empty();
        }
    }

    public BatchOperation {
        if (index < 0) {
            throw new IllegalArgumentException("index < 0");
        }
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(headers, "headers");
        body = Objects.requireNonNull(body, "body").clone();
        Objects.requireNonNull(contentId, "contentId");
    }

    /** A copy of the body. */
    @Override
    public byte[] body() {
        return body.clone();
    }

    public int bodyLength() {
        return body.length;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof BatchOperation)) {
            return false;
        }
        BatchOperation other = (BatchOperation) o;
        return index == other.index && method == other.method && url.equals(other.url)
                && headers.equals(other.headers) && Arrays.equals(body, other.body)
                && contentId.equals(other.contentId);
    }

    @Override
    public int hashCode() {
        return Objects.hash(index, method, url, headers, Arrays.hashCode(body), contentId);
    }

    @Override
    public String toString() {
        return "BatchOperation[" + index + " " + method + " " + url + ", " + headers + ", " + body.length
                + " body bytes" + contentId.map(id -> ", Content-ID " + id).orElse("") + "]";
    }
}
