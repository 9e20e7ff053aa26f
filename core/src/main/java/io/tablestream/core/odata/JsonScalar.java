package io.tablestream.core.odata;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.model.EdmBinary;
import io.tablestream.core.model.EdmBoolean;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.EdmDouble;
import io.tablestream.core.model.EdmGuid;
import io.tablestream.core.model.EdmInt32;
import io.tablestream.core.model.EdmInt64;
import io.tablestream.core.model.EdmString;
import io.tablestream.core.model.EdmType;
import io.tablestream.core.model.EdmValue;
import java.util.Base64;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * A property value as it stood in the JSON (kind and literal text), and how it becomes an
 * {@link EdmValue}: by inference when unannotated, by conversion when {@code @odata.type} names a type.
 * Kept raw until the whole object is read, because the annotation may follow the value.
 */
record JsonScalar(Kind kind, String text) {

    enum Kind { STRING, INTEGER, DECIMAL, TRUE, FALSE }

    private static final Pattern INTEGER = Pattern.compile("[+-]?[0-9]+");
    /** A decimal number as .NET's invariant Double.Parse takes it (no hex, no Java suffixes like {@code 1d}). */
    private static final Pattern DECIMAL = Pattern.compile("[+-]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][+-]?[0-9]+)?");
    private static final Pattern GUID_D = Pattern.compile(
            "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
    private static final Pattern GUID_N = Pattern.compile("[0-9a-fA-F]{32}");
    /** The syntax EdmDateTime.parse accepts, to tell a value out of range from a malformed one. */
    private static final Pattern DATE_TIME = Pattern.compile(
            "[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]+)?)?([Zz]|[+-][0-9]{2}:[0-9]{2})?)?");

    /**
     * The type the service infers for an unannotated value: a string is {@code Edm.String}, a literal
     * {@code true}/{@code false} is {@code Edm.Boolean}, a number without fraction or exponent that
     * fits 32 bits is {@code Edm.Int32}, and every other number (with a fraction, an exponent, or
     * integral but outside Int32) is {@code Edm.Double}. Strings are never sniffed for other types.
     */
    EdmValue infer(String property) {
        switch (kind) {
            case STRING:
                return EdmString.of(text);
            case TRUE:
                return EdmBoolean.TRUE;
            case FALSE:
                return EdmBoolean.FALSE;
            case INTEGER:
                try {
                    return EdmInt32.of(Integer.parseInt(text));
                } catch (NumberFormatException outsideInt32) {
                    return EdmDouble.of(finiteDouble(property, text));
                }
            case DECIMAL:
                return EdmDouble.of(finiteDouble(property, text));
            default:
                throw new IllegalStateException(kind.name());
        }
    }

    /** The value as {@code type}, as the annotation demands; {@code InvalidInput} when it is not one. */
    EdmValue as(EdmType type, String property) {
        switch (type) {
            case STRING:
                if (kind == Kind.STRING) {
                    return EdmString.of(text);
                }
                break;
            case BOOLEAN:
                if (kind == Kind.TRUE || (kind == Kind.STRING && text.equals("true"))) {
                    return EdmBoolean.TRUE;
                }
                if (kind == Kind.FALSE || (kind == Kind.STRING && text.equals("false"))) {
                    return EdmBoolean.FALSE;
                }
                break;
            case INT32:
                if (kind == Kind.INTEGER || (kind == Kind.STRING && INTEGER.matcher(text).matches())) {
                    try {
                        return EdmInt32.of(Integer.parseInt(text));
                    } catch (NumberFormatException outOfRange) {
                        throw invalid(property, "is outside the range of Edm.Int32");
                    }
                }
                break;
            case INT64:
                if (kind == Kind.STRING && INTEGER.matcher(text).matches()) {
                    try {
                        return EdmInt64.of(Long.parseLong(text));
                    } catch (NumberFormatException outOfRange) {
                        throw invalid(property, "is outside the range of Edm.Int64");
                    }
                }
                if (kind == Kind.INTEGER) {
                    throw invalid(property, "is a JSON number; an Edm.Int64 value must be a JSON string");
                }
                break;
            case DOUBLE:
                return EdmDouble.of(asDouble(property));
            case DATE_TIME:
                if (kind == Kind.STRING) {
                    return asDateTime(property);
                }
                break;
            case GUID:
                if (kind == Kind.STRING) {
                    UUID uuid = parseGuid(text);
                    if (uuid != null) {
                        return EdmGuid.of(uuid);
                    }
                }
                break;
            case BINARY:
                if (kind == Kind.STRING) {
                    byte[] bytes = parseBase64(text);
                    if (bytes != null) {
                        return EdmBinary.of(bytes);
                    }
                }
                break;
            default:
                throw new IllegalStateException(type.name());
        }
        throw invalid(property, "is not a valid " + type.odataName() + " value");
    }

    private double asDouble(String property) {
        if (kind == Kind.INTEGER || kind == Kind.DECIMAL) {
            return finiteDouble(property, text);
        }
        if (kind == Kind.STRING) {
            switch (text) {
                case "NaN":
                    return Double.NaN;
                case "Infinity":
                case "INF":
                    return Double.POSITIVE_INFINITY;
                case "-Infinity":
                case "-INF":
                    return Double.NEGATIVE_INFINITY;
                default:
                    if (DECIMAL.matcher(text).matches()) {
                        return finiteDouble(property, text);
                    }
            }
        }
        throw invalid(property, "is not a valid Edm.Double value");
    }

    private EdmValue asDateTime(String property) {
        Optional<EdmDateTime> parsed = EdmDateTime.parse(text);
        if (parsed.isPresent()) {
            return parsed.get();
        }
        // Well-formed fields in a year the service cannot hold (e.g. .NET's 0001-01-01) are out of range.
        if (DATE_TIME.matcher(text).matches() && EdmDateTime.parse("2000" + text.substring(4)).isPresent()) {
            throw TableServiceException.of(ErrorCode.OUT_OF_RANGE_INPUT, "The value of property '" + property
                    + "' is outside the Edm.DateTime range 1601-01-01T00:00:00Z to 9999-12-31T23:59:59.9999999Z.");
        }
        throw invalid(property, "is not a valid Edm.DateTime value");
    }

    /** A double from a JSON number literal or numeric string; {@code InvalidInput} when it overflows to infinity. */
    private static double finiteDouble(String property, String literal) {
        double value = Double.parseDouble(literal);
        if (Double.isInfinite(value)) {
            throw invalid(property, "is outside the range of Edm.Double");
        }
        return value;
    }

    /** The .NET Guid formats: 32 digits, hyphenated, and hyphenated in braces or parentheses. */
    private static UUID parseGuid(String s) {
        String hyphenated = s;
        if (s.length() == 38 && ((s.charAt(0) == '{' && s.charAt(37) == '}') || (s.charAt(0) == '(' && s.charAt(37) == ')'))) {
            hyphenated = s.substring(1, 37);
        } else if (GUID_N.matcher(s).matches()) {
            hyphenated = s.substring(0, 8) + '-' + s.substring(8, 12) + '-' + s.substring(12, 16) + '-'
                    + s.substring(16, 20) + '-' + s.substring(20);
        }
        return GUID_D.matcher(hyphenated).matches() ? UUID.fromString(hyphenated) : null;
    }

    /**
     * Standard base64 with padding, whitespace ignored (as .NET's Convert.FromBase64String, which also
     * requires the padding Java's decoder would let go).
     */
    private static byte[] parseBase64(String s) {
        String compact = s;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
                compact = s.replaceAll("[ \\t\\r\\n]", "");
                break;
            }
        }
        if (compact.length() % 4 != 0) {
            return null;
        }
        try {
            return Base64.getDecoder().decode(compact);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    static TableServiceException invalid(String property, String what) {
        return TableServiceException.of(ErrorCode.INVALID_INPUT, "The value of property '" + property + "' " + what + ".");
    }
}
