package io.tablestream.core.model;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Optional;

/**
 * {@code Edm.DateTime}: a UTC instant with the service's precision of 100 ns ("ticks"), from
 * 1601-01-01T00:00:00Z to 9999-12-31T23:59:59.9999999Z.
 *
 * <p>Held as ticks since the Unix epoch, so comparison is a long comparison. Written with seven
 * fractional digits and a {@code Z}, as the service writes it.
 */
public record EdmDateTime(long epochTicks) implements EdmValue, Comparable<EdmDateTime> {
    public static final long TICKS_PER_SECOND = 10_000_000L;
    /** 1601-01-01T00:00:00Z. */
    public static final long MIN_EPOCH_TICKS = -11_644_473_600L * TICKS_PER_SECOND;
    /** 9999-12-31T23:59:59.9999999Z. */
    public static final long MAX_EPOCH_TICKS = 253_402_300_800L * TICKS_PER_SECOND - 1;

    public EdmDateTime {
        if (epochTicks < MIN_EPOCH_TICKS || epochTicks > MAX_EPOCH_TICKS) {
            throw new IllegalArgumentException("DateTime out of range 1601-01-01..9999-12-31: " + epochTicks);
        }
    }

    public static EdmDateTime ofEpochTicks(long epochTicks) {
        return new EdmDateTime(epochTicks);
    }

    /** The instant truncated to 100 ns. */
    public static EdmDateTime of(Instant instant) {
        long seconds = instant.getEpochSecond();
        if (seconds < MIN_EPOCH_TICKS / TICKS_PER_SECOND || seconds > MAX_EPOCH_TICKS / TICKS_PER_SECOND) {
            throw new IllegalArgumentException("DateTime out of range 1601-01-01..9999-12-31: " + instant);
        }
        return new EdmDateTime(seconds * TICKS_PER_SECOND + instant.getNano() / 100);
    }

    public Instant toInstant() {
        long seconds = Math.floorDiv(epochTicks, TICKS_PER_SECOND);
        long ticks = Math.floorMod(epochTicks, TICKS_PER_SECOND);
        return Instant.ofEpochSecond(seconds, ticks * 100);
    }

    /** This instant plus {@code ticks} (may throw when the result leaves the range). */
    public EdmDateTime plusTicks(long ticks) {
        return new EdmDateTime(Math.addExact(epochTicks, ticks));
    }

    @Override
    public EdmType type() {
        return EdmType.DATE_TIME;
    }

    @Override
    public int compareTo(EdmDateTime other) {
        return Long.compare(epochTicks, other.epochTicks);
    }

    /** ISO 8601 in UTC with exactly seven fractional digits, e.g. {@code 2024-05-01T12:00:00.1234567Z}. */
    public String toIso() {
        long seconds = Math.floorDiv(epochTicks, TICKS_PER_SECOND);
        int ticks = (int) Math.floorMod(epochTicks, TICKS_PER_SECOND);
        LocalDateTime t = LocalDateTime.ofEpochSecond(seconds, 0, ZoneOffset.UTC);
        StringBuilder sb = new StringBuilder(28);
        pad(sb, t.getYear(), 4).append('-');
        pad(sb, t.getMonthValue(), 2).append('-');
        pad(sb, t.getDayOfMonth(), 2).append('T');
        pad(sb, t.getHour(), 2).append(':');
        pad(sb, t.getMinute(), 2).append(':');
        pad(sb, t.getSecond(), 2).append('.');
        pad(sb, ticks, 7).append('Z');
        return sb.toString();
    }

    @Override
    public String toString() {
        return "EdmDateTime[" + toIso() + "]";
    }

