package io.tablestream.cli;

import java.util.regex.Pattern;

/** An {@code --as-of} time checked before anything is sent: a UTC time as the service reads it. */
final class AsOfOption {
    private static final Pattern AS_OF = Pattern.compile("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d(:\\d\\d(\\.\\d{1,7})?)?Z");

    private AsOfOption() {
    }

    /** {@code asOf} itself (null when absent); IllegalArgumentException in words when it is not a UTC time. */
    static String check(String asOf) {
        if (asOf != null && !AS_OF.matcher(asOf).matches()) {
            throw new IllegalArgumentException("--as-of '" + asOf + "' is not a UTC time such as 2026-11-24T11:00:00Z"
                    + " (up to seven fractional digits, ending in Z)");
        }
        return asOf;
    }
}
