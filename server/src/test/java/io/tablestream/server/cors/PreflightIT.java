package io.tablestream.server.cors;

import static io.tablestream.server.ServiceErrors.assertXmlServiceError;
import static io.tablestream.server.cors.CorsRules.APP;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.models.TableServiceCorsRule;
import io.tablestream.server.RawTableClient;
import io.tablestream.server.TablestreamServerExtension;
import io.tablestream.server.TablestreamServerExtension.RunningServer;
import io.tablestream.testsupport.KafkaExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** CORS preflights (OPTIONS, never signed) over raw HTTP, against rules set with the SDK. */
@ExtendWith({KafkaExtension.class, TablestreamServerExtension.class})
class PreflightIT {
    /** Any origin may GET, after the app's rule. */
    private static final TableServiceCorsRule ANYONE_MAY_GET = new TableServiceCorsRule()
            .setAllowedOrigins("*").setAllowedMethods("GET").setAllowedHeaders("x-ms-version").setExposedHeaders("")
            .setMaxAgeInSeconds(60);

    private RawTableClient http;

    @BeforeEach
    void setRules(TableServiceClient service, RunningServer server) {
        CorsRules.set(service, CorsRules.APP_RULE, ANYONE_MAY_GET);
        http = RawTableClient.to(server);
    }

    @AfterAll
    static void clearRules(TableServiceClient service) {
        CorsRules.clear(service);
    }

    private RawTableClient.Response preflight(String path, String origin, String method, String headers) throws Exception {
        RawTableClient.Request b = http.requestAt("OPTIONS", path).unsigned();
        if (origin != null) {
            b.header("Origin", origin);
        }
        if (method != null) {
            b.header("Access-Control-Request-Method", method);
        }
        if (headers != null) {
            b.header("Access-Control-Request-Headers", headers);
        }
        return b.send();
    }

    @Test
    void allowsTheAppsOriginWithTheMethodAndHeadersItsRuleAllows() throws Exception {
        RawTableClient.Response r = preflight("/devstoreaccount1/mytable", APP, "PUT", "x-ms-version, Content-Type, Prefer");

        assertThat(r.status()).isEqualTo(200);
        assertThat(r.header("Access-Control-Allow-Origin")).isEqualTo(APP);
        assertThat(r.header("Access-Control-Allow-Methods")).isEqualTo("PUT");
        assertThat(r.header("Access-Control-Allow-Headers")).isEqualTo("content-type,prefer,x-ms-version");
        assertThat(r.header("Access-Control-Max-Age")).isEqualTo("600");
        assertThat(r.header("Access-Control-Allow-Credentials")).isEqualTo("true");
        assertThat(r.header("x-ms-request-id")).isNotBlank();
        assertThat(r.bytes()).isEmpty();
        assertThat(r.header("Content-Type")).as("an answer without a body names no Content-Type").isNull();
    }

    @Test
    void answersAnyOriginWithAStarWhenTheMatchingRuleAllowsEveryOrigin() throws Exception {
        RawTableClient.Response r = preflight("/devstoreaccount1/Tables", "https://elsewhere.example", "GET", null);

        assertThat(r.status()).isEqualTo(200);
        assertThat(r.header("Access-Control-Allow-Origin")).isEqualTo("*");
        assertThat(r.header("Access-Control-Max-Age")).isEqualTo("60");
        assertThat(r.header("Access-Control-Allow-Credentials")).isNull();
    }

    @Test
    void refusesAnOriginAndMethodNoRuleAllowsWith403() throws Exception {
        RawTableClient.Response r = preflight("/devstoreaccount1/mytable", "https://elsewhere.example", "DELETE", null);

        assertXmlServiceError(r, 403, "CorsPreflightFailure");
        assertThat(r.header("Access-Control-Allow-Origin")).isNull();
    }

    @Test
    void refusesAHeaderTheFirstMatchingRuleDoesNotAllow() throws Exception {
        RawTableClient.Response r = preflight("/devstoreaccount1/mytable", APP, "GET", "x-custom-header");

        assertXmlServiceError(r, 403, "CorsPreflightFailure");
        // the service's words, which name neither the rule nor the header
        assertThat(r.body()).contains("<Message>CORS not enabled or no matching rule found for this request.\n");
    }

    @Test
    void refusesAPreflightWithoutOriginOrMethodWith400() throws Exception {
        RawTableClient.Response noOrigin = preflight("/devstoreaccount1/mytable", null, "PUT", null);
        RawTableClient.Response noMethod = preflight("/devstoreaccount1/mytable", APP, null, null);

        assertXmlServiceError(noOrigin, 400, "InvalidHeaderValue");
        assertThat(noOrigin.body()).contains("Origin");
        assertXmlServiceError(noMethod, 400, "InvalidHeaderValue");
        assertThat(noMethod.body()).contains("Access-Control-Request-Method");
    }

    @Test
    void evaluatesAPreflightOfAnyResourceAgainstTheServicesRules() throws Exception {
        RawTableClient.Response service = preflight("/devstoreaccount1?restype=service&comp=properties", APP, "PUT", null);
        RawTableClient.Response entity = preflight("/devstoreaccount1/t(PartitionKey='p',RowKey='r')", APP, "MERGE", null);
        RawTableClient.Response batch = preflight("/devstoreaccount1/$batch", APP, "POST", "content-type");

        assertThat(service.status()).isEqualTo(200);
        assertThat(entity.status()).isEqualTo(200);
        assertThat(batch.status()).isEqualTo(200);
    }

    @Test
    void refusesEveryPreflightOnceTheRulesAreRemoved(TableServiceClient service) throws Exception {
        CorsRules.clear(service);

        RawTableClient.Response r = preflight("/devstoreaccount1/mytable", APP, "PUT", null);

        assertThat(r.status()).isEqualTo(403);
        assertThat(r.header("x-ms-error-code")).isEqualTo("CorsPreflightFailure");
    }

    @Test
    void refusesAPreflightForAnAccountWithoutRules() throws Exception {
        RawTableClient.Response r = preflight("/otheraccount/mytable", APP, "PUT", null);

        assertXmlServiceError(r, 403, "CorsPreflightFailure");
    }
}
