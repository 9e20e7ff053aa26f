package io.tablestream.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AccessPolicyTest {

    @ParameterizedTest
    @ValueSource(strings = {"", "r", "raud", "dura", "ad"})
    void acceptsTablePermissionLettersInAnyOrder(String letters) {
        assertThat(AccessPolicy.isValidPermissions(letters)).isTrue();
        assertThat(AccessPolicy.of("p1", null, null, letters).permissions()).isEqualTo(letters);
    }

    @ParameterizedTest
    @ValueSource(strings = {"rr", "w", "rl", "R", "r a"})
    void rejectsUnknownOrRepeatedPermissionLetters(String letters) {
        assertThat(AccessPolicy.isValidPermissions(letters)).isFalse();
        assertThatThrownBy(() -> AccessPolicy.of("p1", null, null, letters))
                .isInstanceOf(TableServiceException.class)
                .extracting(e -> ((TableServiceException) e).errorCode())
                .isEqualTo(ErrorCode.INVALID_XML_NODE_VALUE);
    }

    @Test
    void rejectsEmptyAndOverlongIdentifiers() {
        assertThatThrownBy(() -> AccessPolicy.of("", null, null, null)).isInstanceOf(TableServiceException.class);
        assertThatThrownBy(() -> AccessPolicy.of("x".repeat(65), null, null, null))
                .isInstanceOf(TableServiceException.class);
        assertThat(AccessPolicy.of("x".repeat(64), null, null, null).id()).hasSize(64);
    }

    @Test
    void keepsUnspecifiedFieldsAsNull() {
        AccessPolicy p = AccessPolicy.of("p1", null, Instant.parse("2030-01-01T00:00:00Z"), null);
        assertThat(p.start()).isNull();
        assertThat(p.permissions()).isNull();
        assertThat(p.expiry()).isEqualTo(Instant.parse("2030-01-01T00:00:00Z"));
    }
}
