package io.tablestream.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablestream.core.model.CorsRule.Method;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class ServicePropertiesTest {
    private static final CorsRule RULE = CorsRule.of(List.of("https://a.example"), List.of(Method.GET),
            List.of("x-ms-meta*"), List.of(), 60);
    private static final LoggingSettings LOG_READS =
            LoggingSettings.of("1.0", true, false, false, RetentionPolicy.ofDays(3));
    private static final MetricsSettings MINUTE_ON = MetricsSettings.enabled("1.0", false, RetentionPolicy.ofDays(2));

    @Test
    void defaultsToWhatAnUntouchedAccountReports() {
        ServiceProperties d = ServiceProperties.DEFAULT;
        assertThat(d.logging()).isEqualTo(LoggingSettings.of("1.0", false, false, false, RetentionPolicy.disabled()));
        assertThat(d.hourMetrics()).isEqualTo(MetricsSettings.enabled("1.0", true, RetentionPolicy.ofDays(7)));
        assertThat(d.minuteMetrics()).isEqualTo(MetricsSettings.disabled("1.0", RetentionPolicy.disabled()));
        assertThat(d.cors()).isEmpty();
    }

    @Test
    void mergeKeepsEveryGroupAnEmptyUpdateLeavesOut() {
        ServiceProperties current = ServiceProperties.DEFAULT;
        assertThat(ServiceProperties.merge(current, ServicePropertiesUpdate.NONE)).isEqualTo(current);
    }

    @Test
    void mergeReplacesOnlyTheGroupsTheUpdateCarries() {
        ServiceProperties current = ServiceProperties.of(LoggingSettings.DEFAULT, MetricsSettings.DEFAULT_HOUR,
                MetricsSettings.DEFAULT_MINUTE, List.of(RULE));
        ServiceProperties merged = ServiceProperties.merge(current,
                ServicePropertiesUpdate.NONE.withLogging(LOG_READS).withMinuteMetrics(MINUTE_ON));
        assertThat(merged).isEqualTo(ServiceProperties.of(LOG_READS, MetricsSettings.DEFAULT_HOUR, MINUTE_ON,
                List.of(RULE)));
    }

    @Test
    void mergeWithAnEmptyCorsListRemovesEveryRule() {
        ServiceProperties current = ServiceProperties.of(LoggingSettings.DEFAULT, MetricsSettings.DEFAULT_HOUR,
                MetricsSettings.DEFAULT_MINUTE, List.of(RULE, RULE));
        assertThat(ServiceProperties.merge(current, ServicePropertiesUpdate.NONE.withCors(List.of())).cors()).isEmpty();
    }

    @Test
    void mergeOfAFullUpdateIsThatUpdate() {
        ServiceProperties next = ServiceProperties.of(LOG_READS, MINUTE_ON, MINUTE_ON, List.of(RULE));
        assertThat(ServiceProperties.merge(ServiceProperties.DEFAULT, ServicePropertiesUpdate.replacingAll(next)))
                .isEqualTo(next);
    }

    @Test
    void rejectsASixthCorsRule() {
        assertThatThrownBy(() -> ServiceProperties.of(LoggingSettings.DEFAULT, MetricsSettings.DEFAULT_HOUR,
                MetricsSettings.DEFAULT_MINUTE, Collections.nCopies(6, RULE)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void rejectsRetentionOutsideOneToThreeHundredSixtyFiveDays() {
        assertThat(RetentionPolicy.ofDays(1).enabled()).isTrue();
        assertThat(RetentionPolicy.ofDays(365).days()).hasValue(365);
        assertThatThrownBy(() -> RetentionPolicy.ofDays(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RetentionPolicy.ofDays(366)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void rejectsIncludeApisOnDisabledMetrics() {
        assertThatThrownBy(() -> new MetricsSettings("1.0", false, true, RetentionPolicy.disabled()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void rejectsAnAnalyticsVersionTheServiceDoesNotKnow() {
        assertThatThrownBy(() -> LoggingSettings.of("3.0", false, false, false, RetentionPolicy.disabled()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> MetricsSettings.disabled("2.0", RetentionPolicy.disabled()))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
