package io.tablestream.protocol.batch;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A {@code Content-Type} value: type, subtype (both lower-cased) and parameters (names lower-cased,
 * values unquoted). Lenient where clients differ: spaces around {@code ;} and {@code =}, empty
 * parameters, quoted or bare values; the first of repeated parameters wins.
 */
record MediaType(String type, String subtype, Map<String, String> parameters) {

    MediaType {
        parameters = Map.copyOf(parameters);
    }

    /** The media type in {@code value}, or empty when it is not {@code type/subtype *(;param)}. */
    static Optional<MediaType> parse(String value) {
        if (value == null) {
            return Optional.empty();
        }
        Cursor c = new Cursor(value);
        c.skipSpace();
        String type = c.token();
        if (type.isEmpty() || !c.take('/')) {
            return Optional.empty();
        }
        String subtype = c.token();
        if (subtype.isEmpty()) {
            return Optional.empty();
        }
        Map<String, String> params = new LinkedHashMap<>();
        c.skipSpace();
        while (!c.atEnd()) {
            if (!c.take(';')) {
                return Optional.empty();
            }
            c.skipSpace();
            if (c.atEnd() || c.peek() == ';') {
                continue;
            }
            String name = c.token();
            c.skipSpace();
            if (name.isEmpty() || !c.take('=')) {
                return Optional.empty();
            }
            c.skipSpace();
            Optional<String> paramValue = c.peek() == '"' ? c.quoted() : Optional.of(c.token());
            if (paramValue.isEmpty()) {
                return Optional.empty();
            }
            params.putIfAbsent(name.toLowerCase(Locale.ROOT), paramValue.get());
            c.skipSpace();
        }
        return Optional.of(new MediaType(type.toLowerCase(Locale.ROOT), subtype.toLowerCase(Locale.ROOT), params));
    }

    boolean is(String type, String subtype) {
        return this.type.equals(type) && this.subtype.equals(subtype);
    }

    Optional<String> parameter(String name) {
        return Optional.ofNullable(parameters.get(name));
    }

    /** A character cursor over a header value. */
    private static final class Cursor {
        private final String s;
        private int i;

        Cursor(String s) {
            this.s = s;
        }

        boolean atEnd() {
            return i >= s.length();
        }

        char peek() {
            return atEnd() ? '\0' : s.charAt(i);
        }

        boolean take(char c) {
            if (peek() == c && !atEnd()) {
                i++;
                return true;
            }
            return false;
        }

        void skipSpace() {
            while (!atEnd() && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) {
                i++;
            }
        }

        String token() {
            int start = i;
            while (!atEnd() && HeaderField.isTokenChar(s.charAt(i))) {
                i++;
            }
            return s.substring(start, i);
        }

        /** A quoted string with backslash escapes, or empty when it is not closed. */
        Optional<String> quoted() {
            StringBuilder sb = new StringBuilder();
            i++; // opening quote
            while (!atEnd()) {
                char c = s.charAt(i++);
                if (c == '"') {
                    return Optional.of(sb.toString());
                }
                if (c == '\\') {
                    if (atEnd()) {
                        return Optional.empty();
                    }
                    c = s.charAt(i++);
                }
                sb.append(c);
            }
            return Optional.empty();
        }
    }
}
