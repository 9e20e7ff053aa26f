package io.tablestream.protocol.http;

import io.javalin.compression.CompressionStrategy;
import io.javalin.compression.Gzip;
import io.javalin.config.HttpConfig;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import io.javalin.http.HttpResponseException;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.odata.MetadataLevel;
import io.tablestream.protocol.cors.CorsHeaders;
import io.tablestream.protocol.cors.CorsPolicies;
import io.tablestream.protocol.cors.CorsPolicy;
import io.tablestream.protocol.request.Operation;
import io.tablestream.protocol.request.QueryParameters;
import io.tablestream.protocol.request.ResourcePath;
import java.time.Clock;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.handler.StatisticsHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one pipeline every request goes through, in order: context → resolve the operation →
 * authenticate → the operation's handler → serialize; and the one exception mapper, so every
 * failure is an Azure-style error and nothing escapes as a bare 500.
 *
 * <p>CORS lives here too: the pipeline answers preflights ({@code OPTIONS}, unauthenticated) from
 * the account's rules, and adds the CORS headers to the response of every other request once it
 * is complete — errors included, so a browser can read why a cross-origin request failed.
 *
 * <p>One class, over 400 lines: the stages, the exception mapper and the after-request steps share the
 * request's context and one order, which a reader checks here in one place.
 */
public final class TableServiceEndpoint {
    private static final Logger LOG = LoggerFactory.getLogger(TableServiceEndpoint.class);
    private static final String CONTEXT_ATTRIBUTE = "tablestream.request";
    /** The Content-Type of the service's JSON answers that are not OData (health, jobs, batch parts' summaries, ...). */
    private static final String JSON_CONTENT_TYPE = "application/json;charset=utf-8";
    /**
     * Methods that enter the pipeline; HEAD among them so that it is refused like any verb the
     * service lacks (405 without a body) rather than answered by the server as a GET. Others get
     * 405 UnsupportedHttpVerb from {@link #onUnrouted}.
     */
    private static final List<String> METHODS = List.of("GET", "HEAD", "POST", "PUT", "PATCH", "MERGE", "DELETE",
            "OPTIONS");
    /**
     * Bytes of a request line and headers the server reads. Far above Jetty's 8 KiB default: the
     * service takes long {@code $filter} texts (a filter may be {@value io.tablestream.core.filter.Filter#MAX_LENGTH}
     * characters), which the filter parser then bounds.
     */
    static final int MAX_REQUEST_HEAD_BYTES = 256 * 1024;
    /**
     * Bytes of a response's status line and headers. Far above Jetty's 8 KiB default: the
     * {@code Location} and {@code DataServiceId} of an insert name the entity's URL, whose two keys of
     * up to 1 KiB each take up to 9 KiB percent-encoded; with a 1 KiB client request id and the rest,
     * an answer's head stays under 32 KiB.
     */
    static final int MAX_RESPONSE_HEAD_BYTES = 64 * 1024;
    /** The chunk in which Javalin copies an answer's body to the response (see {@link #install}). */
    static final int BODY_COPY_BUFFER_BYTES = 8 * 1024;

    private final Authenticator authenticator;
    private final Map<Operation, OperationHandler> handlers;
    private final Map<String, InternalEndpoint> internalEndpoints = new java.util.concurrent.ConcurrentHashMap<>();
    /** Told of every completed request; {@code null} when nobody listens. */
    private volatile RequestObserver observer;
    /** Told the account of every Table-service request as it arrives; {@code null} when nobody listens. */
    private volatile Consumer<String> arrivals;
    private final CorsPolicies cors;
    private final Clock clock;
    /** The server's request body limit, read when a request arrives (set in {@link #install}). */
    private volatile LongSupplier maxRequestBytes = () -> Long.MAX_VALUE;

    /** A pipeline for accounts without CORS rules. */
    public TableServiceEndpoint(Authenticator authenticator, Map<Operation, OperationHandler> handlers, Clock clock) {
        this(authenticator, handlers, CorsPolicies.NONE, clock);
    }

    /**
     * @param handlers the handler of each operation but {@link Operation#PREFLIGHT}, which the
     *     pipeline answers itself from {@code cors}
     * @param cors each account's CORS rules
     */
    public TableServiceEndpoint(Authenticator authenticator, Map<Operation, OperationHandler> handlers,
                                CorsPolicies cors, Clock clock) {
        if (handlers.containsKey(Operation.PREFLIGHT)) {
            throw new IllegalArgumentException("The pipeline answers preflights itself, from the CORS policies");
        }
        this.authenticator = authenticator;
        this.handlers = new EnumMap<>(Operation.class);
        this.handlers.putAll(handlers);
        this.handlers.put(Operation.PREFLIGHT, new PreflightHandler(cors));
        this.cors = cors;
        this.clock = clock;
    }

