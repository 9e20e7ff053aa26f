package io.tablestream.protocol.auth;

import io.tablestream.protocol.request.ResourcePath;
import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What authentication needs to know of an HTTP request, filled in by the HTTP layer: the method,
 * the path exactly as it came on the wire (still percent-encoded, without the query), the decoded
 * query parameters, the headers (names compared case-insensitively), whether it came over https
 * and the client's address (for a SAS {@code sip} restriction).
 *
 * <p>The raw path matters: SharedKey and SharedKeyLite sign it in the encoding the client sent, so
 * it must not be decoded or normalised on the way in. The account is the first path segment
 * (path-style addressing, as the storage emulator uses), or that segment less {@code -secondary}
 * when it names the account's secondary location.
 *
 * @param method the HTTP method ({@code GET}, {@code MERGE}, ...), kept in upper case as SharedKey signs it
 * @param rawPath the request path as received, percent-encoded, e.g. {@code /devstoreaccount1/Tables}
 * @param query decoded query parameters in arrival order, each with its values in arrival order
 * @param headers header values by name, names case-insensitive
 * @param https whether the request came over TLS
 * @param clientAddress the peer address, {@code null} when unknown
 */
public record SignedRequest(String method, String rawPath, Map<String, List<String>> query,
                            Map<String, List<String>> headers, boolean https, InetAddress clientAddress) {

    public SignedRequest {
        method = Objects.requireNonNull(method, "method").toUpperCase(Locale.ROOT);
        Objects.requireNonNull(rawPath, "rawPath");
        query = freeze(query, false);
        headers = freeze(headers, true);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The first value of a header, if present. */
    public Optional<String> header(String name) {
        List<String> values = headers.get(name);
        return values == null || values.isEmpty() ? Optional.empty() : Optional.of(values.get(0));
    }

    /** The first value of a query parameter (name compared exactly), if present. */
    public Optional<String> queryParameter(String name) {
        List<String> values = query.get(name);
        return values == null || values.isEmpty() ? Optional.empty() : Optional.of(values.get(0));
    }

    /** Every value of a query parameter whose name equals {@code name} ignoring case. */
    public List<String> queryValuesIgnoringCase(String name) {
        List<String> out = new ArrayList<>();
        query.forEach((k, v) -> {
            if (k.equalsIgnoreCase(name)) {
                out.addAll(v);
            }
        });
        return out;
    }

    /**
     * The account the request addresses: its first path segment, decoded, without the suffix of
     * the account's secondary location ({@code devstoreaccount1} for {@code /devstoreaccount1-secondary/});
     * empty when there is none.
     */
    public String account() {
        return ResourcePath.primaryAccount(firstSegment());
    }

    /** Whether the path names the account's secondary location ({@code /<account>-secondary/...}). */
    public boolean secondaryLocation() {
        return ResourcePath.isSecondary(firstSegment());
    }

    /**
     * The path of the same resource at the primary location: {@code /<account>/rest} for
     * {@code /<account>-secondary/rest}, and for the Python SDK's {@code /<account>-secondary/<account>/rest}
     * (its secondary host in front of the primary's path); the raw path itself for a primary path.
     */
    public String rawPathOfPrimary() {
        if (!secondaryLocation()) {
            return rawPath;
        }
        int start = rawPath.startsWith("/") ? 1 : 0;
        int end = rawPath.indexOf('/', start);
        String rest = end < 0 ? "" : rawPath.substring(end);
        String primary = "/" + account();
        return rest.startsWith(primary + "/") ? rest : primary + rest;
    }

    private String firstSegment() {
        int start = rawPath.startsWith("/") ? 1 : 0;
        int end = rawPath.indexOf('/', start);
        String segment = end < 0 ? rawPath.substring(start) : rawPath.substring(start, end);
        return percentDecode(segment, false);
    }

    @Override
    public String toString() {
        // no header values and no query values: they may carry signatures
        return method + " " + rawPath + " query" + query.keySet() + " headers" + headers.keySet();
    }

    /**
     * Splits and decodes a raw query string ({@code a=1&b=x%20y}). {@code +} decodes to a space, as
     * the storage service reads it; a name without {@code =} gets an empty value.
     */
    public static Map<String, List<String>> parseQuery(String rawQuery) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        parseQueryInto(rawQuery, out);
        return out;
    }

    /** Adds the parameters of {@code rawQuery} to {@code out}, as {@link #parseQuery} reads them. */
    private static void parseQueryInto(String rawQuery, Map<String, List<String>> out) {
        if (rawQuery == null || rawQuery.isEmpty()) {
            return;
        }
        for (String pair : rawQuery.split("&", -1)) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String name = percentDecode(eq < 0 ? pair : pair.substring(0, eq), true);
            String value = eq < 0 ? "" : percentDecode(pair.substring(eq + 1), true);
            out.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
        }
    }

    /**
     * Decodes {@code %XX} escapes as UTF-8 (and {@code +} as a space when {@code plusIsSpace}). A
     * malformed escape is kept as it is, so decoding never fails.
     */
    static String percentDecode(String s, boolean plusIsSpace) {
        if (s.indexOf('%') < 0 && (!plusIsSpace || s.indexOf('+') < 0)) {
            return s;
        }
        StringBuilder out = new StringBuilder(s.length());
        ByteArrayOutputStream escaped = new ByteArrayOutputStream();
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c == '%' && i + 2 < s.length() && hex(s.charAt(i + 1)) >= 0 && hex(s.charAt(i + 2)) >= 0) {
                escaped.write(hex(s.charAt(i + 1)) * 16 + hex(s.charAt(i + 2)));
                i += 3;
                continue;
            }
            if (escaped.size() > 0) {
                out.append(escaped.toString(StandardCharsets.UTF_8));
                escaped.reset();
            }
            out.append(c == '+' && plusIsSpace ? ' ' : c);
            i++;
        }
        if (escaped.size() > 0) {
            out.append(escaped.toString(StandardCharsets.UTF_8));
        }
        return out.toString();
    }

    private static int hex(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        char l = Character.toLowerCase(c);
        return l >= 'a' && l <= 'f' ? l - 'a' + 10 : -1;
    }

    private static Map<String, List<String>> freeze(Map<String, List<String>> in, boolean caseInsensitive) {
        Map<String, List<String>> out = caseInsensitive ? new TreeMap<>(String.CASE_INSENSITIVE_ORDER) : new LinkedHashMap<>();
        if (in != null) {
            // one copy per name; names that only differ in case meet in a case-insensitive map
            in.forEach((k, v) -> out.merge(Objects.requireNonNull(k, "name"), v == null ? List.of() : List.copyOf(v),
                    SignedRequest::concat));
        }
        return Collections.unmodifiableMap(out);
    }

    private static List<String> concat(List<String> first, List<String> then) {
        List<String> both = new ArrayList<>(first);
        both.addAll(then);
        return List.copyOf(both);
    }

    /** Assembles a {@link SignedRequest}. */
    public static final class Builder {
        private String method;
        private String rawPath;
        private final Map<String, List<String>> query = new LinkedHashMap<>();
        private final Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        private boolean https;
        private InetAddress clientAddress;

        private Builder() {
        }

        public Builder method(String method) {
            this.method = method;
            return this;
        }

        /** The path as received, still percent-encoded, without the query. */
        public Builder rawPath(String rawPath) {
            this.rawPath = rawPath;
            return this;
        }

        /** Adds the parameters of a raw (encoded) query string. */
        public Builder rawQuery(String rawQuery) {
            parseQueryInto(rawQuery, query);
            return this;
        }

        /** Adds one decoded query parameter value. */
        public Builder queryParameter(String name, String decodedValue) {
            query.computeIfAbsent(name, x -> new ArrayList<>()).add(decodedValue);
            return this;
        }

        public Builder header(String name, String value) {
            headers.computeIfAbsent(name, x -> new ArrayList<>()).add(value);
            return this;
        }

        public Builder https(boolean https) {
            this.https = https;
            return this;
        }

        public Builder clientAddress(InetAddress clientAddress) {
            this.clientAddress = clientAddress;
            return this;
        }

        public SignedRequest build() {
            return new SignedRequest(method, rawPath, query, headers, https, clientAddress);
        }
    }
}
