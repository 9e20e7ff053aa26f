package io.tablestream.protocol.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.javalin.Javalin;
import io.javalin.compression.CompressionStrategy;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.filter.KeyRange;
import io.tablestream.core.odata.MetadataLevel;
import io.tablestream.protocol.request.Operation;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.zip.GZIPInputStream;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The pipeline over real HTTP: routing, authentication hook, and the one error mapper. */
class TableServiceEndpointTest {
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

    private static final String LARGE_JSON = "{\"value\":\"" + "a".repeat(4000) + "\"}";
    private Javalin app;
    private final HttpClient client = HttpClient.newHttpClient();

    @BeforeEach
    void start() {
        Map<Operation, OperationHandler> handlers = Map.of(
                Operation.QUERY_TABLES, (request, http) -> http.result("tables of " + request.account()),
                Operation.GET_ENTITY, (request, http) -> {
                    throw TableServiceException.of(ErrorCode.RESOURCE_NOT_FOUND);
                },
                Operation.INSERT_ENTITY, (request, http) -> http.future(() -> CompletableFuture.failedFuture(
                        TableServiceException.of(ErrorCode.SERVER_BUSY))),
                Operation.QUERY_ENTITIES, (request, http) -> {
                    throw new IllegalStateException("a bug");
                },
                Operation.GET_TABLE_ACL, (request, http) -> {
                    throw TableServiceException.of(ErrorCode.TABLE_NOT_FOUND);
                },
                Operation.GET_SERVICE_STATS, (request, http) -> http.result("stats of " + request.account()),
                Operation.CREATE_TABLE, (request, http) -> http.status(201));
        Authenticator auth = (request, http) -> {
            if (http.header("Authorization") == null) {
                throw TableServiceException.of(ErrorCode.AUTHORIZATION_FAILURE);
            }
            return ANYONE;
        };
        TableServiceEndpoint endpoint = new TableServiceEndpoint(auth, handlers, Clock.systemUTC())
                .internalEndpoint("/_large", InternalAccess.ANYONE, (request, http) -> {
                    ResponseHeaders.odata(http, request, MetadataLevel.NO.contentType());
                    http.result(LARGE_JSON);
                });
        app = Javalin.create(config -> endpoint.install(config)).start("127.0.0.1", 0);
    }

    @AfterEach
    void stop() {
        app.stop();
    }

    private HttpResponse<String> send(String method, String path, boolean signed) throws Exception {
        return send(method, path, signed, null);
    }

