package io.tablestream.core.model;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * How long Storage Analytics keeps logs or metrics: disabled (kept until deleted), or a number of
 * days from {@value #MIN_DAYS} to {@value #MAX_DAYS}.
 */
public record RetentionPolicy(OptionalInt days) {
    public static final int MIN_DAYS = 1;
    public static final int MAX_DAYS = 365;
    /** No retention limit. */
    public static final RetentionPolicy DISABLED = new RetentionPolicy(OptionalInt.empty());

    /** @throws IllegalArgumentException for a number of days outside 1..365 */
    public RetentionPolicy {
        Objects.requireNonNull(days, "days");
        if (days.isPresent() && (days.getAsInt() < MIN_DAYS || days.getAsInt() > MAX_DAYS)) {
            throw new IllegalArgumentException(
                    "Retention days must be " + MIN_DAYS + " to " + MAX_DAYS + ", not " + days.getAsInt());
        }
    }

    public static RetentionPolicy disabled() {
        return DISABLED;
    }

    public static RetentionPolicy ofDays(int days) {
        return new RetentionPolicy(OptionalInt.of(days));
    }

    public boolean enabled() {
        return days.isPresent();
    }
}
