package io.tablestream.protocol.batch;

import java.util.Objects;

/**
 * One HTTP header field of an operation inside a batch: a name (an RFC 7230 token, compared without
 * regard to case) and a value free of control characters other than horizontal tab, so a field can
 * be written back on one line without smuggling a line break.
 */
public record HeaderField(String name, String value) {

    public HeaderField {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(value, "value");
        if (!isToken(name)) {
            throw new IllegalArgumentException("Not a header name: '" + name + "'");
        }
        if (!isValidValue(value)) {
            throw new IllegalArgumentException("Header value of " + name + " holds a control character");
        }
    }

    public static HeaderField of(String name, String value) {
        return new HeaderField(name, value);
    }

    /** Whether {@code name} is this field's name, ignoring ASCII case. */
    public boolean hasName(String name) {
        return this.name.equalsIgnoreCase(name);
    }

    /** Whether {@code s} is a non-empty RFC 7230 token (the grammar of header names and methods). */
    static boolean isToken(CharSequence s) {
        if (s.length() == 0) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (!isTokenChar(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    static boolean isTokenChar(int c) {
        if (c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
            return true;
        }
        return "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
    }

    /** Field content: any character but the controls (HTAB excepted) and DEL. */
    static boolean isValidValue(CharSequence s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 && c != '\t' || c == 0x7F) {
                return false;
            }
        }
        return true;
    }
}
