package io.tablestream.query.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.filter.KeyRange;
import io.tablestream.core.filter.StringRange;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class EntityQueryTest {

    @Test
    void topDefaultsToAFullPage() {
        assertThat(EntityQuery.top(null)).isEqualTo(1000);
        assertThat(EntityQuery.top("1")).isEqualTo(1);
        assertThat(EntityQuery.top("1000")).isEqualTo(1000);
    }

    @Test
    void topMayBeZero() {
        assertThat(EntityQuery.top("0")).isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {"-1", "1001", "abc", "", "1.5", "99999999999"})
    void rejectsATopOutsideZeroToAThousand(String top) {
        assertThatThrownBy(() -> EntityQuery.top(top)).isInstanceOfSatisfying(TableServiceException.class,
                e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_INPUT));
    }

    @Test
    void narrowsTheFiltersKeysToWhatTheCallerMayRead() {
        KeyRange sas = new KeyRange(new StringRange("m", true, "n", false), StringRange.ALL);

        EntityQuery q = EntityQuery.of("PartitionKey ge 'a'", null, null, null, null, sas);

        assertThat(q.keys().partitionKeys()).isEqualTo(new StringRange("m", true, "n", false));
    }
}
