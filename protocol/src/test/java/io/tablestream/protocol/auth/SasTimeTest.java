package io.tablestream.protocol.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class SasTimeTest {
    @Test
    void eachFormParsesTheSameWhenSeenAgainAndOthersAreRefused() {
        for (int i = 0; i < 2; i++) {
            assertThat(SasTime.parse("2026-11-28")).isEqualTo(Instant.parse("2026-11-28T00:00:00Z"));
            assertThat(SasTime.parse("2026-11-28")).isEqualTo(Instant.parse("2026-11-28T00:00:00Z"));
            assertThat(SasTime.parse("2026-11-28T10:20Z")).isEqualTo(Instant.parse("2026-11-28T10:20:00Z"));
            assertThat(SasTime.parse("2026-11-28T10:20:30.1234567Z")).isEqualTo(Instant.parse("2026-11-28T10:20:30.1234567Z"));
            assertThat(SasTime.parse("2026-02-30")).isNull();
            assertThat(SasTime.parse("2026-02-30")).isNull();
            assertThat(SasTime.parse("")).isNull();
        }
    }
}