    /**
     * Parses the ISO 8601 forms the service accepts: {@code YYYY-MM-DD}, and
     * {@code YYYY-MM-DDThh:mm[:ss[.f+]]} followed by {@code Z} or {@code ±hh:mm}. A value
     * without a zone designator is taken as UTC. Fractional digits beyond the seventh are rounded
     * to the nearest tick, half to even, as the service's .NET XML date-time parsing does: the Java
     * SDK writes every {@code OffsetDateTime} with 0, 3, 6 or 9 digits ({@code ISO_INSTANT}), so a
     * 100 ns value arrives as {@code .123456700}. Returns empty for anything else, including a value
     * outside the supported range.
     */
    public static Optional<EdmDateTime> parse(String text) {
        Cursor c = new Cursor(text);
        try {
            int year = c.digits(4);
            c.expect('-');
            int month = c.digits(2);
            c.expect('-');
            int day = c.digits(2);
            int hour = 0;
            int minute = 0;
            int second = 0;
            long fraction = 0;
            int offsetSeconds = 0;
            if (!c.atEnd()) {
                c.expect('T');
                hour = c.digits(2);
                c.expect(':');
                minute = c.digits(2);
                if (c.peek() == ':') {
                    c.expect(':');
                    second = c.digits(2);
                    if (c.peek() == '.') {
                        c.expect('.');
                        int n = 0;
                        int round = 0; // beyond the 7th digit: 1 = above half a tick, -1 = exactly half so far
                        while (c.peek() >= '0' && c.peek() <= '9') { // ASCII only: Character.isDigit takes any script's digits
                            int digit = c.next() - '0';
                            if (n < 7) {
                                fraction = fraction * 10 + digit;
                            } else if (n == 7) {
                                round = digit > 5 ? 1 : digit == 5 ? -1 : 0;
                            } else if (round < 0 && digit != 0) {
                                round = 1;
                            }
                            n++;
                        }
                        if (n == 0) {
                            return Optional.empty();
                        }
                        if (n < 7) {
                            for (; n < 7; n++) {
                                fraction *= 10;
                            }
                        } else {
                            fraction += round < 0 ? (fraction & 1) : round; // half to even
                        }
                    }
                }
                if (!c.atEnd()) {
                    char z = c.next();
                    if (z == 'Z' || z == 'z') {
                        // UTC
                    } else if (z == '+' || z == '-') {
                        int oh = c.digits(2);
                        c.expect(':');
                        int om = c.digits(2);
                        if (oh > 14 || om > 59) {
                            return Optional.empty();
                        }
                        offsetSeconds = (z == '+' ? 1 : -1) * (oh * 3600 + om * 60);
                    } else {
                        return Optional.empty();
                    }
                }
            }
            if (!c.atEnd() || hour > 23 || minute > 59 || second > 59) {
                return Optional.empty();
            }
            LocalDate date = LocalDate.of(year, month, day);
            long epochSecond = date.toEpochDay() * 86_400L + hour * 3600L + minute * 60L + second - offsetSeconds;
            long ticks = epochSecond * TICKS_PER_SECOND + fraction;
            if (ticks < MIN_EPOCH_TICKS || ticks > MAX_EPOCH_TICKS) {
                return Optional.empty();
            }
            return Optional.of(new EdmDateTime(ticks));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    private static StringBuilder pad(StringBuilder sb, int value, int width) {
        String s = Integer.toString(value);
        for (int i = s.length(); i < width; i++) {
            sb.append('0');
        }
        return sb.append(s);
    }

    /** A tiny cursor for the fixed-format parse above; any mismatch throws and becomes "not a DateTime". */
    private static final class Cursor {
        private final String s;
        private int i;

        Cursor(String s) {
            this.s = s;
        }

        boolean atEnd() {
            return i >= s.length();
        }

        char peek() {
            return atEnd() ? '\0' : s.charAt(i);
        }

        char next() {
            if (atEnd()) {
                throw new IllegalArgumentException("end of input");
            }
            return s.charAt(i++);
        }

        void expect(char ch) {
            if (next() != ch) {
                throw new IllegalArgumentException("expected " + ch);
            }
        }

        int digits(int n) {
            int v = 0;
            for (int k = 0; k < n; k++) {
                char ch = next();
                if (ch < '0' || ch > '9') {
                    throw new IllegalArgumentException("expected digit");
                }
                v = v * 10 + (ch - '0');
            }
            return v;
        }
    }
}
