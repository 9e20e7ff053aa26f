package io.tablestream.server.acl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.core.exception.HttpResponseException;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableClientBuilder;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.models.TableAccessPolicy;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableSignedIdentifier;
import com.azure.data.tables.sas.TableSasPermission;
import com.azure.data.tables.sas.TableSasSignatureValues;
import io.tablestream.server.TablestreamServerExtension;
import io.tablestream.server.TablestreamServerExtension.RunningServer;
import io.tablestream.testsupport.KafkaExtension;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Service SAS bound to a stored access policy ({@code si}), through the official SDK. */
@ExtendWith({KafkaExtension.class, TablestreamServerExtension.class})
class StoredPolicySasIT {

    private static String uniqueName(String prefix) {
        return prefix + System.nanoTime() % 1_000_000_000L;
    }

    private static TableSignedIdentifier policy(String id, OffsetDateTime expiry, String permissions) {
        return new TableSignedIdentifier(id).setAccessPolicy(new TableAccessPolicy()
                .setExpiresOn(expiry).setPermissions(permissions));
    }

    private static OffsetDateTime inAnHour() {
        return OffsetDateTime.now(ZoneOffset.UTC).plusHours(1).withNano(0);
    }

    private static TableClient withSas(RunningServer server, String table, String sas) {
        return new TableClientBuilder().endpoint(server.endpoint()).tableName(table).sasToken(sas).buildClient();
    }

    private static void assertForbidden(Runnable call, String code) {
        assertThatThrownBy(call::run).isInstanceOfSatisfying(HttpResponseException.class, e -> {
            assertThat(e.getResponse().getStatusCode()).isEqualTo(403);
            assertThat(e.getResponse().getHeaderValue("x-ms-error-code")).isEqualTo(code);
        });
    }

    @Test
    void aSasNamingAStoredPolicyGetsItsExpiryAndPermissions(TableServiceClient service, RunningServer server) {
        String name = uniqueName("SasPolicy");
        TableClient owner = service.createTable(name);
        owner.createEntity(new TableEntity("p", "r1").addProperty("V", 1));
        owner.setAccessPolicies(List.of(policy("readers", inAnHour(), "r")));

        TableClient reader = withSas(server, name, owner.generateSas(new TableSasSignatureValues("readers")));

        assertThat(reader.getEntity("p", "r1").getProperty("V")).isEqualTo(1);
        assertThat(reader.listEntities().stream().map(TableEntity::getRowKey)).containsExactly("r1");
        assertForbidden(() -> reader.createEntity(new TableEntity("p", "r2")), "AuthorizationPermissionMismatch");
    }

    @Test
    void aPolicyMayLeaveThePermissionsToTheSas(TableServiceClient service, RunningServer server) {
        String name = uniqueName("SasPerm");
        TableClient owner = service.createTable(name);
        owner.setAccessPolicies(List.of(policy("until", inAnHour(), null)));

        String sas = owner.generateSas(new TableSasSignatureValues("until")
                .setPermissions(TableSasPermission.parse("a")));
        withSas(server, name, sas).createEntity(new TableEntity("p", "added"));

        assertThat(owner.getEntity("p", "added")).isNotNull();
    }

    @Test
    void removingThePolicyRevokesEverySasNamingIt(TableServiceClient service, RunningServer server) {
        String name = uniqueName("SasRevoke");
        TableClient owner = service.createTable(name);
        owner.createEntity(new TableEntity("p", "r"));
        owner.setAccessPolicies(List.of(policy("readers", inAnHour(), "r")));
        TableClient reader = withSas(server, name, owner.generateSas(new TableSasSignatureValues("readers")));
        assertThat(reader.getEntity("p", "r")).isNotNull();

        owner.setAccessPolicies(List.of());

        assertForbidden(() -> reader.getEntity("p", "r"), "AuthenticationFailed");
    }

    @Test
    void anExpiredPolicyRefusesItsSas(TableServiceClient service, RunningServer server) {
        String name = uniqueName("SasExpired");
        TableClient owner = service.createTable(name);
        owner.setAccessPolicies(List.of(policy("old", OffsetDateTime.now(ZoneOffset.UTC).minusMinutes(5), "r")));

        TableClient reader = withSas(server, name, owner.generateSas(new TableSasSignatureValues("old")));

        assertForbidden(() -> reader.listEntities().stream().count(), "AuthenticationFailed");
    }

    @Test
    void aSasNamingAPolicyOfAnotherTableIsRefused(TableServiceClient service, RunningServer server) {
        String first = uniqueName("SasFirst");
        String second = uniqueName("SasSecond");
        service.createTable(first).setAccessPolicies(List.of(policy("readers", inAnHour(), "r")));
        TableClient other = service.createTable(second);

        TableClient reader = withSas(server, second, other.generateSas(new TableSasSignatureValues("readers")));

        assertForbidden(() -> reader.listEntities().stream().count(), "AuthenticationFailed");
    }
}
