package io.tablestream.server.acl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.core.exception.HttpResponseException;
import com.azure.core.http.rest.Response;
import com.azure.core.util.Context;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.models.TableServiceCorsRule;
import com.azure.data.tables.models.TableServiceLogging;
import com.azure.data.tables.models.TableServiceMetrics;
import com.azure.data.tables.models.TableServiceProperties;
import com.azure.data.tables.models.TableServiceRetentionPolicy;
import io.tablestream.server.TablestreamServerExtension;
import io.tablestream.testsupport.KafkaExtension;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Set and Get Table Service Properties through the official SDK, end to end through the log. The
 * properties are the emulator account's, shared by every test of this JVM: each test sets what it
 * reads, and the CORS rules are removed at the end.
 */
@ExtendWith({KafkaExtension.class, TablestreamServerExtension.class})
class ServicePropertiesIT {

    private static TableServiceRetentionPolicy days(int n) {
        return new TableServiceRetentionPolicy().setEnabled(true).setDaysToRetain(n);
    }

    private static TableServiceRetentionPolicy disabled() {
        return new TableServiceRetentionPolicy().setEnabled(false);
    }

    @AfterAll
    static void removeCorsRules(TableServiceClient service) {
        service.setProperties(new TableServiceProperties().setCorsRules(List.of()));
    }

    @Test
    void readsBackEveryGroupItSet(TableServiceClient service) {
        Response<Void> set = service.setPropertiesWithResponse(new TableServiceProperties()
                .setLogging(new TableServiceLogging().setAnalyticsVersion("1.0").setReadLogged(true)
                        .setWriteLogged(false).setDeleteLogged(true).setRetentionPolicy(days(5)))
                .setHourMetrics(new TableServiceMetrics().setVersion("1.0").setEnabled(true).setIncludeApis(false)
                        .setRetentionPolicy(days(30)))
                .setMinuteMetrics(new TableServiceMetrics().setVersion("1.0").setEnabled(false)
                        .setRetentionPolicy(disabled()))
                .setCorsRules(List.of(new TableServiceCorsRule().setAllowedOrigins("https://a.example,https://b.example")
                        .setAllowedMethods("GET,PUT").setAllowedHeaders("x-ms-meta*,content-type")
                        .setExposedHeaders("x-ms-request-id").setMaxAgeInSeconds(300))), null, Context.NONE);

        TableServiceProperties p = service.getProperties();

        assertThat(set.getStatusCode()).isEqualTo(202);
        assertThat(p.getLogging().isReadLogged()).isTrue();
        assertThat(p.getLogging().isWriteLogged()).isFalse();
        assertThat(p.getLogging().isDeleteLogged()).isTrue();
        assertThat(p.getLogging().getRetentionPolicy().getDaysToRetain()).isEqualTo(5);
        assertThat(p.getHourMetrics().isEnabled()).isTrue();
        assertThat(p.getHourMetrics().isIncludeApis()).isFalse();
        assertThat(p.getHourMetrics().getTableServiceRetentionPolicy().getDaysToRetain()).isEqualTo(30);
        assertThat(p.getMinuteMetrics().isEnabled()).isFalse();
        assertThat(p.getMinuteMetrics().getTableServiceRetentionPolicy().isEnabled()).isFalse();
        assertThat(p.getCorsRules()).singleElement().satisfies(rule -> {
            assertThat(rule.getAllowedOrigins()).isEqualTo("https://a.example,https://b.example");
            assertThat(rule.getAllowedMethods()).isEqualTo("GET,PUT");
            assertThat(rule.getAllowedHeaders()).isEqualTo("x-ms-meta*,content-type");
            assertThat(rule.getExposedHeaders()).isEqualTo("x-ms-request-id");
            assertThat(rule.getMaxAgeInSeconds()).isEqualTo(300);
        });
    }

    @Test
    void anUpdateOfOneGroupKeepsTheOthers(TableServiceClient service) {
        service.setProperties(new TableServiceProperties()
                .setLogging(new TableServiceLogging().setAnalyticsVersion("2.0").setReadLogged(false)
                        .setWriteLogged(true).setDeleteLogged(false).setRetentionPolicy(disabled()))
                .setCorsRules(List.of(new TableServiceCorsRule().setAllowedOrigins("*").setAllowedMethods("GET")
                        .setAllowedHeaders("").setExposedHeaders("").setMaxAgeInSeconds(1))));

        service.setProperties(new TableServiceProperties().setMinuteMetrics(new TableServiceMetrics().setVersion("1.0")
                .setEnabled(true).setIncludeApis(true).setRetentionPolicy(days(2))));
        TableServiceProperties p = service.getProperties();

        assertThat(p.getMinuteMetrics().isEnabled()).isTrue();
        assertThat(p.getMinuteMetrics().getTableServiceRetentionPolicy().getDaysToRetain()).isEqualTo(2);
        assertThat(p.getLogging().getAnalyticsVersion()).isEqualTo("2.0");
        assertThat(p.getLogging().isWriteLogged()).isTrue();
        assertThat(p.getCorsRules()).singleElement()
                .satisfies(rule -> assertThat(rule.getAllowedOrigins()).isEqualTo("*"));
    }

    @Test
    void anEmptyRuleListRemovesTheCorsRules(TableServiceClient service) {
        service.setProperties(new TableServiceProperties().setCorsRules(List.of(new TableServiceCorsRule()
                .setAllowedOrigins("https://a.example").setAllowedMethods("GET").setAllowedHeaders("")
                .setExposedHeaders("").setMaxAgeInSeconds(1))));

        service.setProperties(new TableServiceProperties().setCorsRules(List.of()));

        assertThat(service.getProperties().getCorsRules()).isNullOrEmpty();
    }

    @Test
    void refusesSettingsOutsideTheirLimitsAndKeepsTheStoredOnes(TableServiceClient service) {
        service.setProperties(new TableServiceProperties().setHourMetrics(new TableServiceMetrics().setVersion("1.0")
                .setEnabled(true).setIncludeApis(true).setRetentionPolicy(days(9))));

        assertThatThrownBy(() -> service.setProperties(new TableServiceProperties().setHourMetrics(
                new TableServiceMetrics().setVersion("1.0").setEnabled(true).setIncludeApis(true)
                        .setRetentionPolicy(days(366)))))
                .isInstanceOfSatisfying(HttpResponseException.class, e -> {
                    assertThat(e.getResponse().getStatusCode()).isEqualTo(400);
                    assertThat(e.getResponse().getHeaderValue("x-ms-error-code")).isEqualTo("InvalidXmlNodeValue");
                });
        assertThat(service.getProperties().getHourMetrics().getTableServiceRetentionPolicy().getDaysToRetain())
                .isEqualTo(9);
    }
}
