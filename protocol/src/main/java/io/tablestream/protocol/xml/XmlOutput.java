package io.tablestream.protocol.xml;

import java.nio.charset.StandardCharsets;

/**
 * Writes a response body the way the service does: a UTF-8 byte order mark, the declaration
 * {@code <?xml version="1.0" encoding="utf-8"?>}, then the elements with no white space between
 * them; an element without content is written {@code <Name />}.
 */
final class XmlOutput {
    /** What every body starts with, the byte order mark included. */
    static final String PROLOG = "\uFEFF<?xml version=\"1.0\" encoding=\"utf-8\"?>";

    private final StringBuilder sb = new StringBuilder(512).append(PROLOG);

    XmlOutput start(String name) {
        sb.append('<').append(name).append('>');
        return this;
    }

    XmlOutput end(String name) {
        sb.append("</").append(name).append('>');
        return this;
    }

    XmlOutput empty(String name) {
        sb.append('<').append(name).append(" />");
        return this;
    }

    XmlOutput leaf(String name, String value) {
        if (value.isEmpty()) {
            return empty(name);
        }
        start(name);
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '&' -> sb.append("&amp;");
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '\r' -> sb.append("&#xD;");
                default -> sb.append(c);
            }
        }
        return end(name);
    }

    XmlOutput leaf(String name, boolean value) {
        return leaf(name, value ? "true" : "false");
    }

    XmlOutput leaf(String name, int value) {
        return leaf(name, Integer.toString(value));
    }

    byte[] toBytes() {
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }
}
