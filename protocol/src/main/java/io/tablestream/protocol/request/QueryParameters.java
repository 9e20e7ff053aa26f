package io.tablestream.protocol.request;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A request's query string, split once into its {@code name=value} pairs and read two ways:
 *
 * <ul>
 *   <li>{@link #decoded()}, as signatures read it: every pair decoded as UTF-8, {@code +} as a
 *       space, a malformed escape kept as it is (so decoding never fails), empty pairs skipped.
 *       A SAS signs these values.</li>
 *   <li>{@link #first(String)}, as the handlers read it, which is exactly how Javalin reads a
 *       query parameter (what the handlers read before): each name and value decoded by
 *       {@link URLDecoder} in the request's character encoding (the {@code charset} of its
 *       {@code Content-Type}, UTF-8 without one); a name or value that does not decode (a
 *       malformed or truncated escape, an unknown charset) counts as absent.</li>
 * </ul>
 *
 * <p>The two differ only on a malformed escape or a charset other than UTF-8; a test holds the
 * second equal to Javalin's own parse on such queries. Nothing is decoded that nobody asks for:
 * the handlers' view decodes a pair when its name is asked for, and the signatures' view once.
 */
public final class QueryParameters {
    private static final QueryParameters NONE = new QueryParameters(new String[0], new String[0], () -> null);
    private static final String UTF_8 = "UTF-8";

    /** Each pair's name and value as sent (still encoded), in arrival order; a value is null without {@code =}. */
    private final String[] rawNames;
    private final String[] rawValues;
    private final Supplier<String> characterEncoding;
    /**
     * The charset the handlers' view decodes in (null until first needed) and whether {@link URLDecoder}
     * takes it, written in that order's reverse: a reader that sees the charset sees the other too. A
     * handler may read on another thread than the pipeline's; two that race work it out alike.
     */
    private volatile String charset;
    private volatile boolean charsetUsable;
    private volatile Map<String, List<String>> decoded;

    private QueryParameters(String[] rawNames, String[] rawValues, Supplier<String> characterEncoding) {
        this.rawNames = rawNames;
        this.rawValues = rawValues;
        this.characterEncoding = characterEncoding;
    }

    /**
     * The parameters of {@code rawQuery} (null or empty for none).
     *
     * @param characterEncoding the request's character encoding as Javalin reads it (null: UTF-8),
     *     asked at most once, when a handler first reads a parameter
     */
    public static QueryParameters parse(String rawQuery, Supplier<String> characterEncoding) {
        if (rawQuery == null || rawQuery.isEmpty()) {
            return NONE;
        }
        List<String> names = new ArrayList<>();
        List<String> values = new ArrayList<>();
        int start = 0;
        while (true) {
            int amp = rawQuery.indexOf('&', start);
            int end = amp < 0 ? rawQuery.length() : amp;
            int eq = rawQuery.indexOf('=', start);
            if (eq >= 0 && eq < end) {
                names.add(rawQuery.substring(start, eq));
                values.add(rawQuery.substring(eq + 1, end));
            } else {
                names.add(rawQuery.substring(start, end));
                values.add(null);
            }
            if (amp < 0) {
                break;
            }
            start = amp + 1;
        }
        return new QueryParameters(names.toArray(new String[0]), values.toArray(new String[0]), characterEncoding);
    }

    /** The parameters of {@code rawQuery} read in UTF-8 (for requests that are not HTTP requests of their own). */
    public static QueryParameters parse(String rawQuery) {
        return parse(rawQuery, () -> null);
    }

    /**
     * Every parameter as signatures read it: decoded names, each with its decoded values in arrival
     * order (see the class documentation); unmodifiable.
     */
    public Map<String, List<String>> decoded() {
        Map<String, List<String>> out = decoded;
        if (out == null) {
            out = new LinkedHashMap<>();
            for (int i = 0; i < rawNames.length; i++) {
                if (rawNames[i].isEmpty() && rawValues[i] == null) {
                    continue; // an empty pair ("a=1&&b=2")
                }
                String value = rawValues[i] == null ? "" : percentDecode(rawValues[i], true);
                out.computeIfAbsent(percentDecode(rawNames[i], true), k -> new ArrayList<>(1)).add(value);
            }
            out = Collections.unmodifiableMap(out);
            decoded = out;
        }
        return out;
    }

    /**
     * The first value of parameter {@code name} as the handlers read it (see the class
     * documentation), or null when there is none that decodes.
     */
    public String first(String name) {
        for (int i = 0; i < rawNames.length; i++) {
            if (name.equals(handlersDecode(rawNames[i]))) {
                String value = handlersDecode(rawValues[i] == null ? "" : rawValues[i]);
                if (value != null) {
                    return value;
                }
            }
        }
        return null;
    }

    /**
     * {@code raw} as {@link URLDecoder} decodes it in the request's charset, null when it cannot. Without
     * an escape it only turns {@code +} into a space, whatever the charset, so that is done here.
     */
    private String handlersDecode(String raw) {
        String cs = charset;
        if (cs == null) {
            String asked = characterEncoding.get();
            cs = asked == null ? UTF_8 : asked;
            charsetUsable = cs.equals(UTF_8) || decodes("", cs) != null;
            charset = cs;
        }
        if (charsetUsable && raw.indexOf('%') < 0) {
            return raw.indexOf('+') < 0 ? raw : raw.replace('+', ' ');
        }
        return decodes(raw, cs);
    }

    private static String decodes(String raw, String charset) {
        try {
            return URLDecoder.decode(raw, charset);
        } catch (Exception e) {
            return null; // a malformed escape or an unknown charset: Javalin drops the value
        }
    }

    /**
     * Decodes {@code %XX} escapes as UTF-8 (and {@code +} as a space when {@code plusIsSpace}). A
     * malformed escape is kept as it is, so decoding never fails; bytes that are not UTF-8 become
     * U+FFFD.
     */
    public static String percentDecode(String s, boolean plusIsSpace) {
        if (s.indexOf('%') < 0 && (!plusIsSpace || s.indexOf('+') < 0)) {
            return s;
        }
        int n = s.length();
        StringBuilder out = new StringBuilder(n);
        byte[] escaped = new byte[n / 3];
        int count = 0;
        int i = 0;
        while (i < n) {
            char c = s.charAt(i);
            int high;
            int low;
            if (c == '%' && i + 2 < n && (high = hex(s.charAt(i + 1))) >= 0 && (low = hex(s.charAt(i + 2))) >= 0) {
                escaped[count++] = (byte) (high * 16 + low);
                i += 3;
                continue;
            }
            appendUtf8(out, escaped, count);
            count = 0;
            out.append(c == '+' && plusIsSpace ? ' ' : c);
            i++;
        }
        appendUtf8(out, escaped, count);
        return out.toString();
    }

    /** Appends a run of escaped bytes decoded as UTF-8 (ASCII, the usual case, without a decoder). */
    private static void appendUtf8(StringBuilder out, byte[] bytes, int count) {
        for (int i = 0; i < count; i++) {
            if (bytes[i] < 0) {
                out.append(new String(bytes, 0, count, StandardCharsets.UTF_8));
                return;
            }
        }
        for (int i = 0; i < count; i++) {
            out.append((char) bytes[i]);
        }
    }

    private static int hex(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        char l = Character.toLowerCase(c);
        return l >= 'a' && l <= 'f' ? l - 'a' + 10 : -1;
    }
}
