package io.tablestream.processor;

import static io.tablestream.processor.ProcessorHarness.header;
import static org.assertj.core.api.Assertions.assertThat;

import io.tablestream.core.command.CommandHeader;
import io.tablestream.core.command.Outcome;
import io.tablestream.core.command.AccountCommand;
import io.tablestream.core.command.TableCommand;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.model.AccessPolicy;
import io.tablestream.core.model.AccountRecord;
import io.tablestream.core.model.CorsRule;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.LoggingSettings;
import io.tablestream.core.model.MetricsSettings;
import io.tablestream.core.model.RegistryRecord;
import io.tablestream.core.model.RetentionPolicy;
import io.tablestream.core.model.ServiceProperties;
import io.tablestream.core.model.ServicePropertiesUpdate;
import io.tablestream.core.model.TableName;
import io.tablestream.core.model.TablePermission;
import io.tablestream.core.model.TableRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.kafka.streams.KeyValue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Set Table ACL and Set Table Service Properties through the topology, read back from the global registry. */
class TableAclAndServicePropertiesTopologyTest {
    private static final AccessPolicy READERS = AccessPolicy.of("readers", null,
            EdmDateTime.of(Instant.parse("2030-01-01T00:00:00Z")), TablePermission.parse("r"));
    private static final AccessPolicy WRITERS = AccessPolicy.of("writers", EdmDateTime.of(Instant.parse("2024-01-01T00:00:00Z")),
            null, TablePermission.parse("au"));
    private static final LoggingSettings LOGGING = LoggingSettings.of("1.0", true, false, true, RetentionPolicy.ofDays(7));
    private static final CorsRule RULE = CorsRule.parse("https://app.example", "GET,PUT", "x-ms-*", "x-ms-*", 600);

    private final ProcessorHarness h = new ProcessorHarness();

    @AfterEach
    void close() {
        h.close();
    }

    private List<AccessPolicy> policiesOf(String table) {
        return h.registry().byName(ProcessorHarness.ACCOUNT, TableName.of(table)).orElseThrow().accessPolicies();
    }

    @Test
    void setAclPublishesThePoliciesOnTheTablesRegistryRecord() {
        long id = h.givenTable("Orders");

        Outcome o = h.setAcl("ORDERS", List.of(READERS, WRITERS));

        assertThat(o.succeeded()).isTrue();
        assertThat(o.table()).isEqualTo(new Outcome.TableInfo(id, "Orders"));
        assertThat(policiesOf("orders")).containsExactly(READERS, WRITERS);
        assertThat(h.registry().byId(id).orElseThrow().accessPolicies()).containsExactly(READERS, WRITERS);
    }

    @Test
    void setAclReplacesThePoliciesAndAnEmptyListRemovesThem() {
        h.givenTable("Orders");
        h.setAcl("Orders", List.of(READERS, WRITERS));

        h.setAcl("Orders", List.of(WRITERS));
        List<AccessPolicy> replaced = policiesOf("Orders");
        h.setAcl("Orders", List.of());

        assertThat(replaced).containsExactly(WRITERS);
        assertThat(policiesOf("Orders")).isEmpty();
    }

    @Test
    void setAclOfAMissingTableFailsWithTableNotFoundAndPublishesNothing() {
        Outcome o = h.setAcl("Nowhere", List.of(READERS));

        assertThat(o.failure().code()).isEqualTo(ErrorCode.TABLE_NOT_FOUND);
        assertThat(h.tables.readKeyValuesToList()).isEmpty();
    }

    @Test
    void aRecreatedTableStartsWithoutTheOldTablesPolicies() {
        h.givenTable("Orders");
        h.setAcl("Orders", List.of(READERS));
        h.send(TableCommand.delete(header(), TableName.of("Orders")));

        Outcome afterDelete = h.setAcl("Orders", List.of(WRITERS));
        h.givenTable("Orders");

        assertThat(afterDelete.failure().code()).isEqualTo(ErrorCode.TABLE_NOT_FOUND);
        assertThat(policiesOf("Orders")).isEmpty();
    }

    @Test
    void aSetAclWithSixPoliciesIsRejectedAndDeadLettered() {
        h.givenTable("Orders");
        List<AccessPolicy> six = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            six.add(AccessPolicy.of("p" + i, null, null, Set.of()));
        }

