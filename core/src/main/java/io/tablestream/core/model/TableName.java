package io.tablestream.core.model;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import java.util.Locale;
import java.util.Objects;

/**
 * A valid table name, kept with the case it was created with. Names are unique and looked up
 * case-insensitively: {@link #key()} is the lower-case form every registry lookup uses.
 */
public record TableName(String value) {
    /** The naming rule as a pattern, for messages: alphanumeric, starting with a letter, 3 to 63 characters. */
    public static final String RULE = "^[A-Za-z][A-Za-z0-9]{2,62}$";
    /** The name the service reserves (compared case-insensitively). */
    private static final String RESERVED = "tables";

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

    /**
     * Whether {@code value} follows {@link #RULE} and is not reserved. Checked character by character:
     * a request meets this several times (its path, its permission, the processor's decoding), and a
     * regular expression cost a few per cent of a single write's CPU.
     */
    public static boolean isValid(String value) {
        if (value == null || value.length() < 3 || value.length() > 63 || !isAsciiLetter(value.charAt(0))) {
            return false;
        }
        for (int i = 1; i < value.length(); i++) {
            char c = value.charAt(i);
            if (!isAsciiLetter(c) && (c < '0' || c > '9')) {
                return false;
            }
        }
        return !value.equalsIgnoreCase(RESERVED);
    }

    private static boolean isAsciiLetter(char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
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
                "The table name '" + shown + "' is not valid: it must match " + RULE + " and not be reserved.");
    }
}
