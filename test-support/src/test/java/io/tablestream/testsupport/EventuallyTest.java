package io.tablestream.testsupport;

import static io.tablestream.testsupport.Eventually.eventually;
import static io.tablestream.testsupport.Eventually.eventuallyPasses;
import static io.tablestream.testsupport.Eventually.holdsThroughout;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class EventuallyTest {

    @Test
    void returnsAsSoonAsTheConditionHolds() {
        AtomicInteger calls = new AtomicInteger();
        long start = System.nanoTime();
        eventually(() -> calls.incrementAndGet() >= 3, Duration.ofSeconds(10));
        assertThat(calls).hasValue(3);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
    }

    @Test
    void countsAnExceptionAsNotYet() {
        AtomicInteger calls = new AtomicInteger();
        String value = eventually(() -> {
            if (calls.incrementAndGet() < 3) {
                throw new IllegalStateException("503");
            }
            return "ready";
        }, "ready"::equals, Duration.ofSeconds(10));
        assertThat(value).isEqualTo("ready");
    }

    @Test
    void failsAfterTheTimeoutNamingWhatItWaitedFor() {
        long start = System.nanoTime();
        assertThatThrownBy(() -> eventually("the sweep", () -> false, Duration.ofMillis(100)))
                .isInstanceOf(AssertionError.class).hasMessageContaining("the sweep did not hold within");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(100));
        assertThatThrownBy(() -> eventually(() -> 41, v -> v == 42, Duration.ofMillis(50)))
                .hasMessageContaining("last seen: 41");
        assertThatThrownBy(() -> eventually(() -> {
            throw new IllegalStateException("503");
        }, Duration.ofMillis(50))).hasRootCauseMessage("503");
    }

    @Test
    void aSlowSuccessSaysSoOnStandardError() {
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            long readyAt = System.nanoTime() + Eventually.SLOW_WAIT_MILLIS * 1_000_000 + 50_000_000;
            eventually("the restart", () -> {
                if (System.nanoTime() < readyAt) {
                    throw new IllegalStateException("503 Server Busy");
                }
                return true;
            }, Duration.ofSeconds(10));
            eventually("at once", () -> true, Duration.ofSeconds(10));
        } finally {
            System.setErr(err);
        }
        String said = captured.toString(StandardCharsets.UTF_8);
        assertThat(said).contains("Eventually: the restart held after").contains("503 Server Busy")
                .contains("EventuallyTest").doesNotContain("at once");
    }

    @Test
    void rethrowsTheLastAssertionWhenAssertionsNeverPass() {
        AtomicInteger calls = new AtomicInteger();
        eventuallyPasses(() -> assertThat(calls.incrementAndGet()).isGreaterThan(2), Duration.ofSeconds(10));
        assertThatThrownBy(() -> eventuallyPasses(() -> assertThat(1).as("one").isEqualTo(2), Duration.ofMillis(50)))
                .isInstanceOf(AssertionError.class).hasMessageContaining("[one]");
    }

    @Test
    void holdsThroughoutFailsAtOnceWhenTheConditionStopsHolding() {
        holdsThroughout(() -> true, Duration.ofMillis(50));
        AtomicInteger calls = new AtomicInteger();
        long start = System.nanoTime();
        assertThatThrownBy(() -> holdsThroughout(() -> calls.incrementAndGet() < 2, Duration.ofSeconds(10)))
                .isInstanceOf(AssertionError.class);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
    }
}
