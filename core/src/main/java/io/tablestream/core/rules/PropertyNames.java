package io.tablestream.core.rules;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import java.util.Set;

/**
 * Property-name rules: C# identifier rules (a letter or underscore, then letters, digits,
 * connecting, combining and formatting characters), at most 255 characters, and not one of the
 * system property names.
 */
public final class PropertyNames {
    public static final String PARTITION_KEY = "PartitionKey";
    public static final String ROW_KEY = "RowKey";
    public static final String TIMESTAMP = "Timestamp";
    public static final Set<String> SYSTEM = Set.of(PARTITION_KEY, ROW_KEY, TIMESTAMP);

    private PropertyNames() {
    }

    /** Whether {@code name} is one of PartitionKey, RowKey, Timestamp. */
    public static boolean isSystem(String name) {
        return SYSTEM.contains(name);
    }

    /** Throws {@code PropertyNameTooLong} or {@code PropertyNameInvalid} when the name breaks a rule. */
    public static void validateCustom(String name) {
        if (name.length() > Limits.MAX_PROPERTY_NAME_LENGTH) {
            throw TableServiceException.of(ErrorCode.PROPERTY_NAME_TOO_LONG,
                    "The property name '" + name.substring(0, 40) + "…' is longer than "
                            + Limits.MAX_PROPERTY_NAME_LENGTH + " characters.");
        }
        if (!isIdentifier(name)) {
            throw TableServiceException.of(ErrorCode.PROPERTY_NAME_INVALID,
                    "The property name '" + name + "' is not a valid identifier.");
        }
        if (isSystem(name)) {
            throw TableServiceException.of(ErrorCode.PROPERTY_NAME_INVALID,
                    "The property name '" + name + "' is reserved for a system property.");
        }
    }

    /** C# identifier rules (without the {@code @} verbatim prefix, which XML and URLs cannot carry). */
    public static boolean isIdentifier(String name) {
        if (name.isEmpty()) {
            return false;
        }
        int first = name.codePointAt(0);
        if (!(first == '_' || isLetter(first))) {
            return false;
        }
        for (int i = Character.charCount(first); i < name.length(); ) {
            int cp = name.codePointAt(i);
            if (!isPartChar(cp)) {
                return false;
            }
            i += Character.charCount(cp);
        }
        return true;
    }

    private static boolean isLetter(int cp) {
        return switch (Character.getType(cp)) {
            case Character.UPPERCASE_LETTER, Character.LOWERCASE_LETTER, Character.TITLECASE_LETTER,
                 Character.MODIFIER_LETTER, Character.OTHER_LETTER, Character.LETTER_NUMBER -> true;
            default -> false;
        };
    }

    private static boolean isPartChar(int cp) {
        if (isLetter(cp)) {
            return true;
        }
        return switch (Character.getType(cp)) {
            case Character.DECIMAL_DIGIT_NUMBER, Character.CONNECTOR_PUNCTUATION, Character.NON_SPACING_MARK,
                 Character.COMBINING_SPACING_MARK, Character.FORMAT -> true;
            default -> false;
        };
    }
}
