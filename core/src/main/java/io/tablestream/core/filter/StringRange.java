package io.tablestream.core.filter;

/**
 * An interval of strings in ordinal (UTF-16 code unit, {@link String#compareTo}) order. A
 * {@code null} bound is unbounded on that side.
 */
public record StringRange(String lower, boolean lowerInclusive, String upper, boolean upperInclusive) {
    public static final StringRange ALL = new StringRange(null, false, null, false);
    /** A range holding no string at all. */
    public static final StringRange NONE = new StringRange("", false, "", false);

    public static StringRange all() {
        return ALL;
    }

    public static StringRange none() {
        return NONE;
    }

    public static StringRange exactly(String value) {
        return new StringRange(value, true, value, true);
    }

    public static StringRange atLeast(String value) {
        return new StringRange(value, true, null, false);
    }

    public static StringRange greaterThan(String value) {
        return new StringRange(value, false, null, false);
    }

    public static StringRange atMost(String value) {
        return new StringRange(null, false, value, true);
    }

    public static StringRange lessThan(String value) {
        return new StringRange(null, false, value, false);
    }

    /**
     * The strings that begin with {@code prefix}: from the prefix itself up to, not including, the
     * first string past all of them (the prefix without its trailing U+FFFF code units, its last
     * code unit incremented). Every string when the prefix is empty; no upper bound when it is
     * U+FFFF throughout.
     */
    public static StringRange startingWith(String prefix) {
        int end = prefix.length();
        while (end > 0 && prefix.charAt(end - 1) == Character.MAX_VALUE) {
            end--;
        }
        if (end == 0) {
            return prefix.isEmpty() ? ALL : atLeast(prefix);
        }
        String past = prefix.substring(0, end - 1) + (char) (prefix.charAt(end - 1) + 1);
        return new StringRange(prefix, true, past, false);
    }

    public boolean isAll() {
        return lower == null && upper == null;
    }

    /** Whether the range holds exactly one string. */
    public boolean isPoint() {
        return lower != null && lower.equals(upper) && lowerInclusive && upperInclusive;
    }

    /** Whether the range holds no string at all. */
    public boolean isEmpty() {
        if (lower == null || upper == null) {
            return false;
        }
        int c = lower.compareTo(upper);
        return c > 0 || (c == 0 && !(lowerInclusive && upperInclusive));
    }

    public boolean contains(String value) {
        if (lower != null) {
            int c = value.compareTo(lower);
            if (c < 0 || (c == 0 && !lowerInclusive)) {
                return false;
            }
        }
        if (upper != null) {
            int c = value.compareTo(upper);
            return c < 0 || (c == 0 && upperInclusive);
        }
        return true;
    }

    /** The strings in both ranges. */
    public StringRange intersect(StringRange other) {
        String lo = lower;
        boolean loIn = lowerInclusive;
        if (other.lower != null) {
            int c = lo == null ? -1 : lo.compareTo(other.lower);
            if (c < 0 || (c == 0 && !other.lowerInclusive)) {
                lo = other.lower;
                loIn = other.lowerInclusive;
            }
        }
        String hi = upper;
        boolean hiIn = upperInclusive;
        if (other.upper != null) {
            int c = hi == null ? 1 : hi.compareTo(other.upper);
            if (c > 0 || (c == 0 && !other.upperInclusive)) {
                hi = other.upper;
                hiIn = other.upperInclusive;
            }
        }
        return new StringRange(lo, loIn, hi, hiIn);
    }

    /** The smallest single range holding both ranges (their hull). */
    public StringRange span(StringRange other) {
        if (isEmpty()) {
            return other;
        }
        if (other.isEmpty()) {
            return this;
        }
        String lo;
        boolean loIn;
        if (lower == null || other.lower == null) {
            lo = null;
            loIn = false;
        } else {
            int c = lower.compareTo(other.lower);
            lo = c <= 0 ? lower : other.lower;
            loIn = c < 0 ? lowerInclusive : c > 0 ? other.lowerInclusive : (lowerInclusive || other.lowerInclusive);
        }
        String hi;
        boolean hiIn;
        if (upper == null || other.upper == null) {
            hi = null;
            hiIn = false;
        } else {
            int c = upper.compareTo(other.upper);
            hi = c >= 0 ? upper : other.upper;
            hiIn = c > 0 ? upperInclusive : c < 0 ? other.upperInclusive : (upperInclusive || other.upperInclusive);
        }
        return new StringRange(lo, loIn, hi, hiIn);
    }

    @Override
    public String toString() {
        return (lower == null ? "(-∞" : (lowerInclusive ? "[" : "(") + "'" + lower + "'") + ", "
                + (upper == null ? "+∞)" : "'" + upper + "'" + (upperInclusive ? "]" : ")"));
    }
}
