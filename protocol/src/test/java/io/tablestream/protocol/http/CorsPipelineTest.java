package io.tablestream.protocol.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.javalin.Javalin;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.filter.KeyRange;
import io.tablestream.core.model.CorsRule;
import io.tablestream.protocol.cors.CorsPolicies;
import io.tablestream.protocol.cors.CorsPolicy;
import io.tablestream.protocol.request.Operation;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** CORS in the pipeline over real HTTP: preflights, and the headers of actual responses, errors included. */
class CorsPipelineTest {
    private static final String APP = "https://app.example";
    private static final Caller ANYONE = new Caller() {
        @Override
        public String principal() {
            return "test";
        }

        @Override
        public void authorize(Operation operation, String table, String partitionKey, String rowKey) {
        }

        @Override
        public KeyRange readableKeys(String table) {
            return KeyRange.ALL;
        }

        @Override
        public boolean mayRead(String table, String partitionKey, String rowKey) {
            return true;
        }
    };

    /** Account "acct" has one rule for APP; every other account has none. */
    private static final CorsPolicy ACCT_RULES = CorsPolicy.of(List.of(
            CorsRule.parse(APP, "GET,PUT,POST,MERGE", "x-ms-*,content-type", "x-ms-*,ETag", 600)));

    private final AtomicInteger lookups = new AtomicInteger();
    private final HttpClient client = HttpClient.newHttpClient();
    private Javalin app;

    @BeforeEach
    void start() {
        Map<Operation, OperationHandler> handlers = Map.of(
                Operation.QUERY_TABLES, (request, http) -> {
                    ResponseHeaders.standard(http, request);
                    http.header("x-ms-continuation-NextTableName", "next");
                    http.header("Vary", "Accept");
                    http.result("tables");
                },
                Operation.GET_ENTITY, (request, http) -> {
                    throw TableServiceException.of(ErrorCode.RESOURCE_NOT_FOUND);
                },
                Operation.INSERT_ENTITY, (request, http) -> http.future(() -> CompletableFuture.supplyAsync(() -> {
                    http.status(201);
                    http.header("ETag", "W/\"x\"");
                    return null;
                })));
        Authenticator auth = (request, http) -> {
            if (http.header("Authorization") == null) {
                throw TableServiceException.of(ErrorCode.AUTHORIZATION_FAILURE);
            }
            return ANYONE;
        };
        CorsPolicies cors = account -> {
            lookups.incrementAndGet();
            return account.equals("acct") ? ACCT_RULES : CorsPolicy.DISABLED;
        };
        TableServiceEndpoint endpoint = new TableServiceEndpoint(auth, handlers, cors, Clock.systemUTC());
        app = Javalin.create(config -> endpoint.install(config)).start("127.0.0.1", 0);
    }

    @AfterEach
    void stop() {
        app.stop();
    }