    /**
     * Adds an endpoint that is not Azure's, at {@code path} (which starts with {@code /_}: no account
     * name can). It answers GET only, to requests signed with an account key (see
     * {@link Authenticator#authenticateAccountKey}), with errors written like every other.
     */
    public TableServiceEndpoint internalEndpoint(String path, OperationHandler handler) {
        return internalEndpoint(path, InternalAccess.ACCOUNT_KEY, handler);
    }

    /**
     * Adds an endpoint that is not Azure's, at {@code path} (which starts with {@code /_}), answering
     * GET (and HEAD: the same answer without its body) only, to whom {@code access} allows. A path
     * ending in {@code /} takes every path below it
     * too (the longest registered prefix wins); the handler reads the rest from the request URI.
     */
    public TableServiceEndpoint internalEndpoint(String path, InternalAccess access, OperationHandler handler) {
        if (!path.startsWith("/_")) {
            throw new IllegalArgumentException("endpoints that are not Azure's live under /_: " + path);
        }
        internalEndpoints.put(path, new InternalEndpoint(access, handler));
        return this;
    }

    /** Tells {@code observer} of every request once answered (one observer; metrics). */
    public TableServiceEndpoint observe(RequestObserver observer) {
        this.observer = observer;
        return this;
    }

    /**
     * Tells {@code arrivals} (one listener; null: none) the account each Table-service request names, as
     * it arrives, before it is authenticated; requests to {@code /_} endpoints are not told.
     */
    public TableServiceEndpoint onArrival(Consumer<String> arrivals) {
        this.arrivals = arrivals;
        return this;
    }

    private record InternalEndpoint(InternalAccess access, OperationHandler handler) {
    }

    /**
     * Mounts the pipeline on every path and method, and the exception mapper. A request declaring a
     * body over the configuration's {@code http.maxRequestSize} (or, for the one operation that takes
     * more, over its own limit: {@link Operation#maxBodyBytes}) is refused from its header.
     */
    public void install(JavalinConfig config) {
        HttpConfig httpConfig = config.http;
        maxRequestBytes = () -> httpConfig.maxRequestSize;
        httpConfig.compressionStrategy = compression();
        // Javalin copies every answer's body to the response through a buffer of this size, allocated
        // per answer; unset, it is Jetty's whole output buffer (32 KiB) for bodies of a few hundred bytes.
        // At least the smallest body compressed, so gzip's decision (made on the first write) is unchanged.
        httpConfig.responseBufferSize = BODY_COPY_BUFFER_BYTES;
        for (String method : METHODS) {
            HandlerType type = HandlerType.findOrCreate(method);
            // "/*" first: Javalin tries a method's routes in order, and nearly every request has a path under "/"
            config.routes.addHttpHandler(type, "/*", this::handle);
            config.routes.addHttpHandler(type, "/", this::handle);
        }
        config.routes.exception(Exception.class, this::onException);
        // After every request, whatever became of it (Javalin runs after-handlers past exceptions); one
        // handler, as Javalin matches each after-handler's path against the request's on every request.
        config.routes.after(this::afterRequest);
        // Javalin's own answers (413 for a body over the size limit, ...) get the service's error too.
        config.routes.exception(HttpResponseException.class, this::onException);
        // What Jetty refuses before routing (bad URI, oversized head) as well.
        ConnectorErrors connectorErrors = new ConnectorErrors(clock);
        config.jetty.modifyServer(server -> {
            server.setErrorHandler(connectorErrors);
            // Javalin's default server counts requests in a StatisticsHandler in front of its servlet, on
            // every request and answer; nothing reads those counts (the metrics are the pipeline's own).
            if (server.getHandler() instanceof StatisticsHandler statistics && statistics.getHandler() == null) {
                server.setHandler((Handler) null);
            }
        });
        config.jetty.modifyHttpConfiguration(http -> {
            http.setRequestHeaderSize(MAX_REQUEST_HEAD_BYTES);
            http.setResponseHeaderSize(MAX_RESPONSE_HEAD_BYTES);
        });
        // Javalin answers methods with no route itself; give those the service's error too.
        config.routes.error(404, this::onUnrouted);
        config.routes.error(405, this::onUnrouted);
    }

    /**
     * Javalin's gzip (its default) with the service's own answer types named as allowed. Before it
     * compresses an answer, Javalin searches its Content-Type for each already-compressed type it
     * excludes ({@code image/}, {@code application/zip}, ...: a case-insensitive substring search per
     * type, on every answer); a type on the allowed list, compared by equality, skips that search. None
     * of these types is excluded, so which answers are compressed does not change.
     */
    static CompressionStrategy compression() {
        CompressionStrategy gzip = new CompressionStrategy(null, new Gzip());
        List<String> allowed = new ArrayList<>(gzip.getAllowedMimeTypes());
        for (MetadataLevel level : MetadataLevel.values()) {
            allowed.add(level.contentType());
        }
        allowed.add(JSON_CONTENT_TYPE);
        gzip.setAllowedMimeTypes(List.copyOf(allowed));
        return gzip;
    }

