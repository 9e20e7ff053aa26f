package io.tablestream.protocol.registry;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablestream.core.model.AccessPolicy;
import io.tablestream.core.model.CorsRule;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.ServiceProperties;
import io.tablestream.core.model.TableName;
import io.tablestream.core.model.TablePermission;
import io.tablestream.core.model.TableRecord;
import io.tablestream.core.registry.TableRegistry;
import io.tablestream.protocol.auth.StoredAccessPolicies;
import io.tablestream.protocol.cors.CorsPolicies;
import io.tablestream.protocol.cors.CorsPolicy;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/** Stored access policies and CORS rules as the protocol looks them up in a registry. */
class RegistryBackedLookupsTest {
    /** A registry held in maps, changed by the test. */
    private static final class MapRegistry implements TableRegistry {
        final Map<String, TableRecord> tables = new HashMap<>();
        final Map<String, ServiceProperties> accounts = new HashMap<>();

        @Override
        public Optional<TableRecord> byName(String account, TableName name) {
            return Optional.ofNullable(tables.get(account + "/" + name.key()));
        }

        @Override
        public Optional<TableRecord> byId(long tableId) {
            return tables.values().stream().filter(t -> t.tableId() == tableId).findFirst();
        }

        @Override
        public List<TableRecord> list(String account, String fromNameKey, int limit) {
            return List.of();
        }

        @Override
        public ServiceProperties serviceProperties(String account) {
            return accounts.getOrDefault(account, ServiceProperties.DEFAULT);
        }

        @Override
        public CompletableFuture<Void> awaitChange(BooleanSupplier condition) {
            return CompletableFuture.completedFuture(null);
        }
    }

    private static final AccessPolicy READERS = AccessPolicy.of("readers", null, null, TablePermission.parse("r"));
    private static final CorsRule RULE = CorsRule.parse("https://app.example", "GET", "", "", 5);

    private final MapRegistry registry = new MapRegistry();

    private static ServiceProperties withCors(CorsRule... rules) {
        ServiceProperties d = ServiceProperties.DEFAULT;
        return ServiceProperties.of(d.logging(), d.hourMetrics(), d.minuteMetrics(), List.of(rules));
    }

    @Test
    void findsAStoredPolicyOfTheNamedTableByItsExactId() {
        registry.tables.put("acct/orders", TableRecord.active("acct", TableName.of("Orders"), 1L,
                EdmDateTime.ofEpochTicks(0L), null).withAccessPolicies(List.of(READERS)));
        StoredAccessPolicies policies = StoredAccessPolicies.of(registry);

        assertThat(policies.find("acct", TableName.of("ORDERS"), "readers")).contains(READERS);
        assertThat(policies.find("acct", TableName.of("Orders"), "Readers")).isEmpty();
        assertThat(policies.find("acct", TableName.of("Other"), "readers")).isEmpty();
        assertThat(policies.find("other", TableName.of("Orders"), "readers")).isEmpty();
    }

    @Test
    void aPolicyRemovedFromTheRegistryIsNotFoundAnyMore() {
        TableRecord orders = TableRecord.active("acct", TableName.of("Orders"), 1L, EdmDateTime.ofEpochTicks(0L), null);
        registry.tables.put("acct/orders", orders.withAccessPolicies(List.of(READERS)));
        StoredAccessPolicies policies = StoredAccessPolicies.of(registry);
        assertThat(policies.find("acct", TableName.of("Orders"), "readers")).isPresent();

        registry.tables.put("acct/orders", orders);

        assertThat(policies.find("acct", TableName.of("Orders"), "readers")).isEmpty();
    }

    @Test
    void corsPoliciesFollowTheAccountsRulesAndReuseACompiledPolicyWhileTheyStay() {
        CorsPolicies cors = CorsPolicies.of(registry);
        assertThat(cors.forAccount("acct")).isSameAs(CorsPolicy.DISABLED);

        registry.accounts.put("acct", withCors(RULE));
        CorsPolicy first = cors.forAccount("acct");
        CorsPolicy again = cors.forAccount("acct");
        registry.accounts.put("acct", withCors(RULE, CorsRule.parse("*", "PUT", "", "", 0)));
        CorsPolicy changed = cors.forAccount("acct");
        registry.accounts.put("acct", ServiceProperties.DEFAULT);

        assertThat(first.rules()).containsExactly(RULE);
        assertThat(again).isSameAs(first);
        assertThat(changed.rules()).hasSize(2);
        assertThat(cors.forAccount("acct").enabled()).isFalse();
        assertThat(cors.forAccount("nobody").enabled()).isFalse();
    }
}
