package io.tablestream.protocol.xml;

import static io.tablestream.protocol.xml.XmlElement.invalidValue;

import io.tablestream.core.model.EdmDateTime;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Typed values of leaf elements; a value that does not read as its type is {@code InvalidXmlNodeValue}. */
final class XmlValues {
    /** More than the seven fractional digits a tick holds: {@code ...:ss.} then 7 kept digits, then the rest. */
    private static final Pattern LONG_FRACTION = Pattern.compile("^(.+T\\d{2}:\\d{2}:\\d{2}\\.\\d{7})\\d+(.*)$");

    private XmlValues() {
    }

    /** {@code true} or {@code false} (also {@code 1} or {@code 0}, as xsd:boolean allows), around white space. */
    static boolean bool(XmlElement e, String path) {
        String v = e.value().strip();
        return switch (v) {
            case "true", "1" -> true;
            case "false", "0" -> false;
            default -> throw invalidValue(path, e.value(), "expected true or false");
        };
    }

    /** A decimal 32-bit integer, around white space. */
    static int integer(XmlElement e, String path) {
        String v = e.value().strip();
        if (!v.matches("[+-]?[0-9]{1,10}")) {
            throw invalidValue(path, e.value(), "expected an integer");
        }
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException ex) {
            throw invalidValue(path, e.value(), "out of range for an integer");
        }
    }

    /**
     * An ISO 8601 date or date-time ({@code YYYY-MM-DD}, {@code YYYY-MM-DDThh:mm[:ss[.f...]]} with
     * {@code Z} or an offset), empty when the element is. Fractions finer than 100 ns (as
     * {@code OffsetDateTime} may write) are truncated to ticks.
     */
    static Optional<EdmDateTime> dateTime(XmlElement e, String path) {
        String v = e.value().strip();
        if (v.isEmpty()) {
            return Optional.empty();
        }
        Matcher m = LONG_FRACTION.matcher(v);
        String ticks = m.matches() ? m.group(1) + m.group(2) : v;
        Optional<EdmDateTime> parsed = EdmDateTime.parse(ticks);
        if (parsed.isEmpty()) {
            throw invalidValue(path, e.value(), "expected an ISO 8601 UTC date-time such as 2024-01-01T00:00:00Z");
        }
        return parsed;
    }
}
