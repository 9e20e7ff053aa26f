package io.tablestream.query.routing;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads from other instances over HTTP/1.1: pooled, kept-alive connections (one client for the
 * whole instance), a connect timeout and a request timeout, never blocking the caller. An instance
 * that refused or did not accept a connection is remembered as unreachable for a moment, so routing
 * tries its other copies first instead of waiting on it for every request.
 *
 * <p>Every request asks for an identity-coded answer ({@code Accept-Encoding: identity}), whatever
 * the client of the original request accepts, and an answer in any other content coding is refused
 * ({@link UnexpectedAnswerException}): what this instance reads is what it asked for.
 */
public final class InstanceClient implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(InstanceClient.class);
    /** A failed TLS handshake with a peer is logged at most this often: it repeats on every forwarded request. */
    private static final Duration TLS_FAILURE_LOG_INTERVAL = Duration.ofMinutes(1);
    /** Headers that describe one connection, not the request: never copied to another hop. */
    private static final Set<String> HOP_BY_HOP = Set.of("host", "connection", "content-length", "expect", "upgrade",
            "keep-alive", "te", "trailer", "transfer-encoding", "proxy-connection", "proxy-authorization",
            "proxy-authenticate");

    private static final String ACCEPT_ENCODING = "accept-encoding";
    private static final String CONTENT_ENCODING = "content-encoding";
    private static final String IDENTITY = "identity";

    private final HttpClient http;
    private final ExecutorService executor;
    private final Duration timeout;
    private final Duration unreachableFor;
    private final ConcurrentMap<Instance, Long> unreachableUntil = new ConcurrentHashMap<>();
    private final ConcurrentMap<Instance, Long> tlsFailureLogged = new ConcurrentHashMap<>();

    /**
     * @param timeout how long a forwarded request may take, connecting included (connecting: at most a second)
     * @param unreachableFor how long an instance that did not accept a connection is tried last
     */
    public InstanceClient(Duration timeout, Duration unreachableFor) {
        this(timeout, unreachableFor, null);
    }

    /**
     * As {@link #InstanceClient(Duration, Duration)}, for instances serving HTTPS: {@code tls} decides
     * which certificates are trusted (the host name an instance is reached at must be in its
     * certificate); null for the JVM's defaults.
     */
    public InstanceClient(Duration timeout, Duration unreachableFor, SSLContext tls) {
        AtomicInteger n = new AtomicInteger();
        this.executor = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "instance-client-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        this.timeout = timeout;
        this.unreachableFor = unreachableFor;
        HttpClient.Builder builder = HttpClient.newBuilder();
        if (tls != null) {
            builder.sslContext(tls);
        }
        this.http = builder
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(timeout.compareTo(Duration.ofSeconds(1)) < 0 ? timeout : Duration.ofSeconds(1))
                .followRedirects(HttpClient.Redirect.NEVER)
                .executor(executor)
                .build();
    }

    /** What another instance answered. */
    public record Answer(int status, Map<String, List<String>> headers, byte[] body) {
        public String header(String name) {
            for (Map.Entry<String, List<String>> h : headers.entrySet()) {
                if (h.getKey().equalsIgnoreCase(name) && !h.getValue().isEmpty()) {
                    return h.getValue().get(0);
                }
            }
            return null;
        }
    }

    /** The instance answered, but not in the form asked for (a content coding other than identity). */
    public static final class UnexpectedAnswerException extends IOException {
        UnexpectedAnswerException(String reason) {
            super(reason);
        }
    }

    /** The instance did not answer: it refused the connection, did not accept it in time, or timed out. */
    public static final class UnreachableException extends IOException {
        UnreachableException(Instance instance, Throwable cause) {
            super("Instance " + instance + " did not answer: " + cause, cause);
        }
    }

    /**
     * GETs {@code uri} on {@code instance} with {@code headers} (hop-by-hop ones and any
     * {@code Accept-Encoding} are left out: the answer is asked for identity-coded); fails with
     * {@link UnreachableException} when the instance does not answer within the timeout plus
     * {@code extraTime} (for a request the other instance may hold, such as a session-token wait),
     * and with {@link UnexpectedAnswerException} when it answers in another content coding.
     */
    public CompletableFuture<Answer> get(Instance instance, URI uri, Map<String, List<String>> headers,
                                         Duration extraTime) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(timeout.plus(extraTime)).GET();
        headers.forEach((name, values) -> {
            String lower = name.toLowerCase(Locale.ROOT);
            if (!HOP_BY_HOP.contains(lower) && !lower.equals(ACCEPT_ENCODING)) {
                values.forEach(v -> request.header(name, v));
            }
        });
        request.header(ACCEPT_ENCODING, IDENTITY);
        return http.sendAsync(request.build(), HttpResponse.BodyHandlers.ofByteArray())
                .handle((response, error) -> {
                    if (error != null) {
                        Throwable cause = error instanceof CompletionException && error.getCause() != null
                                ? error.getCause() : error;
                        if (cause instanceof ConnectException || cause instanceof HttpConnectTimeoutException) {
                            unreachableUntil.put(instance, System.nanoTime() + unreachableFor.toNanos());
                        } else if (cause instanceof SSLException) {
                            refusedTls(instance, cause);
                        }
                        throw new CompletionException(new UnreachableException(instance, cause));
                    }
                    unreachableUntil.remove(instance);
                    String coding = response.headers().firstValue(CONTENT_ENCODING).orElse(IDENTITY).strip();
                    if (!coding.equalsIgnoreCase(IDENTITY)) {
                        throw new CompletionException(new UnexpectedAnswerException("a " + response.statusCode()
                                + " answer in content coding '" + coding + "', asked for identity"));
                    }
                    return new Answer(response.statusCode(), response.headers().map(), response.body());
                });
    }

    /**
     * Says why a TLS connection to {@code instance} failed (its certificate not trusted, not naming
     * the address it is reached at, or the instance not speaking TLS): a configuration to mend, not
     * a passing fault, so it is logged, at most once a minute per instance.
     */
    private void refusedTls(Instance instance, Throwable cause) {
        long now = System.nanoTime();
        Long last = tlsFailureLogged.get(instance);
        if (last == null || now - last > TLS_FAILURE_LOG_INTERVAL.toNanos()) {
            tlsFailureLogged.put(instance, now);
            LOG.warn("No TLS connection to instance {} ({}): check that its certificate names the host of its"
                    + " advertised address and was issued by a CA of tls-trust-file, and that it serves HTTPS", instance,
                    cause.getMessage());
        }
    }

    /** Whether {@code instance} recently refused or did not accept a connection. */
    public boolean isUnreachable(Instance instance) {
        Long until = unreachableUntil.get(instance);
        if (until == null) {
            return false;
        }
        if (until - System.nanoTime() <= 0) {
            unreachableUntil.remove(instance, until);
            return false;
        }
        return true;
    }

    /** Whether a header of this name belongs to one connection rather than to the message. */
    public static boolean isHopByHop(String name) {
        return HOP_BY_HOP.contains(name.toLowerCase(Locale.ROOT));
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
