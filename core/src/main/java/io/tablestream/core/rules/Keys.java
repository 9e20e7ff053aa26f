package io.tablestream.core.rules;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;

/**
 * PartitionKey and RowKey rules: at most 1 KiB (as UTF-16), and none of {@code / \ # ?}, the
 * control characters U+0000–U+001F or U+007F–U+009F.
 */
public final class Keys {
    private Keys() {
    }

    public static void validatePartitionKey(String value) {
        validate(PropertyNames.PARTITION_KEY, value);
    }

    public static void validateRowKey(String value) {
        validate(PropertyNames.ROW_KEY, value);
    }

    /**
     * Whether {@code value} has a key's shape (length, allowed characters), without saying why not.
     * A key an entity is written under must also be well-formed UTF-16 ({@link #validatePartitionKey}).
     */
    public static boolean isValid(String value) {
        return value != null && value.length() * 2 <= Limits.MAX_KEY_BYTES && firstDisallowed(value) < 0;
    }

    /** Whether {@code s} holds a high surrogate not followed by a low one, or a lone low surrogate. */
    public static boolean hasUnpairedSurrogate(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isSurrogate(c)) {
                if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                    i++;
                } else {
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether {@code ch} may appear in a key. */
    public static boolean isAllowed(char ch) {
        return !(ch <= 0x1F || (ch >= 0x7F && ch <= 0x9F) || ch == '/' || ch == '\\' || ch == '#' || ch == '?');
    }

    private static void validate(String which, String value) {
        if (value == null) {
            throw TableServiceException.of(ErrorCode.PROPERTIES_NEED_VALUE,
                    "The " + which + " is missing.");
        }
        if (value.length() * 2 > Limits.MAX_KEY_BYTES) {
            throw TableServiceException.of(ErrorCode.PROPERTY_VALUE_TOO_LARGE,
                    "The " + which + " is larger than " + Limits.MAX_KEY_BYTES + " bytes.");
        }
        int bad = firstDisallowed(value);
        if (bad >= 0) {
            throw TableServiceException.of(ErrorCode.OUT_OF_RANGE_INPUT,
                    String.format("The %s contains a disallowed character U+%04X at position %d.",
                            which, (int) value.charAt(bad), bad));
        }
        if (hasUnpairedSurrogate(value)) {
            throw TableServiceException.of(ErrorCode.OUT_OF_RANGE_INPUT,
                    "The " + which + " holds an unpaired UTF-16 surrogate.");
        }
    }

    private static int firstDisallowed(String value) {
        for (int i = 0; i < value.length(); i++) {
            if (!isAllowed(value.charAt(i))) {
                return i;
            }
        }
        return -1;
    }
}
