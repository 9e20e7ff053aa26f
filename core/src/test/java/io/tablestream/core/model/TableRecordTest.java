package io.tablestream.core.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TableRecordTest {
    private static final TableRecord ORDERS =
            TableRecord.active("acct", TableName.of("Orders"), 7L, EdmDateTime.ofEpochTicks(1L), null);
    private static final AccessPolicy READ = AccessPolicy.of("Read", null, null, TablePermission.parse("r"));

    @Test
    void aNewTableHasNoStoredAccessPolicies() {
        assertThat(ORDERS.accessPolicies()).isEmpty();
        assertThat(ORDERS.accessPolicy("Read")).isEmpty();
    }

    @Test
    void findsAPolicyByItsExactId() {
        TableRecord withPolicy = ORDERS.withAccessPolicies(List.of(READ));

        assertThat(withPolicy.accessPolicy("Read")).contains(READ);
        assertThat(withPolicy.accessPolicy("read")).isEmpty();
    }

    @Test
    void settingPoliciesReplacesThemAndKeepsEverythingElse() {
        TableRecord replaced = ORDERS.withAccessPolicies(List.of(READ))
                .withAccessPolicies(List.of(AccessPolicy.of("other", null, null, Set.of())));

        assertThat(replaced.accessPolicies()).extracting(AccessPolicy::id).containsExactly("other");
        assertThat(replaced.withAccessPolicies(List.of())).isEqualTo(ORDERS);
    }

    @Test
    void aDeletedTableKeepsItsPoliciesForTheRecord() {
        TableRecord deleted = ORDERS.withAccessPolicies(List.of(READ)).deleted(EdmDateTime.ofEpochTicks(2L));

        assertThat(deleted.isActive()).isFalse();
        assertThat(deleted.accessPolicies()).containsExactly(READ);
    }
}
