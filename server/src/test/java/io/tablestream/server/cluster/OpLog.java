package io.tablestream.server.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Operations as the clients of a load saw them — kind, when each started and ended, how it went —
 * and what fail-over figures are computed from them: how long a kind of operation stayed disrupted
 * after an event, the failures, the slowest.
 */
final class OpLog {
    /** One operation as the client saw it: {@code error} is null when it succeeded. */
    record Op(String kind, long startNanos, long endNanos, String error) {
        boolean ok() {
            return error == null;
        }

        long millis() {
            return (endNanos - startNanos) / 1_000_000;
        }
    }

    private final ConcurrentLinkedQueue<Op> ops = new ConcurrentLinkedQueue<>();

    /** Runs {@code op}, recording it as {@code kind}; returns whether it succeeded (a failure is recorded, not thrown). */
    boolean record(String kind, Runnable op) {
        return call(kind, () -> {
            op.run();
            return Boolean.TRUE;
        }) != null;
    }

    /** Runs {@code op}, recording it as {@code kind}; returns its result (not null), or null when it failed. */
    <T> T call(String kind, Supplier<T> op) {
        long begin = System.nanoTime();
        try {
            T result = op.get();
            ops.add(new Op(kind, begin, System.nanoTime(), null));
            return result;
        } catch (RuntimeException e) {
            String message = String.valueOf(e.getMessage());
            ops.add(new Op(kind, begin, System.nanoTime(),
                    e.getClass().getSimpleName() + ": " + message.substring(0, Math.min(160, message.length()))));
            return null;
        }
    }

    /** Records an operation of {@code kind} that started at {@code startNanos} and ends now; {@code error} null if it succeeded. */
    void done(String kind, long startNanos, String error) {
        ops.add(new Op(kind, startNanos, System.nanoTime(), error));
    }

    /** Everything recorded so far. */
    List<Op> ops() {
        return List.copyOf(ops);
    }

    /**
     * How long after {@code sinceNanos} operations of {@code kind} still failed or took longer than
     * {@code slow}: the end of the last such operation that started after it, 0 when none did.
     */
    Duration disruptedFor(String kind, long sinceNanos, Duration slow) {
        long last = sinceNanos;
        for (Op op : ops) {
            if (op.kind().equals(kind) && op.startNanos() >= sinceNanos
                    && (!op.ok() || op.endNanos() - op.startNanos() > slow.toNanos())) {
                last = Math.max(last, op.endNanos());
            }
        }
        return Duration.ofNanos(last - sinceNanos);
    }

    /**
     * As {@link #disruptedFor}, counting also the operations already in flight at {@code sinceNanos}
     * (a write sent just before a broker died, answered seconds later): the end of the last operation
     * of {@code kind} that ended after it and failed or took longer than {@code slow}.
     */
    Duration disruptedAcross(String kind, long sinceNanos, Duration slow) {
        return disruptedAcross(kind, sinceNanos, Long.MAX_VALUE, slow);
    }

    /** As {@link #disruptedAcross(String, long, Duration)}, among the operations that started before {@code untilNanos}. */
    Duration disruptedAcross(String kind, long sinceNanos, long untilNanos, Duration slow) {
        long last = sinceNanos;
        for (Op op : ops) {
            if (op.kind().equals(kind) && op.endNanos() > sinceNanos && op.startNanos() < untilNanos
                    && (!op.ok() || op.endNanos() - op.startNanos() > slow.toNanos())) {
                last = Math.max(last, op.endNanos());
            }
        }
        return Duration.ofNanos(last - sinceNanos);
    }

    /** Operations that ended after {@code sinceNanos} and failed. */
    List<Op> failures(long sinceNanos) {
        List<Op> failed = new ArrayList<>();
        for (Op op : ops) {
            if (op.endNanos() >= sinceNanos && !op.ok()) {
                failed.add(op);
            }
        }
        return failed;
    }

    /** The longest operation of {@code kind} that started after {@code sinceNanos}. */
    Duration longest(String kind, long sinceNanos) {
        long longest = 0;
        for (Op op : ops) {
            if (op.kind().equals(kind) && op.startNanos() >= sinceNanos) {
                longest = Math.max(longest, op.endNanos() - op.startNanos());
            }
        }
        return Duration.ofNanos(longest);
    }

    /** The {@code n} slowest operations that started after {@code sinceNanos}: kind, start (ms after it), duration. */
    String slowest(long sinceNanos, int n) {
        return slowest(sinceNanos, n, op -> true);
    }

    /** As {@link #slowest(long, int)}, among the operations {@code which} accepts. */
    String slowest(long sinceNanos, int n, java.util.function.Predicate<Op> which) {
        return ops.stream().filter(op -> op.startNanos() >= sinceNanos && which.test(op))
                .sorted(Comparator.comparingLong((Op op) -> op.startNanos() - op.endNanos()))
                .limit(n).map(op -> op.kind() + "@+" + (op.startNanos() - sinceNanos) / 1_000_000 + "ms:" + op.millis() + "ms"
                        + (op.ok() ? "" : "(failed)"))
                .collect(Collectors.joining(", "));
    }

    /** The median duration of successful operations of {@code kind}. */
    Duration median(String kind) {
        List<Long> durations = new ArrayList<>();
        for (Op op : ops) {
            if (op.kind().equals(kind) && op.ok()) {
                durations.add(op.endNanos() - op.startNanos());
            }
        }
        if (durations.isEmpty()) {
            return Duration.ZERO;
        }
        Collections.sort(durations);
        return Duration.ofNanos(durations.get(durations.size() / 2));
    }

    long count(String kind) {
        return ops.stream().filter(op -> op.kind().equals(kind)).count();
    }

    /** The failures since {@code sinceNanos}, counted by kind and error (request ids left out). */
    static String summary(List<Op> failures) {
        return failures.isEmpty() ? "none" : failures.size() + " " + failures.stream().collect(Collectors.groupingBy(
                op -> op.kind() + " " + op.error().replaceAll("RequestId:[^\"\\\\]*", ""), Collectors.counting()));
    }
}
