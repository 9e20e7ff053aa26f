package io.tablestream.protocol.cors;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The CORS headers of one response. {@link #asMap()} renders them with their HTTP names, in a
 * fixed order; {@code Vary: Origin} is to be merged with any {@code Vary} the response already has.
 *
 * @param allowOrigin      {@code Access-Control-Allow-Origin}: the request's origin, or {@code *}
 * @param allowMethods     {@code Access-Control-Allow-Methods} (preflight only)
 * @param allowHeaders     {@code Access-Control-Allow-Headers} (preflight only)
 * @param maxAgeSeconds    {@code Access-Control-Max-Age} (preflight only)
 * @param allowCredentials {@code Access-Control-Allow-Credentials: true}, sent with an echoed origin
 * @param exposeHeaders    {@code Access-Control-Expose-Headers} (actual requests only)
 * @param varyOrigin       {@code Vary: Origin}
 */
public record CorsHeaders(Optional<String> allowOrigin, Optional<String> allowMethods, Optional<String> allowHeaders,
                          OptionalInt maxAgeSeconds, boolean allowCredentials, Optional<String> exposeHeaders,
                          boolean varyOrigin) {
    public static final String ALLOW_ORIGIN = "Access-Control-Allow-Origin";
    public static final String ALLOW_METHODS = "Access-Control-Allow-Methods";
    public static final String ALLOW_HEADERS = "Access-Control-Allow-Headers";
    public static final String MAX_AGE = "Access-Control-Max-Age";
    public static final String ALLOW_CREDENTIALS = "Access-Control-Allow-Credentials";
    public static final String EXPOSE_HEADERS = "Access-Control-Expose-Headers";
    public static final String VARY = "Vary";

    /** No CORS headers at all. */
    public static final CorsHeaders NONE = new CorsHeaders(Optional.empty(), Optional.empty(), Optional.empty(),
            OptionalInt.empty(), false, Optional.empty(), false);

    public CorsHeaders {
        Objects.requireNonNull(allowOrigin, "allowOrigin");
        Objects.requireNonNull(allowMethods, "allowMethods");
        Objects.requireNonNull(allowHeaders, "allowHeaders");
        Objects.requireNonNull(maxAgeSeconds, "maxAgeSeconds");
        Objects.requireNonNull(exposeHeaders, "exposeHeaders");
    }

    /** Only {@code Vary: Origin}: CORS is on, but this response is not shared with the caller's origin. */
    static CorsHeaders varyOnly() {
        return new CorsHeaders(Optional.empty(), Optional.empty(), Optional.empty(), OptionalInt.empty(), false,
                Optional.empty(), true);
    }

    public boolean isEmpty() {
        return asMap().isEmpty();
    }

    /** The headers to set, by HTTP name. */
    public Map<String, String> asMap() {
        Map<String, String> m = new LinkedHashMap<>();
        allowOrigin.ifPresent(v -> m.put(ALLOW_ORIGIN, v));
        allowMethods.ifPresent(v -> m.put(ALLOW_METHODS, v));
        allowHeaders.ifPresent(v -> m.put(ALLOW_HEADERS, v));
        maxAgeSeconds.ifPresent(v -> m.put(MAX_AGE, Integer.toString(v)));
        if (allowCredentials) {
            m.put(ALLOW_CREDENTIALS, "true");
        }
        exposeHeaders.ifPresent(v -> m.put(EXPOSE_HEADERS, v));
        if (varyOrigin) {
            m.put(VARY, "Origin");
        }
        return Collections.unmodifiableMap(m);
    }
}
