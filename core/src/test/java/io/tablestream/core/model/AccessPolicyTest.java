package io.tablestream.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AccessPolicyTest {
    private static final EdmDateTime START = EdmDateTime.of(Instant.parse("2024-01-01T00:00:00Z"));

    @Test
    void keepsItsPartsWithPermissionsInCanonicalOrder() {
        AccessPolicy p = AccessPolicy.of("policy1", START, null, TablePermission.parse("dr"));
        assertThat(p.id()).isEqualTo("policy1");
        assertThat(p.start()).isEqualTo(START);
        assertThat(p.expiry()).isNull();
        assertThat(p.permissionSymbols()).isEqualTo("rd");
    }

    @Test
    void acceptsAnIdOfSixtyFourCharacters() {
        assertThat(AccessPolicy.of("x".repeat(64), null, null, Set.of()).id()).hasSize(64);
    }

    @Test
    void rejectsAnIdOfSixtyFiveCharacters() {
        assertThatThrownBy(() -> AccessPolicy.of("x".repeat(65), null, null, Set.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("64");
    }

    @Test
    void rejectsAnEmptyId() {
        assertThatThrownBy(() -> AccessPolicy.of("", null, null, Set.of()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void copiesThePermissionsItIsGiven() {
        Set<TablePermission> given = new HashSet<>(EnumSet.of(TablePermission.READ));
        AccessPolicy p = AccessPolicy.of("id", null, null, given);
        given.add(TablePermission.DELETE);
        assertThat(p.permissions()).containsExactly(TablePermission.READ);
        assertThatThrownBy(() -> p.permissions().add(TablePermission.ADD))
                .isInstanceOf(UnsupportedOperationException.class);
    }
}
