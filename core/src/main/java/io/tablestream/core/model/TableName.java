package io.tablestream.core.model;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A valid table name, kept with the case it was created with. Names are unique and looked up
 * case-insensitively: {@link #key()} is the lower-case form every registry lookup uses.
 */
public record TableName(String value) {
    /** Alphanumeric, starting with a letter, 3 to 63 characters. */
    public static final Pattern PATTERN = Pattern.compile("^[A-Za-z][A-Za-z0-9]{2,62}$");
    /** Names the service reserves (compared case-insensitively). */
    public static final Set<String> RESERVED = Set.of("tables");

    public TableName {
        Objects.requireNonNull(value, "value");
        if (!isValid(value)) {
            throw invalid(value);
        }
    }

    /** The name, or {@code InvalidResourceName} (400) when it breaks the naming rules or is reserved. */
    public static TableName of(String value) {
        if (value == null || value.isEmpty()) {
            throw TableServiceException.of(ErrorCode.INVALID_RESOURCE_NAME, "The table name is empty.");
        }
        return new TableName(value);
    }

    public static boolean isValid(String value) {
        return value != null && PATTERN.matcher(value).matches()
                && !RESERVED.contains(value.toLowerCase(Locale.ROOT));
    }

    /** The case-insensitive identity of the name. */
    public String key() {
        return value.toLowerCase(Locale.ROOT);
    }

    /** Whether two names denote the same table. */
    public boolean sameTableAs(TableName other) {
        return value.equalsIgnoreCase(other.value);
    }

    @Override
    public String toString() {
        return value;
    }

    private static TableServiceException invalid(String value) {
        String shown = value.length() > 80 ? value.substring(0, 80) + "…" : value;
        return TableServiceException.of(ErrorCode.INVALID_RESOURCE_NAME,
                "The table name '" + shown + "' is not valid: it must match ^[A-Za-z][A-Za-z0-9]{2,62}$ and not be reserved.");
    }
}
