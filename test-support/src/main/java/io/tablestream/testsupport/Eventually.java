package io.tablestream.testsupport;

import java.time.Duration;
import java.util.function.Predicate;

/**
 * Waiting in tests on a condition with a deadline, never a bare sleep: the condition is checked at
 * once and then after short pauses (10 ms, doubling up to 200 ms), so a test goes on the moment the
 * condition holds and fails with what was last seen when it never does.
 *
 * <pre>{@code
 * eventually(() -> count(table) == 0, Duration.ofSeconds(10));
 * Response done = eventually(() -> status(id), r -> r.status() == 200, Duration.ofSeconds(30));
 * eventuallyPasses(() -> assertThat(scan()).containsExactly("p/r1"), Duration.ofSeconds(10));
 * holdsThroughout(() -> !future.isDone(), Duration.ofMillis(500));
 * }</pre>
 *
 * <p>A wait that succeeds only after {@value #SLOW_WAIT_MILLIS} ms or more says so on standard error,
 * with its attempts and the last failure seen: a recovery that passes slowly is visible in a test's
 * output, not only one that fails.
 */
public final class Eventually {
    private static final long FIRST_PAUSE_MILLIS = 10;
    private static final long LONGEST_PAUSE_MILLIS = 200;
    static final long SLOW_WAIT_MILLIS = 2_000;

    /** A condition that may throw while it does not hold yet (a 503, a missing row). */
    @FunctionalInterface
    public interface Condition {
        boolean holds() throws Exception;
    }

    /** Something looked at until it is as wanted. */
    @FunctionalInterface
    public interface Probe<T> {
        T get() throws Exception;
    }

    /** Assertions repeated until they pass. */
    @FunctionalInterface
    public interface Check {
        void run() throws Exception;
    }

    private Eventually() {
    }

    /**
     * Returns once {@code condition} holds; an exception it throws counts as "not yet".
     *
     * @throws AssertionError when it did not hold within {@code timeout} (with the last exception as cause)
     */
    public static void eventually(Condition condition, Duration timeout) {
        eventually("condition", condition, timeout);
    }

    /** As {@link #eventually(Condition, Duration)}, naming what was waited for in the failure. */
    public static void eventually(String what, Condition condition, Duration timeout) {
        eventually(condition::holds, Boolean::booleanValue, timeout, what);
    }

    /**
     * Polls {@code probe} until its value satisfies {@code wanted}, and returns that value; an exception
     * the probe throws counts as "not yet".
     *
     * @throws AssertionError when no value did within {@code timeout}, naming the last one seen
     */
    public static <T> T eventually(Probe<T> probe, Predicate<? super T> wanted, Duration timeout) {
        return eventually(probe, wanted, timeout, "value");
    }

    /**
     * Runs {@code assertions} until they pass (an {@link AssertionError} or exception counts as "not
     * yet"); after {@code timeout}, rethrows the last failure.
     */
    public static void eventuallyPasses(Check assertions, Duration timeout) {
        long start = System.nanoTime();
        long deadline = start + timeout.toNanos();
        long pause = FIRST_PAUSE_MILLIS;
        int failed = 0;
        Throwable lastFailure = null;
        while (true) {
            try {
                assertions.run();
                reportIfSlow("assertions", start, failed, lastFailure);
                return;
            } catch (AssertionError | Exception e) {
                failed++;
                lastFailure = e;
                if (System.nanoTime() - deadline >= 0) {
                    if (e instanceof AssertionError a) {
                        throw a;
                    }
                    throw new AssertionError("did not pass within " + timeout, e);
                }
            }
            pause = pause(pause);
        }
    }

    /**
     * Checks that {@code condition} holds all through {@code window} (at once and after each short
     * pause), failing as soon as it does not: for what must not happen, such as a wait answered early.
     */
    public static void holdsThroughout(Condition condition, Duration window) {
        long end = System.nanoTime() + window.toNanos();
        long pause = FIRST_PAUSE_MILLIS;
        while (true) {
            try {
                if (!condition.holds()) {
                    throw new AssertionError("stopped holding before " + window + " had passed");
                }
            } catch (AssertionError e) {
                throw e;
            } catch (Exception e) {
                throw new AssertionError("stopped holding before " + window + " had passed", e);
            }
            long left = end - System.nanoTime();
            if (left <= 0) {
                return;
            }
            pause = pause(Math.min(pause, Math.max(1, left / 1_000_000)));
        }
    }

    private static <T> T eventually(Probe<T> probe, Predicate<? super T> wanted, Duration timeout, String what) {
        long start = System.nanoTime();
        long deadline = start + timeout.toNanos();
        long pause = FIRST_PAUSE_MILLIS;
        T last = null;
        Exception lastError = null;
        int failed = 0;
        Throwable lastFailure = null;
        while (true) {
            try {
                last = probe.get();
                lastError = null;
                if (wanted.test(last)) {
                    reportIfSlow(what, start, failed, lastFailure);
                    return last;
                }
            } catch (Exception e) {
                lastError = e;
                lastFailure = e;
            }
            failed++;
            if (System.nanoTime() - deadline >= 0) {
                String outcome = lastError != null ? " not reached (the last attempt failed)"
                        : last instanceof Boolean ? " did not hold" : " not as wanted (last seen: " + last + ")";
                throw new AssertionError(what + outcome + " within " + timeout, lastError);
            }
            pause = pause(pause);
        }
    }

    /** Says on standard error that a wait succeeded only after a while, and what it met meanwhile. */
    private static void reportIfSlow(String what, long startNanos, int failedAttempts, Throwable lastFailure) {
        long millis = (System.nanoTime() - startNanos) / 1_000_000;
        if (millis < SLOW_WAIT_MILLIS) {
            return;
        }
        StackTraceElement caller = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE)
                .walk(frames -> frames.filter(f -> f.getDeclaringClass() != Eventually.class).findFirst())
                .map(StackWalker.StackFrame::toStackTraceElement).orElse(null);
        System.err.printf("Eventually: %s held after %d ms and %d attempts that did not (at %s)%s%n", what, millis,
                failedAttempts, caller, lastFailure == null ? "" : "; the last exception: " + lastFailure);
    }

    /** Sleeps {@code millis} and returns the next pause. */
    private static long pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting", e);
        }
        return Math.min(millis * 2, LONGEST_PAUSE_MILLIS);
    }
}
