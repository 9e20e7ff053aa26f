package io.tablestream.processor;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablestream.core.command.EntityChange;
import io.tablestream.core.model.EdmInt32;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The tasks' background work runs as often and as much per round as {@link Housekeeping} says. */
class HousekeepingTopologyTest {

    @Test
    void expiryRunsAtItsIntervalAndDeletesAtMostItsBatchPerRound() {
        Housekeeping slowAndSmall = Housekeeping.DEFAULTS.withExpiry(Duration.ofSeconds(10), 2);
        try (ProcessorHarness h = new ProcessorHarness(1, slowAndSmall)) {
            long t = h.givenTable("Sensors");
            for (int i = 0; i < 5; i++) {
                h.insert(t, "Sensors", "dev", "r" + i, Map.of("TTLInSeconds", EdmInt32.of(1)));
            }
            h.clock.advance(Duration.ofSeconds(2)); // every entity has expired

            h.driver.advanceWallClockTime(Duration.ofSeconds(5)); // the default interval (1 s) would have run
            assertThat(expired(h)).isZero();
            h.driver.advanceWallClockTime(Duration.ofSeconds(5));
            assertThat(expired(h)).isEqualTo(2);
            h.driver.advanceWallClockTime(Duration.ofSeconds(10));
            assertThat(expired(h)).isEqualTo(4);
            h.driver.advanceWallClockTime(Duration.ofSeconds(10));
            assertThat(expired(h)).isEqualTo(5);
        }
    }

    private static long expired(ProcessorHarness h) {
        return h.changes().stream().filter(c -> c.change().type() == EntityChange.Type.EXPIRED).count();
    }
}
