package io.tablestream.server.cors;

import static io.tablestream.server.cors.CorsRules.APP;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableServiceClient;
import io.tablestream.server.RawTableClient;
import io.tablestream.server.TablestreamServerExtension;
import io.tablestream.server.TablestreamServerExtension.RunningServer;
import io.tablestream.testsupport.KafkaExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The CORS headers of actual (signed) requests carrying {@code Origin}, over raw HTTP, errors included. */
@ExtendWith({KafkaExtension.class, TablestreamServerExtension.class})
class CrossOriginResponseIT {
    private static final String EVIL = "https://evil.example";

    private RawTableClient http;

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
        http = RawTableClient.to(server);
    }

    @Test
    void aReadFromTheAppsOriginSharesTheResponseWithIt() throws Exception {
        RawTableClient.Response r = http.requestAt("GET", "/devstoreaccount1/Tables").header("Origin", APP).send();

        assertThat(r.status()).isEqualTo(200);
        assertThat(r.header("Access-Control-Allow-Origin")).isEqualTo(APP);
        assertThat(r.header("Access-Control-Allow-Credentials")).isEqualTo("true");
        assertThat(r.header("Access-Control-Expose-Headers")).contains("x-ms-request-id", "x-ms-version", "ETag");
        assertThat(r.header("Vary")).contains("Origin");
    }

    @Test
    void aWriteFromTheAppsOriginSharesTheResponseWithIt(TableServiceClient service) throws Exception {
        String table = "CorsWrite" + System.nanoTime() % 1_000_000;
        service.createTable(table);

        RawTableClient.Response r = http.requestAt("POST", "/devstoreaccount1/" + table)
                .body("{\"PartitionKey\":\"p\",\"RowKey\":\"r\"}")
                .header("Prefer", "return-no-content")
                .header("Origin", APP).send();

        assertThat(r.status()).isEqualTo(204);
        assertThat(r.header("ETag")).isNotBlank();
        assertThat(r.header("Access-Control-Allow-Origin")).isEqualTo(APP);
        assertThat(r.header("Access-Control-Expose-Headers")).contains("ETag", "x-ms-session-token");
        assertThat(r.header("Vary")).as("a write's response is not cached by origin").isNull();
        assertThat(service.getTableClient(table).getEntity("p", "r")).isNotNull();
    }

    @Test
    void anErrorResponseIsSharedWithTheAppsOriginToo() throws Exception {
        RawTableClient.Response notFound = http.requestAt("GET", "/devstoreaccount1/NoSuchTable" + System.nanoTime() % 1000)
                .header("Origin", APP).send();
        RawTableClient.Response unsigned = http.requestAt("GET", "/devstoreaccount1/Tables").unsigned().header("Origin", APP).send();

        assertThat(notFound.status()).isEqualTo(404);
        assertThat(notFound.header("x-ms-error-code")).isEqualTo("TableNotFound");
        assertThat(notFound.header("Access-Control-Allow-Origin")).isEqualTo(APP);
        assertThat(notFound.header("Access-Control-Expose-Headers")).contains("x-ms-error-code");
        assertThat(unsigned.status()).isEqualTo(403);
        assertThat(unsigned.header("Access-Control-Allow-Origin")).isEqualTo(APP);
    }

    @Test
    void anOriginNoRuleAllowsGetsNoAccessControlHeaders() throws Exception {
        RawTableClient.Response read = http.requestAt("GET", "/devstoreaccount1/Tables").header("Origin", EVIL).send();
        RawTableClient.Response write = http.requestAt("DELETE", "/devstoreaccount1/Tables('NoSuchTable')")
                .header("Origin", EVIL).send();

        assertThat(read.status()).isEqualTo(200);
        assertThat(read.header("Access-Control-Allow-Origin")).isNull();
        assertThat(read.header("Access-Control-Expose-Headers")).isNull();
        assertThat(read.header("Vary")).as("the answer to a GET still varies by origin").contains("Origin");
        assertThat(write.status()).isEqualTo(404);
        assertThat(write.header("Access-Control-Allow-Origin")).isNull();
    }

    @Test
    void aRequestWithoutAnOriginGetsNoAccessControlHeaders() throws Exception {
        RawTableClient.Response r = http.requestAt("GET", "/devstoreaccount1/Tables").send();

        assertThat(r.status()).isEqualTo(200);
        assertThat(r.header("Access-Control-Allow-Origin")).isNull();
    }
}
