package io.tablestream.server.acl;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.models.TableAccessPolicies;
import com.azure.data.tables.models.TableAccessPolicy;
import com.azure.data.tables.models.TableSignedIdentifier;
import io.tablestream.server.ServiceErrors;
import io.tablestream.server.TablestreamServerExtension;
import io.tablestream.testsupport.KafkaExtension;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Set and Get Table ACL through the official SDK, end to end through the log. */
@ExtendWith({KafkaExtension.class, TablestreamServerExtension.class})
class TableAclIT {
    private static final OffsetDateTime START = OffsetDateTime.of(2024, 1, 2, 3, 4, 5, 0, ZoneOffset.UTC);
    private static final OffsetDateTime EXPIRY = OffsetDateTime.of(2031, 6, 7, 8, 9, 10, 0, ZoneOffset.UTC);

    private static String uniqueName(String prefix) {
        return prefix + System.nanoTime() % 1_000_000_000L;
    }

    private static TableSignedIdentifier policy(String id, OffsetDateTime start, OffsetDateTime expiry, String permissions) {
        return new TableSignedIdentifier(id).setAccessPolicy(new TableAccessPolicy()
                .setStartsOn(start).setExpiresOn(expiry).setPermissions(permissions));
    }

    @Test
    void readsBackThePoliciesItSetInTheirOrder(TableServiceClient service) {
        TableClient table = service.createTable(uniqueName("Acl"));

        table.setAccessPolicies(List.of(
                policy("full", START, EXPIRY, "raud"),
                policy("expiry-only", null, EXPIRY, null),
                policy("readers", null, null, "r")));
        TableAccessPolicies read = table.getAccessPolicies();

        assertThat(read.getIdentifiers()).extracting(TableSignedIdentifier::getId)
                .containsExactly("full", "expiry-only", "readers");
        TableAccessPolicy full = read.getIdentifiers().get(0).getAccessPolicy();
        assertThat(full.getStartsOn()).isEqualTo(START);
        assertThat(full.getExpiresOn()).isEqualTo(EXPIRY);
        assertThat(full.getPermissions()).isEqualTo("raud");
        TableAccessPolicy expiryOnly = read.getIdentifiers().get(1).getAccessPolicy();
        assertThat(expiryOnly.getStartsOn()).isNull();
        assertThat(expiryOnly.getExpiresOn()).isEqualTo(EXPIRY);
        assertThat(expiryOnly.getPermissions()).isNull();
        assertThat(read.getIdentifiers().get(2).getAccessPolicy().getPermissions()).isEqualTo("r");
    }

    @Test
    void aNewTableHasNoPoliciesAndSettingNoneRemovesThem(TableServiceClient service) {
        TableClient table = service.createTable(uniqueName("AclClear"));
        List<TableSignedIdentifier> before = table.getAccessPolicies().getIdentifiers();

        table.setAccessPolicies(List.of(policy("p", null, EXPIRY, "r")));
        table.setAccessPolicies(List.of());

        assertThat(before).isNullOrEmpty();
        assertThat(table.getAccessPolicies().getIdentifiers()).isNullOrEmpty();
    }

    @Test
    void settingPoliciesReplacesTheCurrentOnes(TableServiceClient service) {
        TableClient table = service.createTable(uniqueName("AclReplace"));
        table.setAccessPolicies(List.of(policy("a", null, EXPIRY, "r"), policy("b", null, EXPIRY, "a")));

        table.setAccessPolicies(List.of(policy("c", START, null, "ud")));

        List<TableSignedIdentifier> ids = table.getAccessPolicies().getIdentifiers();
        assertThat(ids).extracting(TableSignedIdentifier::getId).containsExactly("c");
        assertThat(ids.get(0).getAccessPolicy().getPermissions()).isEqualTo("ud");
    }

    @Test
    void theTableNameIsCaseInsensitiveForTheAcl(TableServiceClient service) {
        String name = uniqueName("AclCase");
        service.createTable(name);

        service.getTableClient(name.toUpperCase()).setAccessPolicies(List.of(policy("p", null, EXPIRY, "r")));

        assertThat(service.getTableClient(name.toLowerCase()).getAccessPolicies().getIdentifiers())
                .extracting(TableSignedIdentifier::getId).containsExactly("p");
    }

    @Test
    void aMissingTableHasNoAcl(TableServiceClient service) {
        TableClient missing = service.getTableClient(uniqueName("AclMissing"));

        ServiceErrors.assertHttpError(404, "TableNotFound", () -> missing.setAccessPolicies(List.of(policy("p", null, EXPIRY, "r"))));
        ServiceErrors.assertHttpError(404, "TableNotFound", missing::getAccessPolicies);
    }

    @Test
    void refusesMoreThanFivePolicies(TableServiceClient service) {
        TableClient table = service.createTable(uniqueName("AclSix"));
        List<TableSignedIdentifier> six = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            six.add(policy("p" + i, null, EXPIRY, "r"));
        }

        ServiceErrors.assertHttpError(400, "InvalidXmlDocument", () -> table.setAccessPolicies(six));
        assertThat(table.getAccessPolicies().getIdentifiers()).isNullOrEmpty();
    }

    @Test
    void aRecreatedTableStartsWithoutTheOldTablesPolicies(TableServiceClient service) {
        String name = uniqueName("AclRecreate");
        TableClient table = service.createTable(name);
        table.setAccessPolicies(List.of(policy("p", null, EXPIRY, "r")));

        table.deleteTable();
        TableClient again = service.createTable(name);

        assertThat(again.getAccessPolicies().getIdentifiers()).isNullOrEmpty();
    }
}