    void handle(Context http) throws Exception {
        RequestContext request = new RequestContext(clock.instant(), http.header(Headers.CLIENT_REQUEST_ID),
                http.header(Headers.VERSION));
        http.attribute(CONTEXT_ATTRIBUTE, request);
        // One split of the query string, for the signature and the handlers alike (Javalin's own parse is never asked for).
        request.query(QueryParameters.parse(http.req().getQueryString(), http::characterEncoding));
        long maxBodyBytes = maxRequestBytes.getAsLong();
        // over what any operation takes: refused before anything else is read
        RequestFraming.refuseDeclaredLengthOver(Operation.BULK_WRITE.maxBodyBytes(maxBodyBytes), http);
        if (http.req().getRequestURI().startsWith("/_")) {
            handleInternal(request, http);
            return;
        }
        request.target(ResourcePath.parse(http.req().getRequestURI()));
        Consumer<String> arrived = arrivals;
        if (arrived != null) {
            arrived.accept(request.account());
        }
        ServiceVersion.require(http.header(Headers.VERSION));
        List<String> xMethod = java.util.Collections.list(http.req().getHeaders(Headers.X_HTTP_METHOD));
        request.operation(OperationResolver.resolve(http.req().getMethod(), xMethod, request.resource(),
                request.queryParam("comp"), request.queryParam("restype"), http.header(Headers.IF_MATCH) != null));
        RequestFraming.refuseDeclaredLengthOver(request.operation().maxBodyBytes(maxBodyBytes), http);
        Locations.check(request.operation(), request.secondaryLocation());
        if (request.operation() != Operation.PREFLIGHT) {
            request.caller(authenticator.authenticate(request, http));
        }
        if (request.operation().takesJsonBody()) {
            RequestContentType.requireJson(http.header("Content-Type"));
        }
        OperationHandler handler = handlers.get(request.operation());
        if (handler == null) {
            throw TableServiceException.of(ErrorCode.NOT_IMPLEMENTED,
                    "The operation " + request.operation() + " is not implemented.");
        }
        handler.handle(request, http);
    }

    private void handleInternal(RequestContext request, Context http) throws Exception {
        InternalEndpoint endpoint = internalEndpoint(http.req().getRequestURI());
        if (endpoint == null) {
            throw TableServiceException.of(ErrorCode.INVALID_URI, "The request URI addresses nothing the service has.");
        }
        if (!http.req().getMethod().equals("GET") && !http.req().getMethod().equals("HEAD")) {
            throw TableServiceException.of(ErrorCode.UNSUPPORTED_HTTP_VERB,
                    "The resource does not support the HTTP verb " + http.req().getMethod() + ".");
        }
        if (endpoint.access() == InternalAccess.ACCOUNT_KEY) {
            request.caller(authenticator.authenticateAccountKey(request, http));
        }
        endpoint.handler().handle(request, http);
    }

    /** The endpoint registered at {@code path}, else the one at the longest registered prefix ending in {@code /}. */
    private InternalEndpoint internalEndpoint(String path) {
        InternalEndpoint exact = internalEndpoints.get(path);
        if (exact != null) {
            return exact;
        }
        for (int slash = path.lastIndexOf('/'); slash > 0; slash = path.lastIndexOf('/', slash - 1)) {
            InternalEndpoint prefix = internalEndpoints.get(path.substring(0, slash + 1));
            if (prefix != null) {
                return prefix;
            }
        }
        return null;
    }

    /** What every request ends with, in order: the Content-Type of a bodiless answer dropped, CORS, the observer. */
    private void afterRequest(Context http) {
        dropContentTypeOfNoContent(http);
        addCorsHeaders(http);
        notifyObserver(http);
    }

    /**
     * An answer without a body names no Content-Type (Javalin gives every response a default one): a
     * 204, a 202 without a body (Set Table Service Properties, an asynchronous write) and a preflight.
     */
    static void dropContentTypeOfNoContent(Context http) {
        int status = http.status().getCode();
        boolean bodiless = status == 204 || (status == 202 || "OPTIONS".equals(http.req().getMethod()))
                && http.resultInputStream() == null && !http.res().isCommitted();
        if (bodiless) {
            http.res().setContentType(null);
        }
    }

    private void notifyObserver(Context http) {
        RequestObserver o = observer;
        RequestContext request = http.attribute(CONTEXT_ATTRIBUTE);
        if (o != null && request != null) {
            o.completed(request, http, http.status().getCode(), System.nanoTime() - request.startedNanos());
        }
    }

