package io.tablestream.ingest.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablestream.core.command.EntityOperation;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class EntityRequestsTest {

    @Test
    void takesOneWellFormedIfMatch() {
        assertThat(EntityRequests.condition(EntityOperation.Type.REPLACE, List.of(" W/\"x\" "), false)).isEqualTo("W/\"x\"");
        assertThat(EntityRequests.condition(EntityOperation.Type.DELETE, List.of("*"), false)).isEqualTo("*");
        assertThat(EntityRequests.condition(EntityOperation.Type.INSERT_OR_MERGE, List.of(), false)).isNull();
    }

    @Test
    void rejectsTwoIfMatchHeadersEvenWhenBothAreValid() {
        assertFails(() -> EntityRequests.condition(EntityOperation.Type.REPLACE, List.of("*", "*"), false),
                ErrorCode.INVALID_INPUT);
    }

    @Test
    void rejectsAMalformedIfMatch() {
        assertFails(() -> EntityRequests.condition(EntityOperation.Type.MERGE, List.of("\"a\", \"b\""), false),
                ErrorCode.INVALID_INPUT);
    }

    @Test
    void requiresIfMatchOnDelete() {
        assertFails(() -> EntityRequests.condition(EntityOperation.Type.DELETE, List.of(), false),
                ErrorCode.MISSING_REQUIRED_HEADER);
    }

    @ParameterizedTest
    @EnumSource(value = EntityOperation.Type.class, names = "INSERT", mode = EnumSource.Mode.EXCLUDE)
    void rejectsIfNoneMatchOnWritesToAnEntity(EntityOperation.Type type) {
        assertFails(() -> EntityRequests.condition(type, List.of("*"), true), ErrorCode.INVALID_INPUT);
    }

    private static void assertFails(Runnable r, ErrorCode code) {
        assertThatThrownBy(r::run).isInstanceOfSatisfying(TableServiceException.class,
                e -> assertThat(e.errorCode()).isEqualTo(code));
    }
}
