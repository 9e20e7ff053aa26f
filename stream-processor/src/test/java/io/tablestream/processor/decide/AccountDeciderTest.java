package io.tablestream.processor.decide;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablestream.core.command.AccountCommand;
import io.tablestream.core.command.CommandHeader;
import io.tablestream.core.model.AccountRecord;
import io.tablestream.core.model.CorsRule;
import io.tablestream.core.model.LoggingSettings;
import io.tablestream.core.model.MetricsSettings;
import io.tablestream.core.model.RetentionPolicy;
import io.tablestream.core.model.ServiceProperties;
import io.tablestream.core.model.ServicePropertiesUpdate;
import java.util.List;
import org.junit.jupiter.api.Test;

class AccountDeciderTest {
    private static final CommandHeader HEADER = new CommandHeader("c", "acct", 0L, null, null);
    private static final LoggingSettings LOGGING = LoggingSettings.of("1.0", true, true, true, RetentionPolicy.ofDays(3));
    private static final MetricsSettings MINUTE = MetricsSettings.enabled("1.0", true, RetentionPolicy.ofDays(2));
    private static final CorsRule RULE = CorsRule.parse("https://app.example", "GET,PUT", "", "", 60);

    private static AccountCommand set(ServicePropertiesUpdate update) {
        return AccountCommand.setServiceProperties(HEADER, update);
    }

    @Test
    void anAccountThatNeverSetPropertiesStartsFromTheDefaults() {
        AccountRecord after = AccountDecider.decide(set(ServicePropertiesUpdate.NONE.withLogging(LOGGING)), null);

        assertThat(after.account()).isEqualTo("acct");
        assertThat(after.serviceProperties()).isEqualTo(ServiceProperties.of(LOGGING, MetricsSettings.DEFAULT_HOUR,
                MetricsSettings.DEFAULT_MINUTE, List.of()));
    }

    @Test
    void eachGroupTheUpdateCarriesReplacesTheStoredOneAndTheOthersAreKept() {
        AccountRecord current = AccountRecord.of("acct",
                ServiceProperties.of(LOGGING, MetricsSettings.DEFAULT_HOUR, MetricsSettings.DEFAULT_MINUTE, List.of(RULE)));

        AccountRecord after = AccountDecider.decide(set(ServicePropertiesUpdate.NONE.withMinuteMetrics(MINUTE)), current);

        assertThat(after.serviceProperties()).isEqualTo(
                ServiceProperties.of(LOGGING, MetricsSettings.DEFAULT_HOUR, MINUTE, List.of(RULE)));
    }

    @Test
    void anEmptyCorsListRemovesEveryRule() {
        AccountRecord current = AccountRecord.of("acct", ServiceProperties.of(LoggingSettings.DEFAULT,
                MetricsSettings.DEFAULT_HOUR, MetricsSettings.DEFAULT_MINUTE, List.of(RULE)));

        AccountRecord after = AccountDecider.decide(set(ServicePropertiesUpdate.NONE.withCors(List.of())), current);

        assertThat(after.serviceProperties().cors()).isEmpty();
    }

    @Test
    void refusesTheRecordOfAnotherAccount() {
        assertThatThrownBy(() -> AccountDecider.decide(set(ServicePropertiesUpdate.NONE), AccountRecord.initial("other")))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