    private void onException(Exception e, Context http) {
        if (e instanceof HttpResponseException h && (h.getStatus() == 404 || h.getStatus() == 405)) {
            onUnrouted(http); // Javalin's answer to a method no route takes
            return;
        }
        RequestContext request = contextOf(http);
        Throwable cause = e;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (http.res().getHeader(Headers.REPLICA_UNAVAILABLE) != null && cause instanceof TableServiceException refusal) {
            // Routing between instances, not a failure: the forwarding instance tries another copy.
            LOG.debug("Request {} ({}) refused here: {}", request.requestId(), request.operation(), refusal.getMessage());
            ErrorResponses.write(http, request, refusal);
            return;
        }
        TableServiceException error = asServiceError(e, request);
        ErrorResponses.write(http, request, error);
        if (RequestFraming.closesConnection(error, http)) {
            http.header(Headers.CONNECTION, "close"); // the rest of the body stays unread
        }
    }

    private void onUnrouted(Context http) {
        if (http.res().getHeader(Headers.ERROR_CODE) != null) {
            return; // an error this pipeline already wrote
        }
        RequestContext request = contextOf(http);
        ErrorResponses.write(http, request, TableServiceException.of(ErrorCode.UNSUPPORTED_HTTP_VERB,
                "The service does not support the HTTP verb " + http.req().getMethod() + "."));
    }

    /**
     * The CORS headers of an actual (not preflight) request's response, from the rules of the
     * account its path names; computed last, since exposed-header prefixes match the response's
     * own headers.
     */
    void addCorsHeaders(Context http) {
        RequestContext request = http.attribute(CONTEXT_ATTRIBUTE);
        if (request == null || request.account() == null || request.operation() == Operation.PREFLIGHT) {
            return;
        }
        String method = http.req().getMethod();
        String origin = http.header(PreflightHandler.ORIGIN);
        if (!CorsPolicy.mayApplyTo(method, origin)) {
            return;
        }
        CorsHeaders headers;
        try {
            headers = cors.forAccount(request.account()).actualRequest(method, origin, () -> http.res().getHeaderNames());
        } catch (TableServiceException e) {
            // The rules cannot be read right now (the registry is not ready): answer without CORS headers.
            LOG.debug("Request {}: CORS rules of {} unavailable ({})", request.requestId(), request.account(),
                    e.errorCode().code());
            return;
        }
        for (Map.Entry<String, String> h : headers.asMap().entrySet()) {
            if (h.getKey().equals(CorsHeaders.VARY)) {
                String vary = http.res().getHeader(CorsHeaders.VARY);
                http.header(CorsHeaders.VARY, vary == null || vary.isBlank() ? h.getValue() : vary + ", " + h.getValue());
            } else {
                http.header(h.getKey(), h.getValue());
            }
        }
    }

    private RequestContext contextOf(Context http) {
        RequestContext request = http.attribute(CONTEXT_ATTRIBUTE);
        if (request == null) {
            request = new RequestContext(clock.instant(), http.header(Headers.CLIENT_REQUEST_ID), http.header(Headers.VERSION));
            http.attribute(CONTEXT_ATTRIBUTE, request);
        }
        return request;
    }

    /** Every failure as the error a client sees; anything unexpected is logged once, with the request id. */
    static TableServiceException asServiceError(Throwable e, RequestContext request) {
        Throwable cause = e;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        TableServiceException framing = RequestFraming.asClientError(cause);
        if (framing != null) {
            LOG.debug("Request {} ({}): body not readable ({})", request.requestId(), request.operation(), cause.toString());
            return framing;
        }
        if (cause instanceof TableServiceException t) {
            if (t.errorCode().httpStatus() >= 500) {
                LOG.warn("Request {} ({}) failed: {} {}", request.requestId(), request.operation(),
                        t.errorCode().code(), t.getMessage(), t.getCause());
            }
            return t;
        }
        if (cause instanceof HttpResponseException h) {
            ErrorCode code = switch (h.getStatus()) {
                case 413 -> ErrorCode.REQUEST_BODY_TOO_LARGE;
                case 405 -> ErrorCode.UNSUPPORTED_HTTP_VERB;
                case 415 -> ErrorCode.MEDIA_TYPE_NOT_SUPPORTED;
                default -> h.getStatus() < 500 ? ErrorCode.INVALID_INPUT : ErrorCode.INTERNAL_ERROR;
            };
            return TableServiceException.of(code, code.defaultMessage(), h);
        }
        LOG.error("Request {} ({}) failed unexpectedly", request.requestId(), request.operation(), cause);
        return TableServiceException.of(ErrorCode.INTERNAL_ERROR,
                "The server encountered an internal error; retry the request. RequestId: " + request.requestId(), cause);
    }
}
