package io.tablestream.core.model;

import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An entity's ETag as the service writes it: a weak tag derived from the entity's Timestamp,
 * {@code W/"datetime'2024-05-01T12%3A00%3A00.1234567Z'"}. Since the processor gives every write a
 * distinct Timestamp, every version of an entity has a distinct ETag.
 */
public final class ETag {
    /** The {@code If-Match} value that matches any existing entity. */
    public static final String ANY = "*";
    /**
     * A datetime entity tag as clients send it back: optionally weak, the quotes optional (the Java
     * SDK strips the closing one from ETag response headers), the time with {@code %3A} or {@code :}.
     */
    private static final Pattern DATETIME_TAG = Pattern.compile("(?:W/)?\"?datetime'([^'\"]{1,64})'\"?");

    /** The Timestamp this tag names, or null for a tag given as text. */
    private final EdmDateTime timestamp;
    /** The tag's text, formatted on first use: most versions read or written never show their tag. */
    private volatile String value;

    private ETag(EdmDateTime timestamp, String value) {
        this.timestamp = timestamp;
        this.value = value;
    }

    public static ETag of(String value) {
        return new ETag(null, Objects.requireNonNull(value, "value"));
    }

    /** The ETag of the version written at {@code timestamp}. */
    public static ETag forTimestamp(EdmDateTime timestamp) {
        return new ETag(Objects.requireNonNull(timestamp, "timestamp"), null);
    }

    /** The tag as the service writes it. */
    public String value() {
        String v = value;
        if (v == null) {
            v = "W/\"datetime'" + timestamp.toIso().replace(":", "%3A") + "'\"";
            value = v;
        }
        return v;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof ETag other)) {
            return false;
        }
        if (timestamp != null && other.timestamp != null) {
            return timestamp.equals(other.timestamp);
        }
        return value().equals(other.value());
    }

    @Override
    public int hashCode() {
        return value().hashCode();
    }

    /**
     * Whether an {@code If-Match} condition ({@code *} or an ETag) holds for this version. A datetime
     * tag names a version by its Timestamp, so it matches in any of the spellings
     * {@link #canonicalCondition} accepts.
     */
    public boolean satisfies(String ifMatch) {
        String v = value();
        return ifMatch != null && (ANY.equals(ifMatch) || v.equals(ifMatch) || v.equals(canonicalCondition(ifMatch)));
    }

    /**
     * An {@code If-Match} value with a datetime tag in any spelling clients send back —
     * {@code W/"datetime'2024-05-01T12%3A00%3A00.1234567Z'"}, the same without its closing quote (what
     * the Java SDK's ETag scrubbing leaves of a response header), without {@code W/} or quotes, with
     * {@code :} for {@code %3A} — as the tag {@link #forTimestamp} writes for that Timestamp. Anything
     * else ({@code *}, other tags, garbage) is returned unchanged.
     */
    public static String canonicalCondition(String ifMatch) {
        return timestampOf(ifMatch).map(t -> forTimestamp(t).value()).orElse(ifMatch);
    }

    private static Optional<EdmDateTime> timestampOf(String tag) {
        Matcher m = DATETIME_TAG.matcher(tag.strip());
        if (!m.matches()) {
            return Optional.empty();
        }
        return EdmDateTime.parse(m.group(1).replace("%3A", ":").replace("%3a", ":"));
    }

    @Override
    public String toString() {
        return value();
    }
}