        Outcome o = h.setAcl("Orders", six);

        assertThat(o.failure().code()).isEqualTo(ErrorCode.INVALID_INPUT);
        assertThat(h.deadLetters()).hasSize(1);
        assertThat(policiesOf("Orders")).isEmpty();
    }

    @Test
    void anAccountThatNeverSetItsPropertiesHasTheDefaults() {
        assertThat(h.registry().serviceProperties(ProcessorHarness.ACCOUNT)).isEqualTo(ServiceProperties.DEFAULT);
    }

    @Test
    void setServicePropertiesMergesEachUpdateIntoTheStoredProperties() {
        MetricsSettings hour = MetricsSettings.disabled("1.0", RetentionPolicy.DISABLED);

        Outcome first = h.setServiceProperties(ServicePropertiesUpdate.NONE.withLogging(LOGGING).withCors(List.of(RULE)));
        Outcome second = h.setServiceProperties(ServicePropertiesUpdate.NONE.withHourMetrics(hour));

        assertThat(first.succeeded()).isTrue();
        assertThat(second.succeeded()).isTrue();
        assertThat(h.registry().serviceProperties(ProcessorHarness.ACCOUNT))
                .isEqualTo(ServiceProperties.of(LOGGING, hour, MetricsSettings.DEFAULT_MINUTE, List.of(RULE)));
    }

    @Test
    void anEmptyCorsListRemovesTheRulesAndKeepsTheRest() {
        h.setServiceProperties(ServicePropertiesUpdate.NONE.withLogging(LOGGING).withCors(List.of(RULE)));

        h.setServiceProperties(ServicePropertiesUpdate.NONE.withCors(List.of()));

        ServiceProperties now = h.registry().serviceProperties(ProcessorHarness.ACCOUNT);
        assertThat(now.cors()).isEmpty();
        assertThat(now.logging()).isEqualTo(LOGGING);
    }

    @Test
    void servicePropertiesArePublishedUnderTheAccountKeyAndKeptApartPerAccount() {
        h.givenTable("Orders");
        h.tables.readKeyValuesToList();

        h.setServiceProperties(ServicePropertiesUpdate.NONE.withCors(List.of(RULE)));

        List<KeyValue<String, RegistryRecord>> published = h.tables.readKeyValuesToList();
        assertThat(published).singleElement().satisfies(kv -> {
            assertThat(kv.key).isEqualTo("account/" + ProcessorHarness.ACCOUNT);
            assertThat(kv.value).isInstanceOfSatisfying(AccountRecord.class,
                    a -> assertThat(a.serviceProperties().cors()).containsExactly(RULE));
        });
        assertThat(h.registry().serviceProperties("other")).isEqualTo(ServiceProperties.DEFAULT);
        assertThat(h.registry().list(ProcessorHarness.ACCOUNT, null, 10)).extracting(t -> t.name().value())
                .containsExactly("Orders");
    }

    @Test
    void anotherAccountsCommandsDoNotTouchThisAccountsProperties() {
        h.setServiceProperties(ServicePropertiesUpdate.NONE.withLogging(LOGGING));

        Outcome other = h.send(AccountCommand.setServiceProperties(new CommandHeader("o-1", "other", 0L, "me", null),
                ServicePropertiesUpdate.NONE.withCors(List.of(RULE))));

        assertThat(other.succeeded()).isTrue();
        assertThat(h.registry().serviceProperties(ProcessorHarness.ACCOUNT).cors()).isEmpty();
        assertThat(h.registry().serviceProperties("other").logging()).isEqualTo(LoggingSettings.DEFAULT);
    }

    @Test
    void setAclKeepsTheTablesOtherSettings() {
        long id = h.send(TableCommand.create(header(), TableName.of("Telemetry"), 3600)).table().tableId();

        h.setAcl("Telemetry", List.of(READERS));

        TableRecord t = h.registry().byId(id).orElseThrow();
        assertThat(t.defaultTtlSeconds()).isEqualTo(3600);
        assertThat(t.isActive()).isTrue();
        assertThat(t.name().value()).isEqualTo("Telemetry");
    }
}
