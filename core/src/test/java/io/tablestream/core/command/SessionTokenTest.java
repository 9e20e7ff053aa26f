package io.tablestream.core.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SessionTokenTest {

    @Test
    void roundTripsOneAndSeveralPositions() {
        SessionToken one = SessionToken.of(3, 42L);
        SessionToken two = new SessionToken(List.of(new SessionToken.Position(0, 0L),
                new SessionToken.Position(7, Long.MAX_VALUE)));

        assertThat(one.toString()).isEqualTo("3:42");
        assertThat(SessionToken.parse(one.toString())).isEqualTo(one);
        assertThat(SessionToken.parse(two.toString())).isEqualTo(two);
        assertThat(SessionToken.parse(" 1:2 , 3:4 ").positions()).hasSize(2);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "3", ":4", "3:", "a:1", "1:b", "-1:5", "1:-5", "1:2,", "1:2:3", "99999999999:1",
            "1:99999999999999999999"})
    void rejectsMalformedTokensAsAnInvalidHeader(String header) {
        assertThatThrownBy(() -> SessionToken.parse(header)).isInstanceOfSatisfying(TableServiceException.class,
                e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_HEADER_VALUE));
    }

    @Test
    void rejectsTooManyPositions() {
        String many = String.join(",", java.util.Collections.nCopies(SessionToken.MAX_POSITIONS + 1, "1:1"));

        assertThatThrownBy(() -> SessionToken.parse(many)).isInstanceOf(TableServiceException.class);
    }
}
