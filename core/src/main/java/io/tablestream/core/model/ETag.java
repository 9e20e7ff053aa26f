package io.tablestream.core.model;

import java.util.Objects;

/**
 * An entity's ETag as the service writes it: a weak tag derived from the entity's Timestamp,
 * {@code W/"datetime'2024-05-01T12%3A00%3A00.1234567Z'"}. Since the processor gives every write a
 * distinct Timestamp, every version of an entity has a distinct ETag.
 */
public record ETag(String value) {
    /** The {@code If-Match} value that matches any existing entity. */
    public static final String ANY = "*";

    public ETag {
        Objects.requireNonNull(value, "value");
    }

    public static ETag of(String value) {
        return new ETag(value);
    }

    /** The ETag of the version written at {@code timestamp}. */
    public static ETag forTimestamp(EdmDateTime timestamp) {
        return new ETag("W/\"datetime'" + timestamp.toIso().replace(":", "%3A") + "'\"");
    }

    /** Whether an {@code If-Match} condition ({@code *} or an ETag) holds for this version. */
    public boolean satisfies(String ifMatch) {
        return ANY.equals(ifMatch) || value.equals(ifMatch);
    }

    @Override
    public String toString() {
        return value;
    }
}
