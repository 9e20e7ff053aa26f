package io.tablestream.server.warmup;

import java.time.Duration;

/**
 * How long an instance warms itself up ({@link StartupWarmUp}): {@code beforeReady}, holding readiness
 * back, or else {@code afterReady}, in the background until a client's first request
 * ({@link AfterReadyWarmUp}); zero: not then.
 */
public record WarmUpTimes(Duration beforeReady, Duration afterReady) {
    /** No warm-up at all: an embedded instance's and a test's. */
    public static final WarmUpTimes NONE = new WarmUpTimes(Duration.ZERO, Duration.ZERO);

    public WarmUpTimes {
        if (beforeReady.isNegative() || afterReady.isNegative()) {
            throw new IllegalArgumentException("a warm-up's time is zero or more: " + beforeReady + ", " + afterReady);
        }
    }

    /** Only {@code beforeReady}, as {@code TablestreamServer.start} took it before there was an after-ready one. */
    public static WarmUpTimes beforeReady(Duration time) {
        return new WarmUpTimes(time, Duration.ZERO);
    }

    /** Whether there is no warm-up at all. */
    public boolean none() {
        return beforeReady.isZero() && afterReady.isZero();
    }

    /** Whether the warm-up runs after ready: only when none runs before. */
    public boolean afterReadyOnly() {
        return beforeReady.isZero() && !afterReady.isZero();
    }
}
