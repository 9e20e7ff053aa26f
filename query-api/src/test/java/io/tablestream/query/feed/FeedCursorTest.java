package io.tablestream.query.feed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FeedCursorTest {

    @Test
    void aTokenNamesTheSameTableAndOffsets() {
        FeedCursor cursor = FeedCursor.of(42L << 47 | 7, Map.of(3, 100L, 0, 0L, 7, Long.MAX_VALUE));
        FeedCursor back = FeedCursor.parse(cursor.token());
        assertThat(back).isEqualTo(cursor);
        assertThat(back.offsets()).containsExactly(Map.entry(0, 0L), Map.entry(3, 100L), Map.entry(7, Long.MAX_VALUE));
        assertThat(cursor.token()).matches("[A-Za-z0-9_-]+"); // safe in a URL as it is
    }

    @Test
    void movingPartitionsKeepsTheOthers() {
        FeedCursor cursor = FeedCursor.of(1, Map.of(0, 5L, 1, 9L));
        assertThat(cursor.with(Map.of(1, 12L), java.util.Set.of()).offsets())
                .containsExactly(Map.entry(0, 5L), Map.entry(1, 12L));
    }

    @Test
    void partitionsReadPastTheTablesDeletionStayEndedInTheToken() {
        FeedCursor cursor = FeedCursor.of(9, Map.of(0, 5L, 1, 9L, 2, 3L)).with(Map.of(1, 10L), java.util.Set.of(1));
        FeedCursor back = FeedCursor.parse(cursor.token());

        assertThat(back).isEqualTo(cursor);
        assertThat(back.ended()).containsExactly(1);
        assertThat(back.isOver()).isFalse();
        assertThat(back.with(Map.of(), java.util.Set.of(0, 2)).isOver()).isTrue();
        assertThat(FeedCursor.of(9, Map.of(0, 5L)).isOver()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "not-a-cursor", "%%%", "2;1;0:0", "1;1;", "1;x;0:0", "1;1;0:-1", "1;1;0:0,0:1",
            "1;1;0", "1;1;0:0;", "1;1;-1:0", "1;1;0:e", "1;1;0:1:x", "1;1;0:1:e:e"})
    void refusesTokensItDidNotMake(String text) {
        String token = text.startsWith("1;") || text.startsWith("2;")
                ? Base64.getUrlEncoder().withoutPadding().encodeToString(text.getBytes(StandardCharsets.US_ASCII))
                : text;
        assertThatThrownBy(() -> FeedCursor.parse(token)).isInstanceOfSatisfying(TableServiceException.class,
                e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_QUERY_PARAMETER_VALUE));
    }
}
