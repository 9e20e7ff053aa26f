package io.tablestream.core.filter;

import io.tablestream.core.model.EdmBinary;
import io.tablestream.core.model.EdmBoolean;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.EdmDouble;
import io.tablestream.core.model.EdmGuid;
import io.tablestream.core.model.EdmInt32;
import io.tablestream.core.model.EdmInt64;
import io.tablestream.core.model.EdmString;
import io.tablestream.core.model.EdmValue;
import java.util.HexFormat;
import java.util.UUID;

/** The literal forms of Edm values in {@code $filter}: reading them, and printing them unambiguously. */
final class EdmLiteral {
    private static final HexFormat UPPER_HEX = HexFormat.of().withUpperCase();

    private EdmLiteral() {
    }

    /**
     * A numeric literal, {@code word} starting with a digit or {@code -} and a digit:
     * {@code 123} (Int32), {@code 123L} / {@code 123l} (Int64), {@code 1.5}, {@code 1e10},
     * {@code -3.25E-2}, {@code 2d} / {@code 2D} (Double).
     */
    static EdmValue number(String word, int position) {
        int n = word.length();
        int i = word.charAt(0) == '-' ? 1 : 0;
        int digitsStart = i;
        while (i < n && isDigit(word.charAt(i))) {
            i++;
        }
        if (i == digitsStart) {
            throw malformedNumber(word, position);
        }
        if (i == n) {
            try {
                return EdmInt32.of(Integer.parseInt(word));
            } catch (NumberFormatException e) {
                throw FilterError.syntax(position, FilterError.quote(word)
                        + " does not fit Edm.Int32; write " + FilterError.quote(word + "L") + " for an Edm.Int64.");
            }
        }
        if ((word.charAt(i) == 'L' || word.charAt(i) == 'l') && i == n - 1) {
            try {
                return EdmInt64.of(Long.parseLong(word.substring(0, i)));
            } catch (NumberFormatException e) {
                throw FilterError.syntax(position, FilterError.quote(word) + " does not fit Edm.Int64.");
            }
        }
        if (word.charAt(i) == '.') {
            i = digits(word, i + 1, position);
        }
        if (i < n && (word.charAt(i) == 'e' || word.charAt(i) == 'E')) {
            i++;
            if (i < n && (word.charAt(i) == '+' || word.charAt(i) == '-')) {
                i++;
            }
            i = digits(word, i, position);
        }
        int end = i;
        if (i < n && (word.charAt(i) == 'd' || word.charAt(i) == 'D')) {
            i++;
        }
        if (i != n) {
            throw malformedNumber(word, position);
        }
        double value = Double.parseDouble(word.substring(0, end));
        if (Double.isInfinite(value)) {
            throw FilterError.syntax(position, FilterError.quote(word) + " is outside the range of Edm.Double.");
        }
        return EdmDouble.of(value);
    }

    /** The value of a typed literal {@code prefix'content'}: datetime, guid, binary or X. */
    static EdmValue typed(String prefix, String content, int position) {
        switch (prefix) {
            case "datetime":
                return EdmDateTime.parse(content).orElseThrow(() -> FilterError.syntax(position,
                        FilterError.quote(content) + " is not an Edm.DateTime between 1601-01-01 and 9999-12-31"
                                + " (ISO 8601, e.g. 2008-07-10T00:00:00Z)."));
            case "guid":
                return EdmGuid.of(guid(content, position));
            default:
                return EdmBinary.of(hex(content, position));
        }
    }

    /** Whether {@code word} directly followed by a quote starts a typed literal. */
    static boolean isTypePrefix(String word) {
        return word.equals("datetime") || word.equals("guid") || word.equals("binary") || word.equals("X");
    }

    /** The value as the printed tree shows it: {@code 'a''b'}, {@code 30}, {@code 30L}, {@code 1.5}, ... */
    static String print(EdmValue value) {
        return switch (value.type()) {
            case STRING -> "'" + ((EdmString) value).value().replace("'", "''") + "'";
            case INT32 -> Integer.toString(((EdmInt32) value).value());
            case INT64 -> ((EdmInt64) value).value() + "L";
            case DOUBLE -> Double.toString(((EdmDouble) value).value());
            case BOOLEAN -> Boolean.toString(((EdmBoolean) value).value());
            case DATE_TIME -> "datetime'" + ((EdmDateTime) value).toIso() + "'";
            case GUID -> "guid'" + ((EdmGuid) value).value() + "'";
            case BINARY -> "X'" + UPPER_HEX.formatHex(((EdmBinary) value).toByteArray()) + "'";
        };
    }

    private static UUID guid(String s, int position) {
        boolean ok = s.length() == 36;
        for (int i = 0; ok && i < 36; i++) {
            char c = s.charAt(i);
            ok = (i == 8 || i == 13 || i == 18 || i == 23) ? c == '-' : Character.digit(c, 16) >= 0 && c < 128;
        }
        if (!ok) {
            throw FilterError.syntax(position, FilterError.quote(s)
                    + " is not an Edm.Guid (32 hex digits as 8-4-4-4-12).");
        }
        return UUID.fromString(s);
    }

    private static byte[] hex(String s, int position) {
        boolean ok = s.length() % 2 == 0;
        for (int i = 0; ok && i < s.length(); i++) {
            char c = s.charAt(i);
            ok = c < 128 && Character.digit(c, 16) >= 0;
        }
        if (!ok) {
            throw FilterError.syntax(position, FilterError.quote(s)
                    + " is not an Edm.Binary (an even number of hex digits).");
        }
        return HexFormat.of().parseHex(s);
    }

    private static int digits(String word, int from, int position) {
        int i = from;
        while (i < word.length() && isDigit(word.charAt(i))) {
            i++;
        }
        if (i == from) {
            throw malformedNumber(word, position);
        }
        return i;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static RuntimeException malformedNumber(String word, int position) {
        return FilterError.syntax(position, FilterError.quote(word) + " is not a number"
                + " (forms: 123, 123L, 1.5, 1e10, 2.5d).");
    }
}
