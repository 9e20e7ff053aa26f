package io.tablestream.protocol.auth;

import io.tablestream.protocol.request.QueryParameters;
import io.tablestream.protocol.request.ResourcePath;
import java.net.InetAddress;
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

    /**
     * Every header authentication reads (SharedKey and SharedKeyLite sign the first five, SAS none; the
     * last carries a forwarding instance's claim, {@link ForwardedClient}): the HTTP layer need hand over
     * no other. Code here that starts reading another header adds it to this list.
     */
    public static final List<String> HEADERS_READ = List.of("Authorization", "Content-MD5", "Content-Type", "Date",
            "x-ms-date", ForwardedClient.HEADER);

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
     * the storage service reads it; a name without {@code =} gets an empty value; a malformed escape
     * is kept as it is ({@link QueryParameters#decoded}).
     */
    public static Map<String, List<String>> parseQuery(String rawQuery) {
        return QueryParameters.parse(rawQuery).decoded();
    }

    /** {@link QueryParameters#percentDecode}. */
    static String percentDecode(String s, boolean plusIsSpace) {
        return QueryParameters.percentDecode(s, plusIsSpace);
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
        /** Parameters taken from one {@link QueryParameters} while no other was added; else in {@link #query}. */
        private Map<String, List<String>> parsed;
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
            return query(QueryParameters.parse(rawQuery));
        }

        /** Adds the parameters of a query string already split ({@link QueryParameters#decoded}). */
        public Builder query(QueryParameters parameters) {
            if (query.isEmpty() && parsed == null) {
                parsed = parameters.decoded(); // the only ones so far: taken as they are, copied once by build()
            } else {
                addAll(parameters.decoded());
            }
            return this;
        }

        private void addAll(Map<String, List<String>> parameters) {
            if (parsed != null) {
                Map<String, List<String>> first = parsed;
                parsed = null;
                addAll(first);
            }
            parameters.forEach((name, values) -> query.computeIfAbsent(name, x -> new ArrayList<>()).addAll(values));
        }

        /** Adds one decoded query parameter value. */
        public Builder queryParameter(String name, String decodedValue) {
            addAll(Map.of());
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
            return new SignedRequest(method, rawPath, parsed != null ? parsed : query, headers, https, clientAddress);
        }
    }
}
