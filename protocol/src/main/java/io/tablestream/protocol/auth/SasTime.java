package io.tablestream.protocol.auth;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The UTC forms of ISO 8601 the storage service accepts for SAS start and expiry times:
 * {@code YYYY-MM-DD}, {@code YYYY-MM-DDThh:mmZ}, {@code YYYY-MM-DDThh:mm:ssZ} and
 * {@code YYYY-MM-DDThh:mm:ss.fffffffZ} (1 to 7 fraction digits).
 */
final class SasTime {
    private static final Pattern FORM = Pattern.compile(
            "^([0-9]{4})-([0-9]{2})-([0-9]{2})(?:T([0-9]{2}):([0-9]{2})(?::([0-9]{2})(?:\\.([0-9]{1,7}))?)?Z)?$");

    /** The last text parsed and what it gave: a client signs many requests with the same SAS. */
    private static volatile Parsed last = new Parsed("", null);

    private record Parsed(String text, Instant instant) {
    }

    private SasTime() {
    }

    /** The instant, or {@code null} when {@code text} is not one of the accepted forms. */
    static Instant parse(String text) {
        Parsed seen = last;
        if (seen.text().equals(text)) {
            return seen.instant();
        }
        Instant instant = parseText(text);
        last = new Parsed(text, instant);
        return instant;
    }

    private static Instant parseText(String text) {
        Matcher m = FORM.matcher(text);
        if (!m.matches()) {
            return null;
        }
        try {
            int nanos = 0;
            if (m.group(7) != null) {
                String fraction = (m.group(7) + "000000000").substring(0, 9);
                nanos = Integer.parseInt(fraction);
            }
            return LocalDateTime.of(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
                            Integer.parseInt(m.group(3)), m.group(4) == null ? 0 : Integer.parseInt(m.group(4)),
                            m.group(5) == null ? 0 : Integer.parseInt(m.group(5)),
                            m.group(6) == null ? 0 : Integer.parseInt(m.group(6)), nanos)
                    .toInstant(ZoneOffset.UTC);
        } catch (DateTimeException e) {
            return null;
        }
    }
}