    private HttpResponse<String> send(String method, String path, boolean signed, String version) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + path))
                .method(method, HttpRequest.BodyPublishers.noBody())
                .header("x-ms-client-request-id", "client-1");
        if (version != null) {
            b.header("x-ms-version", version);
        }
        if (method.equals("POST")) {
            b.header("Content-Type", "application/json");
        }
        if (signed) {
            b.header("Authorization", "SharedKey x:y");
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void servesWithoutJavalinsRequestStatistics() throws Exception {
        // nothing reads Jetty's request counts: the servlet context is the server's own handler
        assertThat(app.jettyServer().server().getHandler()).isInstanceOf(ServletContextHandler.class);
        assertThat(send("GET", "/acct/Tables", true).statusCode()).isEqualTo(200);
    }

    @Test
    void routesAnAuthenticatedRequestToItsOperation() throws Exception {
        HttpResponse<String> r = send("GET", "/acct/Tables", true);

        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).isEqualTo("tables of acct");
    }

    @Test
    void answersAnUnsignedRequestWith403AndTheErrorBody() throws Exception {
        HttpResponse<String> r = send("GET", "/acct/Tables", false);

        assertThat(r.statusCode()).isEqualTo(403);
        assertThat(r.headers().firstValue("x-ms-error-code")).hasValue("AuthorizationFailure");
        assertThat(r.headers().firstValue("x-ms-request-id")).isPresent();
        assertThat(r.headers().firstValue("x-ms-client-request-id")).hasValue("client-1");
        assertThat(r.body()).contains("\"odata.error\"").contains("AuthorizationFailure");
    }

    @Test
    void writesAServiceErrorThrownByAHandler() throws Exception {
        HttpResponse<String> r = send("GET", "/acct/t(PartitionKey='p',RowKey='r')", true);

        assertThat(r.statusCode()).isEqualTo(404);
        assertThat(r.headers().firstValue("x-ms-error-code")).hasValue("ResourceNotFound");
        assertThat(r.body()).contains("ResourceNotFound");
    }

    @Test
    void writesAServiceErrorThatFailsAFutureWithRetryAfter() throws Exception {
        HttpResponse<String> r = send("POST", "/acct/t", true);

        assertThat(r.statusCode()).isEqualTo(503);
        assertThat(r.headers().firstValue("x-ms-error-code")).hasValue("ServerBusy");
        assertThat(r.headers().firstValue("Retry-After")).hasValue("1");
    }

    @Test
    void turnsAnUnexpectedFailureIntoAnInternalErrorWithoutItsDetails() throws Exception {
        HttpResponse<String> r = send("GET", "/acct/t()", true);

        assertThat(r.statusCode()).isEqualTo(500);
        assertThat(r.headers().firstValue("x-ms-error-code")).hasValue("InternalError");
        assertThat(r.body()).doesNotContain("a bug");
    }

    @Test
    void writesXmlErrorsForXmlOperations() throws Exception {
        HttpResponse<String> r = send("GET", "/acct/t?comp=acl", true);

        assertThat(r.statusCode()).isEqualTo(404);
        assertThat(r.body()).startsWith("<?xml").contains("<Code>TableNotFound</Code>");
    }

    @Test
    void answersAnUnknownVerbWith405() throws Exception {
        HttpResponse<String> r = send("BREW", "/acct/t", true);

        assertThat(r.statusCode()).isEqualTo(405);
        assertThat(r.headers().firstValue("x-ms-error-code")).hasValue("UnsupportedHttpVerb");
    }

    @Test
    void answersAnUnsupportedVerbOnAResourceWith405() throws Exception {
        HttpResponse<String> r = send("DELETE", "/acct/Tables", true);

        assertThat(r.statusCode()).isEqualTo(405);
        assertThat(r.headers().firstValue("x-ms-error-code")).hasValue("UnsupportedHttpVerb");
    }

    @Test
    void answersAnOperationWithNoHandlerWith501() throws Exception {
        HttpResponse<String> r = send("DELETE", "/acct/Tables('x')", true);

        assertThat(r.statusCode()).isEqualTo(501);
        assertThat(r.headers().firstValue("x-ms-error-code")).hasValue("NotImplemented");
    }

    @Test
    void answersAMalformedPathWith400() throws Exception {
        HttpResponse<String> r = send("GET", "/acct/t(PartitionKey='p'", true);

        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.headers().firstValue("x-ms-error-code")).hasValue("InvalidUri");
    }

    @Test
    void servesReadsOfTheSecondaryLocationAsTheAccountsOwn() throws Exception {
        HttpResponse<String> r = send("GET", "/acct-secondary/Tables", true);

        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).isEqualTo("tables of acct");
    }

    @Test
    void refusesWritesToTheSecondaryLocation() throws Exception {
        HttpResponse<String> r = send("POST", "/acct-secondary/Tables", true);

        assertThat(r.statusCode()).isEqualTo(403);
        assertThat(r.headers().firstValue("x-ms-error-code")).hasValue("InsufficientAccountPermissions");
        assertThat(r.body()).contains("Write operations are not allowed");
        assertThat(send("POST", "/acct/Tables", true).statusCode()).isEqualTo(201);
    }

    @Test
    void servesServiceStatsOnTheSecondaryLocationOnly() throws Exception {
        HttpResponse<String> secondary = send("GET", "/acct-secondary/?restype=service&comp=stats", true);
        HttpResponse<String> primary = send("GET", "/acct/?restype=service&comp=stats", true);

        assertThat(secondary.statusCode()).isEqualTo(200);
        assertThat(secondary.body()).isEqualTo("stats of acct");
        assertThat(primary.statusCode()).isEqualTo(400);
        assertThat(primary.headers().firstValue("x-ms-error-code")).hasValue("InvalidQueryParameterValue");
        assertThat(primary.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("application/xml"));
        assertThat(primary.body()).contains("<Code>InvalidQueryParameterValue</Code>").contains("-secondary");
    }

    @Test
    void echoesAServedVersion() throws Exception {
        HttpResponse<String> r = send("GET", "/acct/t(PartitionKey='p',RowKey='r')", true, "2021-12-02");

        assertThat(r.statusCode()).isEqualTo(404);
        assertThat(r.headers().firstValue("x-ms-version")).hasValue("2021-12-02");
    }

    @Test
    void refusesAVersionThatIsNotADateWith400InvalidHeaderValue() throws Exception {
        for (String version : java.util.List.of("invalid", "2019-2-2", "2019-02-30", "20190202", "2019-02-02x")) {
            HttpResponse<String> r = send("GET", "/acct/Tables", true, version);

            assertThat(r.statusCode()).as(version).isEqualTo(400);
            assertThat(r.headers().firstValue("x-ms-error-code")).as(version).hasValue("InvalidHeaderValue");
            assertThat(r.headers().firstValue("x-ms-version")).as(version).hasValue(RequestContext.DEFAULT_VERSION);
            assertThat(r.body()).as(version).contains("x-ms-version");
        }
    }

    @Test
    void refusesAVersionOlderThanJsonWith400InvalidHeaderValue() throws Exception {
        HttpResponse<String> r = send("GET", "/acct/Tables", true, "2011-08-18");

        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.headers().firstValue("x-ms-error-code")).hasValue("InvalidHeaderValue");
        assertThat(r.body()).contains("2013-08-15");
    }

    @Test
    void writesTheTimeOfAnXmlErrorWithSevenFractionalDigitsAsTheJsonErrorDoes() throws Exception {
        HttpResponse<String> xml = send("GET", "/acct/t?comp=acl", true);
        HttpResponse<String> json = send("GET", "/acct/t(PartitionKey='p',RowKey='r')", true);

        assertThat(xml.body()).containsPattern("\\nTime:\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{7}Z</Message>");
        assertThat(json.body()).containsPattern("\\\\nTime:\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{7}Z\"");
    }

    @Test
    void gzipsALargeJsonAnswerForAClientThatAcceptsGzipOnly() throws Exception {
        HttpRequest.Builder get = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + "/_large"));

        HttpResponse<String> plain = client.send(get.copy().build(), HttpResponse.BodyHandlers.ofString());
        HttpResponse<byte[]> gzipped = client.send(get.header("Accept-Encoding", "gzip").build(),
                HttpResponse.BodyHandlers.ofByteArray());

        assertThat(gzipped.headers().firstValue("Content-Encoding")).hasValue("gzip");
        assertThat(gzipped.headers().firstValue("Content-Type")).hasValue(MetadataLevel.NO.contentType());
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gzipped.body()))) {
            assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo(LARGE_JSON);
        }
        assertThat(plain.headers().firstValue("Content-Encoding")).isEmpty();
        assertThat(plain.body()).isEqualTo(LARGE_JSON);
    }

    @Test
    void namesTheServicesAnswerTypesAsCompressibleBesideJavalinsOwn() {
        assertThat(TableServiceEndpoint.compression().getAllowedMimeTypes())
                .contains(MetadataLevel.NO.contentType(), MetadataLevel.MINIMAL.contentType(),
                        MetadataLevel.FULL.contentType(), "application/json;charset=utf-8")
                .containsAll(CompressionStrategy.GZIP.getAllowedMimeTypes());
    }

    @Test
    void copiesBodiesInChunksNoSmallerThanTheSmallestBodyGzipCompresses() {
        // gzip decides on the first chunk written: a smaller chunk would leave a large body uncompressed
        assertThat(TableServiceEndpoint.BODY_COPY_BUFFER_BYTES)
                .isGreaterThanOrEqualTo(TableServiceEndpoint.compression().getDefaultMinSizeForCompression());
    }
}
