package io.tablestream.server.cors;

import static io.tablestream.server.cors.CorsRules.APP;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.models.TableServiceCorsRule;
import io.tablestream.server.TablestreamServerExtension;
import io.tablestream.server.TablestreamServerExtension.RunningServer;
import io.tablestream.testsupport.KafkaExtension;
import java.net.http.HttpResponse;
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

    private SharedKeyLiteRequests http;

    @BeforeEach
    void setRules(TableServiceClient service, RunningServer server) {
        CorsRules.set(service, CorsRules.APP_RULE, ANYONE_MAY_GET);
        http = new SharedKeyLiteRequests(server);
    }

    @AfterAll
    static void clearRules(TableServiceClient service) {
        CorsRules.clear(service);
    }

    private HttpResponse<String> preflight(String path, String origin, String method, String headers) throws Exception {
        var b = http.unsigned("OPTIONS", path);
        if (origin != null) {
            b.header("Origin", origin);
        }
        if (method != null) {
            b.header("Access-Control-Request-Method", method);
        }
        if (headers != null) {
            b.header("Access-Control-Request-Headers", headers);
        }
        return http.send(b);
    }

    private static String header(HttpResponse<?> r, String name) {
        return r.headers().firstValue(name).orElse(null);
    }

    @Test
    void allowsTheAppsOriginWithTheMethodAndHeadersItsRuleAllows() throws Exception {
        HttpResponse<String> r = preflight("/devstoreaccount1/mytable", APP, "PUT", "x-ms-version, Content-Type, Prefer");

        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(header(r, "Access-Control-Allow-Origin")).isEqualTo(APP);
        assertThat(header(r, "Access-Control-Allow-Methods")).isEqualTo("PUT");
        assertThat(header(r, "Access-Control-Allow-Headers")).isEqualTo("content-type,prefer,x-ms-version");
        assertThat(header(r, "Access-Control-Max-Age")).isEqualTo("600");
        assertThat(header(r, "Access-Control-Allow-Credentials")).isEqualTo("true");
        assertThat(header(r, "x-ms-request-id")).isNotBlank();
    }

    @Test
    void answersAnyOriginWithAStarWhenTheMatchingRuleAllowsEveryOrigin() throws Exception {
        HttpResponse<String> r = preflight("/devstoreaccount1/Tables", "https://elsewhere.example", "GET", null);

        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(header(r, "Access-Control-Allow-Origin")).isEqualTo("*");
        assertThat(header(r, "Access-Control-Max-Age")).isEqualTo("60");
        assertThat(header(r, "Access-Control-Allow-Credentials")).isNull();
    }

    @Test
    void refusesAnOriginAndMethodNoRuleAllowsWith403() throws Exception {
        HttpResponse<String> r = preflight("/devstoreaccount1/mytable", "https://elsewhere.example", "DELETE", null);

        assertThat(r.statusCode()).isEqualTo(403);
        assertThat(header(r, "x-ms-error-code")).isEqualTo("CorsPreflightFailure");
        assertThat(header(r, "Access-Control-Allow-Origin")).isNull();
    }

    @Test
    void refusesAHeaderTheFirstMatchingRuleDoesNotAllow() throws Exception {
        HttpResponse<String> r = preflight("/devstoreaccount1/mytable", APP, "GET", "x-custom-header");

        assertThat(r.statusCode()).isEqualTo(403);
        assertThat(header(r, "x-ms-error-code")).isEqualTo("CorsPreflightFailure");
    }

    @Test
    void refusesAPreflightWithoutOriginOrMethodWith400() throws Exception {
        HttpResponse<String> noOrigin = preflight("/devstoreaccount1/mytable", null, "PUT", null);
        HttpResponse<String> noMethod = preflight("/devstoreaccount1/mytable", APP, null, null);

        assertThat(noOrigin.statusCode()).isEqualTo(400);
        assertThat(header(noOrigin, "x-ms-error-code")).isEqualTo("InvalidHeaderValue");
        assertThat(noMethod.statusCode()).isEqualTo(400);
    }

    @Test
    void evaluatesAPreflightOfAnyResourceAgainstTheServicesRules() throws Exception {
        HttpResponse<String> service = preflight("/devstoreaccount1?restype=service&comp=properties", APP, "PUT", null);
        HttpResponse<String> entity = preflight("/devstoreaccount1/t(PartitionKey='p',RowKey='r')", APP, "MERGE", null);
        HttpResponse<String> batch = preflight("/devstoreaccount1/$batch", APP, "POST", "content-type");

        assertThat(service.statusCode()).isEqualTo(200);
        assertThat(entity.statusCode()).isEqualTo(200);
        assertThat(batch.statusCode()).isEqualTo(200);
    }

    @Test
    void refusesEveryPreflightOnceTheRulesAreRemoved(TableServiceClient service) throws Exception {
        CorsRules.clear(service);

        HttpResponse<String> r = preflight("/devstoreaccount1/mytable", APP, "PUT", null);

        assertThat(r.statusCode()).isEqualTo(403);
        assertThat(header(r, "x-ms-error-code")).isEqualTo("CorsPreflightFailure");
    }

    @Test
    void refusesAPreflightForAnAccountWithoutRules() throws Exception {
        HttpResponse<String> r = preflight("/otheraccount/mytable", APP, "PUT", null);

        assertThat(r.statusCode()).isEqualTo(403);
    }
}
