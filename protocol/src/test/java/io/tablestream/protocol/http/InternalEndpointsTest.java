package io.tablestream.protocol.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.javalin.Javalin;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.protocol.request.Operation;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The endpoints that are not Azure's (under {@code /_}): who may call them, how paths below a
 * prefix reach their handler, and the request metrics every answer feeds, over real HTTP.
 */
class InternalEndpointsTest {
    private static final Caller ANYONE = new Caller() {
        @Override
        public String principal() {
            return "test";
        }

        @Override
        public void authorize(Operation operation, String table, String partitionKey, String rowKey) {
        }

        @Override
        public io.tablestream.core.filter.KeyRange readableKeys(String table) {
            return io.tablestream.core.filter.KeyRange.ALL;
        }

        @Override
        public boolean mayRead(String table, String partitionKey, String rowKey) {
            return true;
        }
    };

    private Javalin app;
    private final HttpClient client = HttpClient.newHttpClient();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @BeforeEach
    void start() {
        Map<Operation, OperationHandler> handlers = Map.of(
                Operation.QUERY_TABLES, (request, http) -> http.result("tables"),
                Operation.INSERT_ENTITY, (request, http) -> http.future(() -> CompletableFuture.supplyAsync(() -> {
                    http.status(201);
                    return null;
                })),
                Operation.GET_ENTITY, (request, http) -> {
                    throw TableServiceException.of(ErrorCode.ENTITY_NOT_FOUND);
                });
        Authenticator auth = (request, http) -> {
            if (http.header("Authorization") == null) {
                throw TableServiceException.of(ErrorCode.AUTHORIZATION_FAILURE);
            }
            return ANYONE;
        };
        TableServiceEndpoint endpoint = new TableServiceEndpoint(auth, handlers, Clock.systemUTC())
                .internalEndpoint("/_signed", (request, http) -> http.result("signed"))
                .internalEndpoint("/_open", InternalAccess.ANYONE, (request, http) -> http.result("open"))
                .internalEndpoint("/_files/", InternalAccess.ANYONE,
                        (request, http) -> http.result("file " + http.req().getRequestURI()))
                .internalEndpoint("/_files/special", InternalAccess.ANYONE, (request, http) -> http.result("special"))
                .observe(new RequestMetrics(registry));
        app = Javalin.create(endpoint::install).start("127.0.0.1", 0);
    }

    @AfterEach
    void stop() {
        app.stop();
    }

    private HttpResponse<String> send(String method, String path) throws Exception {
        return send(method, path, false);
    }

    private HttpResponse<String> send(String method, String path, boolean signed) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + path))
                .method(method, HttpRequest.BodyPublishers.noBody());
        if (signed) {
            b.header("Authorization", "SharedKey x:y");
        }
        if (method.equals("POST")) {
            b.header("Content-Type", "application/json");
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void anEndpointOpenToAnyoneAnswersAnUnsignedRequest() throws Exception {
        assertThat(send("GET", "/_open").body()).isEqualTo("open");
    }

    @Test
    void headGetsTheAnswerOfGetWithoutItsBody() throws Exception {
        HttpResponse<String> head = send("HEAD", "/_open");

        assertThat(head.statusCode()).isEqualTo(200);
        assertThat(head.body()).isEmpty();
    }

    @Test
    void anAccountKeyEndpointRefusesAnUnsignedRequest() throws Exception {
        HttpResponse<String> r = send("GET", "/_signed");

        assertThat(r.statusCode()).isEqualTo(403);
        assertThat(r.headers().firstValue("x-ms-error-code")).hasValue("AuthorizationFailure");
    }

    @Test
    void aPrefixTakesEveryPathBelowItAndTheLongestRegistrationWins() throws Exception {
        assertThat(send("GET", "/_files/").body()).isEqualTo("file /_files/");
        assertThat(send("GET", "/_files/a/b.js").body()).isEqualTo("file /_files/a/b.js");
        assertThat(send("GET", "/_files/special").body()).isEqualTo("special");
        assertThat(send("GET", "/_files").statusCode()).isEqualTo(400); // not below the prefix
    }

    @Test
    void anUnknownInternalPathIsAnInvalidUriAndOtherVerbsAreRefused() throws Exception {
        HttpResponse<String> unknown = send("GET", "/_nothing");
        assertThat(unknown.statusCode()).isEqualTo(400);
        assertThat(unknown.headers().firstValue("x-ms-error-code")).hasValue("InvalidUri");

        HttpResponse<String> post = send("POST", "/_open");
        assertThat(post.statusCode()).isEqualTo(405);
        assertThat(post.headers().firstValue("x-ms-error-code")).hasValue("UnsupportedHttpVerb");
    }

    @Test
    void everyAnswerIsTimedByOperationAndStatusAsyncOnesOnceComplete() throws Exception {
        send("GET", "/_open");
        send("GET", "/acct/Tables"); // 403: refused before a handler ran
        send("GET", "/acct/t(PartitionKey='p',RowKey='r')", true);
        send("POST", "/acct/t", true);
        client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + "/acct/Tables"))
                .header("x-ms-version", "1999-01-01").build(), HttpResponse.BodyHandlers.ofString()); // refused before
        // the operation was known

        assertThat(timer("INTERNAL", "200").count()).isEqualTo(1);
        assertThat(timer("QUERY_TABLES", "403").count()).isEqualTo(1);
        assertThat(timer("GET_ENTITY", "404").count()).isEqualTo(1);
        assertThat(timer("INSERT_ENTITY", "201").count()).isEqualTo(1); // completed by a future
        assertThat(timer("NONE", "400").count()).isEqualTo(1);
        assertThat(timer("QUERY_TABLES", "403").totalTime(TimeUnit.NANOSECONDS)).isPositive();
    }

    private Timer timer(String operation, String status) {
        return registry.get(RequestMetrics.REQUESTS).tag("operation", operation).tag("status", status).timer();
    }
}
