package io.tablestream.protocol.http;

import io.tablestream.protocol.request.Operation;
import io.tablestream.protocol.request.QueryParameters;
import io.tablestream.protocol.request.ResourcePath;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * What the pipeline knows about a request as it goes: its id, the account and resource it
 * addresses, the operation, and — once authenticated — the caller.
 */
public final class RequestContext {
    /** The version Tablestream speaks when a client names none (the Java SDK's). */
    public static final String DEFAULT_VERSION = "2019-02-02";
    /** The longest {@code x-ms-client-request-id} the service echoes (1 KiB of characters). */
    public static final int MAX_CLIENT_REQUEST_ID_LENGTH = 1024;

    private final String requestId = randomId();
    private final Instant receivedAt;
    private final long startedNanos = System.nanoTime();
    private final String clientRequestId;
    private final String version;
    private String account;
    private boolean secondary;
    private ResourcePath resource;
    private Operation operation;
    private Caller caller;
    private QueryParameters query;

    public RequestContext(Instant receivedAt, String clientRequestId, String version) {
        this.receivedAt = Objects.requireNonNull(receivedAt);
        this.clientRequestId = echoable(clientRequestId) ? clientRequestId : null;
        // a version the service refuses is not echoed back: the refusal names the default
        this.version = version == null || version.isBlank() || !ServiceVersion.isServed(version) ? DEFAULT_VERSION
                : version;
    }

    /**
     * A random (version 4) UUID, as {@link UUID#randomUUID()} makes but from {@link ThreadLocalRandom}:
     * a request id must be unique, not unguessable, and the secure generator took a lock and a read of
     * the system's entropy per request.
     */
    static String randomId() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long high = random.nextLong() & ~0xF000L | 0x4000L; // version 4
        long low = random.nextLong() & ~(0xC000L << 48) | (0x8000L << 48); // IETF variant
        return new UUID(high, low).toString();
    }

    /**
     * Whether the service echoes this client request id: at most {@value #MAX_CLIENT_REQUEST_ID_LENGTH}
     * visible ASCII characters, as its references say of the response header. Another one is served
     * but not echoed (nor is a response head ever too long to write because of it).
     */
    static boolean echoable(String clientRequestId) {
        if (clientRequestId == null || clientRequestId.isEmpty() || clientRequestId.length() > MAX_CLIENT_REQUEST_ID_LENGTH) {
            return false;
        }
        for (int i = 0; i < clientRequestId.length(); i++) {
            char c = clientRequestId.charAt(i);
            if (c < 0x21 || c > 0x7e) {
                return false;
            }
        }
        return true;
    }

    public String requestId() {
        return requestId;
    }

    public Instant receivedAt() {
        return receivedAt;
    }

    /** {@link System#nanoTime()} when the pipeline took the request: what its latency is measured from. */
    public long startedNanos() {
        return startedNanos;
    }

    /** The client's {@code x-ms-client-request-id}, echoed in the response; null when absent or not {@link #echoable}. */
    public String clientRequestId() {
        return clientRequestId;
    }

    public String version() {
        return version;
    }

    /** The account the path names (its secondary location included), or null before the path is parsed. */
    public String account() {
        return account;
    }

    /** Whether the path names the account's read-only secondary location ({@code /<account>-secondary/}). */
    public boolean secondaryLocation() {
        return secondary;
    }

    public ResourcePath resource() {
        return resource;
    }

    /** The operation, or null when the request failed before it was resolved. */
    public Operation operation() {
        return operation;
    }

    /**
     * The first value of query parameter {@code name}, or null: read as Javalin reads it (a value with
     * a malformed escape counts as absent), from the one split of the query string the signature
     * checks use too ({@link QueryParameters}).
     */
    public String queryParam(String name) {
        return query().first(name);
    }

    /** The request's query string, split once. */
    public QueryParameters query() {
        if (query == null) {
            throw new IllegalStateException("the query string is not read yet");
        }
        return query;
    }

    public Caller caller() {
        if (caller == null) {
            throw new IllegalStateException("the request is not authenticated yet");
        }
        return caller;
    }

    void target(ResourcePath.Target target) {
        this.account = target.account();
        this.secondary = target.secondary();
        this.resource = target.resource();
    }

    void query(QueryParameters query) {
        this.query = query;
    }

    void operation(Operation operation) {
        this.operation = operation;
    }

    void caller(Caller caller) {
        this.caller = caller;
    }
}
