package io.tablestream.server.cors;

import static io.tablestream.server.cors.CorsRules.APP;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableServiceClient;
import io.tablestream.server.TablestreamServerExtension;
import io.tablestream.server.TablestreamServerExtension.RunningServer;
import io.tablestream.testsupport.KafkaExtension;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The CORS headers of actual (signed) requests carrying {@code Origin}, over raw HTTP, errors included. */
@ExtendWith({KafkaExtension.class, TablestreamServerExtension.class})
class CrossOriginResponseIT {
    private static final String EVIL = "https://evil.example";

    private SharedKeyLiteRequests http;

    @BeforeAll
    static void setRules(TableServiceClient service) {
        CorsRules.set(service, CorsRules.APP_RULE);
    }

    @AfterAll
    static void clearRules(TableServiceClient service) {
        CorsRules.clear(service);
    }

    @BeforeEach
    void client(RunningServer server) {
        http = new SharedKeyLiteRequests(server);
    }

    private static String header(HttpResponse<?> r, String name) {
        return r.headers().firstValue(name).orElse(null);
    }

    @Test
    void aReadFromTheAppsOriginSharesTheResponseWithIt() throws Exception {
        HttpResponse<String> r = http.send(http.signed("GET", "/devstoreaccount1/Tables").header("Origin", APP));

        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(header(r, "Access-Control-Allow-Origin")).isEqualTo(APP);
        assertThat(header(r, "Access-Control-Allow-Credentials")).isEqualTo("true");
        assertThat(header(r, "Access-Control-Expose-Headers")).contains("x-ms-request-id", "x-ms-version", "ETag");
        assertThat(header(r, "Vary")).contains("Origin");
    }

    @Test
    void aWriteFromTheAppsOriginSharesTheResponseWithIt(TableServiceClient service) throws Exception {
        String table = "CorsWrite" + System.nanoTime() % 1_000_000;
        service.createTable(table);

        HttpResponse<String> r = http.send(http.signed("POST", "/devstoreaccount1/" + table)
                .method("POST", HttpRequest.BodyPublishers.ofString("{\"PartitionKey\":\"p\",\"RowKey\":\"r\"}"))
                .header("Content-Type", "application/json")
                .header("Prefer", "return-no-content")
                .header("Origin", APP));

        assertThat(r.statusCode()).isEqualTo(204);
        assertThat(header(r, "ETag")).isNotBlank();
        assertThat(header(r, "Access-Control-Allow-Origin")).isEqualTo(APP);
        assertThat(header(r, "Access-Control-Expose-Headers")).contains("ETag", "x-ms-session-token");
        assertThat(header(r, "Vary")).as("a write's response is not cached by origin").isNull();
        assertThat(service.getTableClient(table).getEntity("p", "r")).isNotNull();
    }

    @Test
    void anErrorResponseIsSharedWithTheAppsOriginToo() throws Exception {
        HttpResponse<String> notFound = http.send(http.signed("GET", "/devstoreaccount1/NoSuchTable" + System.nanoTime() % 1000)
                .header("Origin", APP));
        HttpResponse<String> unsigned = http.send(http.unsigned("GET", "/devstoreaccount1/Tables").header("Origin", APP));

        assertThat(notFound.statusCode()).isEqualTo(404);
        assertThat(header(notFound, "x-ms-error-code")).isEqualTo("TableNotFound");
        assertThat(header(notFound, "Access-Control-Allow-Origin")).isEqualTo(APP);
        assertThat(header(notFound, "Access-Control-Expose-Headers")).contains("x-ms-error-code");
        assertThat(unsigned.statusCode()).isEqualTo(403);
        assertThat(header(unsigned, "Access-Control-Allow-Origin")).isEqualTo(APP);
    }

    @Test
    void anOriginNoRuleAllowsGetsNoAccessControlHeaders() throws Exception {
        HttpResponse<String> read = http.send(http.signed("GET", "/devstoreaccount1/Tables").header("Origin", EVIL));
        HttpResponse<String> write = http.send(http.signed("DELETE", "/devstoreaccount1/Tables('NoSuchTable')")
                .header("Origin", EVIL));

        assertThat(read.statusCode()).isEqualTo(200);
        assertThat(header(read, "Access-Control-Allow-Origin")).isNull();
        assertThat(header(read, "Access-Control-Expose-Headers")).isNull();
        assertThat(header(read, "Vary")).as("the answer to a GET still varies by origin").contains("Origin");
        assertThat(write.statusCode()).isEqualTo(404);
        assertThat(header(write, "Access-Control-Allow-Origin")).isNull();
    }

    @Test
    void aRequestWithoutAnOriginGetsNoAccessControlHeaders() throws Exception {
        HttpResponse<String> r = http.send(http.signed("GET", "/devstoreaccount1/Tables"));

        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(header(r, "Access-Control-Allow-Origin")).isNull();
    }
}
