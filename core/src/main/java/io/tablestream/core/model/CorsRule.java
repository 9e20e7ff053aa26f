package io.tablestream.core.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One CORS rule of the Table service: which origins may call it with which methods and request
 * headers, which response headers a browser may show them, and how long a preflight answer may be
 * cached. The lists keep the order they were set in; the service evaluates rules in list order.
 *
 * <p>An origin is matched exactly (or {@code *} allows every origin); a header entry ending in
 * {@code *} is a prefix ({@code x-ms-meta*} covers every header starting {@code x-ms-meta}).
 *
 * @param allowedOrigins  1 to {@value #MAX_ORIGINS} origins of up to {@value #MAX_VALUE_LENGTH}
 *                        characters, or {@code *}
 * @param allowedMethods  at least one method
 * @param allowedHeaders  request headers an origin may send, possibly none
 * @param exposedHeaders  response headers a browser may expose, possibly none
 * @param maxAgeInSeconds how long a preflight answer may be cached, not negative
 */
public record CorsRule(List<String> allowedOrigins, List<Method> allowedMethods, List<String> allowedHeaders,
                       List<String> exposedHeaders, int maxAgeInSeconds) {
    /** Rules one service may have. */
    public static final int MAX_RULES = 5;
    /** Origins in one rule. */
    public static final int MAX_ORIGINS = 64;
    /** Characters in one origin or header entry. */
    public static final int MAX_VALUE_LENGTH = 256;
    /** Literal (exact) entries in one header list. */
    public static final int MAX_LITERAL_HEADERS = 64;
    /** Prefix ({@code name*}) entries in one header list. */
    public static final int MAX_PREFIXED_HEADERS = 2;
    /** The allowed-origins entry that allows every origin. */
    public static final String ANY_ORIGIN = "*";

    /** The methods a rule may allow. */
    public enum Method {
        CONNECT, DELETE, GET, HEAD, MERGE, OPTIONS, PATCH, POST, PUT, TRACE;

        /** The method named {@code name} (any case), or {@code null} when it is not one a rule may allow. */
        public static Method named(String name) {
            for (Method m : values()) {
                if (m.name().equalsIgnoreCase(name)) {
                    return m;
                }
            }
            return null;
        }
    }

    /** @throws IllegalArgumentException when a list or value breaks the limits above */
    public CorsRule {
        allowedOrigins = List.copyOf(allowedOrigins);
        allowedMethods = List.copyOf(allowedMethods);
        allowedHeaders = List.copyOf(allowedHeaders);
        exposedHeaders = List.copyOf(exposedHeaders);
        if (allowedOrigins.isEmpty()) {
            throw new IllegalArgumentException("A CORS rule must allow at least one origin");
        }
        if (allowedOrigins.size() > MAX_ORIGINS) {
            throw new IllegalArgumentException("A CORS rule may allow at most " + MAX_ORIGINS + " origins, not "
                    + allowedOrigins.size());
        }
        for (String origin : allowedOrigins) {
            checkEntry("origin", origin);
        }
        if (allowedMethods.isEmpty()) {
            throw new IllegalArgumentException("A CORS rule must allow at least one method");
        }
        checkHeaders("allowed", allowedHeaders);
        checkHeaders("exposed", exposedHeaders);
        if (maxAgeInSeconds < 0) {
            throw new IllegalArgumentException("MaxAgeInSeconds must not be negative: " + maxAgeInSeconds);
        }
    }

    public static CorsRule of(List<String> allowedOrigins, List<Method> allowedMethods, List<String> allowedHeaders,
                              List<String> exposedHeaders, int maxAgeInSeconds) {
        return new CorsRule(allowedOrigins, allowedMethods, allowedHeaders, exposedHeaders, maxAgeInSeconds);
    }

    /**
     * A rule from the comma-separated lists the service exchanges ({@code "GET, PUT"}): entries
     * are trimmed and empty entries dropped; method names are read in any case.
     *
     * @throws IllegalArgumentException for an unknown method or a list that breaks the limits
     */
    public static CorsRule parse(String allowedOrigins, String allowedMethods, String allowedHeaders,
                                 String exposedHeaders, int maxAgeInSeconds) {
        List<Method> methods = new ArrayList<>();
        for (String name : splitList(allowedMethods)) {
            Method m = Method.named(name);
            if (m == null) {
                throw new IllegalArgumentException("'" + name + "' is not a method a CORS rule may allow");
            }
            methods.add(m);
        }
        return new CorsRule(splitList(allowedOrigins), methods, splitList(allowedHeaders), splitList(exposedHeaders),
                maxAgeInSeconds);
    }

    /** The trimmed, non-empty entries of a comma-separated list. */
    public static List<String> splitList(String text) {
        Objects.requireNonNull(text, "text");
        List<String> out = new ArrayList<>();
        for (String part : text.split(",", -1)) {
            String t = part.trim();
            if (!t.isEmpty()) {
                out.add(t);
            }
        }
        return out;
    }

    /** Whether a header-list entry is a prefix ({@code x-ms-meta*}) rather than a literal name. */
    public static boolean isPrefixEntry(String entry) {
        return entry.endsWith("*");
    }

    /** Whether the rule allows every origin. */
    public boolean allowsAnyOrigin() {
        return allowedOrigins.contains(ANY_ORIGIN);
    }

    private static void checkHeaders(String which, List<String> headers) {
        int prefixed = 0;
        for (String h : headers) {
            checkEntry(which + " header", h);
            if (isPrefixEntry(h)) {
                prefixed++;
            }
        }
        if (prefixed > MAX_PREFIXED_HEADERS) {
            throw new IllegalArgumentException("A CORS rule may list at most " + MAX_PREFIXED_HEADERS + " prefixed "
                    + which + " headers, not " + prefixed);
        }
        if (headers.size() - prefixed > MAX_LITERAL_HEADERS) {
            throw new IllegalArgumentException("A CORS rule may list at most " + MAX_LITERAL_HEADERS + " literal "
                    + which + " headers, not " + (headers.size() - prefixed));
        }
    }

    private static void checkEntry(String what, String value) {
        Objects.requireNonNull(value, what);
        if (value.isEmpty() || value.length() > MAX_VALUE_LENGTH || !value.strip().equals(value) || value.indexOf(',') >= 0) {
            String shown = value.length() > 80 ? value.substring(0, 80) + "…" : value;
            throw new IllegalArgumentException("A CORS " + what + " must have 1 to " + MAX_VALUE_LENGTH
                    + " characters, without commas or surrounding spaces: '" + shown + "'");
        }
    }
}