    private HttpResponse<String> send(String method, String path, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + path))
                .method(method, HttpRequest.BodyPublishers.noBody());
        if (headers.length > 0) {
            b.headers(headers);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String header(HttpResponse<?> r, String name) {
        return r.headers().firstValue(name).orElse(null);
    }

    @Test
    void answersAnAllowedPreflightWithoutCredentials() throws Exception {
        HttpResponse<String> r = send("OPTIONS", "/acct/mytable", "Origin", APP, "Access-Control-Request-Method", "PUT",
                "Access-Control-Request-Headers", "x-ms-version,Content-Type");

        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(header(r, "Access-Control-Allow-Origin")).isEqualTo(APP);
        assertThat(header(r, "Access-Control-Allow-Methods")).isEqualTo("PUT");
        assertThat(header(r, "Access-Control-Allow-Headers")).isEqualTo("content-type,x-ms-version");
        assertThat(header(r, "Access-Control-Max-Age")).isEqualTo("600");
        assertThat(header(r, "Access-Control-Allow-Credentials")).isEqualTo("true");
        assertThat(header(r, "x-ms-request-id")).isNotBlank();
        assertThat(r.body()).isEmpty();
    }

    @Test
    void refusesAPreflightNoRuleAllowsWith403AndTheErrorDocument() throws Exception {
        HttpResponse<String> otherOrigin = send("OPTIONS", "/acct/mytable", "Origin", "https://evil.example",
                "Access-Control-Request-Method", "PUT");
        HttpResponse<String> otherMethod = send("OPTIONS", "/acct/mytable", "Origin", APP,
                "Access-Control-Request-Method", "DELETE");
        HttpResponse<String> otherAccount = send("OPTIONS", "/other/mytable", "Origin", APP,
                "Access-Control-Request-Method", "PUT");

        for (HttpResponse<String> r : List.of(otherOrigin, otherMethod, otherAccount)) {
            assertThat(r.statusCode()).isEqualTo(403);
            assertThat(header(r, "x-ms-error-code")).isEqualTo("CorsPreflightFailure");
            assertThat(header(r, "Access-Control-Allow-Origin")).isNull();
            assertThat(header(r, "Content-Type")).startsWith("application/xml");
            assertThat(r.body()).contains("<Code>CorsPreflightFailure</Code>")
                    .contains("<Message>CORS not enabled or no matching rule found for this request.\nRequestId:"
                            + header(r, "x-ms-request-id"));
        }
    }

    @Test
    void refusesAPreflightWithoutItsRequiredHeadersWith400() throws Exception {
        HttpResponse<String> noOrigin = send("OPTIONS", "/acct/mytable", "Access-Control-Request-Method", "PUT");
        HttpResponse<String> noMethod = send("OPTIONS", "/acct/mytable", "Origin", APP);

        assertThat(noOrigin.statusCode()).isEqualTo(400);
        assertThat(header(noOrigin, "x-ms-error-code")).isEqualTo("InvalidHeaderValue");
        assertThat(noOrigin.body()).contains("<Code>InvalidHeaderValue</Code>").contains("Origin");
        assertThat(noMethod.statusCode()).isEqualTo(400);
        assertThat(noMethod.body()).contains("<Code>InvalidHeaderValue</Code>")
                .contains("Access-Control-Request-Method");
    }

    @Test
    void addsTheCorsHeadersToAnAllowedOriginsResponse() throws Exception {
        HttpResponse<String> r = send("GET", "/acct/Tables", "Origin", APP, "Authorization", "SharedKey x:y");

        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(header(r, "Access-Control-Allow-Origin")).isEqualTo(APP);
        assertThat(header(r, "Access-Control-Allow-Credentials")).isEqualTo("true");
        assertThat(header(r, "Access-Control-Expose-Headers"))
                .contains("x-ms-continuation-NextTableName", "x-ms-request-id", "x-ms-version", "ETag");
        assertThat(header(r, "Vary")).isEqualTo("Accept, Origin");
    }

    @Test
    void addsTheCorsHeadersToErrorResponsesToo() throws Exception {
        HttpResponse<String> unauthenticated = send("GET", "/acct/Tables", "Origin", APP);
        HttpResponse<String> notFound = send("GET", "/acct/t(PartitionKey='p',RowKey='r')", "Origin", APP,
                "Authorization", "SharedKey x:y");

        assertThat(unauthenticated.statusCode()).isEqualTo(403);
        assertThat(header(unauthenticated, "Access-Control-Allow-Origin")).isEqualTo(APP);
        assertThat(header(unauthenticated, "Access-Control-Expose-Headers")).contains("x-ms-error-code");
        assertThat(notFound.statusCode()).isEqualTo(404);
        assertThat(header(notFound, "Access-Control-Allow-Origin")).isEqualTo(APP);
    }

    @Test
    void addsTheCorsHeadersOnceAnAsyncAnswerIsComplete() throws Exception {
        HttpResponse<String> r = send("POST", "/acct/mytable", "Origin", APP, "Authorization", "SharedKey x:y", "Content-Type", "application/json");

        assertThat(r.statusCode()).isEqualTo(201);
        assertThat(header(r, "Access-Control-Allow-Origin")).isEqualTo(APP);
        assertThat(header(r, "Access-Control-Expose-Headers")).contains("ETag");
        assertThat(header(r, "Vary")).as("only GET and HEAD vary by origin").isNull();
    }

    @Test
    void addsNoCorsHeadersForAnOriginNoRuleAllows() throws Exception {
        HttpResponse<String> r = send("GET", "/acct/Tables", "Origin", "https://evil.example", "Authorization",
                "SharedKey x:y");

        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(header(r, "Access-Control-Allow-Origin")).isNull();
        assertThat(header(r, "Access-Control-Expose-Headers")).isNull();
        assertThat(header(r, "Vary")).isEqualTo("Accept, Origin");
    }

    @Test
    void addsNoCorsHeadersForAnAccountWithoutRules() throws Exception {
        HttpResponse<String> r = send("GET", "/other/Tables", "Origin", APP, "Authorization", "SharedKey x:y");

        assertThat(header(r, "Access-Control-Allow-Origin")).isNull();
        assertThat(header(r, "Vary")).isEqualTo("Accept");
    }

    @Test
    void doesNotLookTheRulesUpForAWriteWithoutAnOrigin() throws Exception {
        HttpResponse<String> r = send("POST", "/acct/mytable", "Authorization", "SharedKey x:y", "Content-Type", "application/json");

        assertThat(r.statusCode()).isEqualTo(201);
        assertThat(header(r, "Access-Control-Allow-Origin")).isNull();
        assertThat(lookups).hasValue(0);
    }

    @Test
    void keepsServingWhenTheRulesCannotBeRead() throws Exception {
        app.stop();
        CorsPolicies unavailable = account -> {
            throw TableServiceException.of(ErrorCode.SERVER_BUSY);
        };
        TableServiceEndpoint endpoint = new TableServiceEndpoint((request, http) -> ANYONE,
                Map.of(Operation.QUERY_TABLES, (request, http) -> http.result("tables")), unavailable, Clock.systemUTC());
        app = Javalin.create(config -> endpoint.install(config)).start("127.0.0.1", 0);

        HttpResponse<String> r = send("GET", "/acct/Tables", "Origin", APP);

        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).isEqualTo("tables");
        assertThat(header(r, "Access-Control-Allow-Origin")).isNull();
    }
}
