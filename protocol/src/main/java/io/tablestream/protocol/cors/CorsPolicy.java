package io.tablestream.protocol.cors;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.model.CorsRule;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * An account's CORS rules applied to requests, as the Table service applies them. Immutable; every
 * method is a pure function of the rules and its arguments.
 *
 * <p>Rules are tried in order and the first whose origins and methods both match is <em>the</em>
 * rule: for a preflight its allowed headers then decide, and a later rule is not tried even if it
 * would allow them. Origins match exactly and case-sensitively, or by {@code *} (every origin), or
 * by a pattern such as {@code https://*.contoso.com} ({@code *} standing for one or more characters
 * of the host). Methods match case-sensitively. Header names match case-insensitively, an entry
 * ending in {@code *} matching every name that starts with the rest.
 */
public final class CorsPolicy {
    private static final String ANY = "*";
    /** The policy of an account without CORS rules: CORS disabled. */
    public static final CorsPolicy DISABLED = new CorsPolicy(List.of());

    private final List<CorsRule> rules;
    private final List<List<Pattern>> originPatterns;

    private CorsPolicy(List<CorsRule> rules) {
        this.rules = List.copyOf(rules);
        List<List<Pattern>> patterns = new ArrayList<>(this.rules.size());
        for (CorsRule r : this.rules) {
            List<Pattern> ps = new ArrayList<>();
            for (String o : r.allowedOrigins()) {
                if (!o.equals(CorsRule.ANY_ORIGIN) && o.indexOf('*') >= 0) {
                    ps.add(wildcard(o));
                }
            }
            patterns.add(List.copyOf(ps));
        }
        this.originPatterns = List.copyOf(patterns);
    }

    /** The policy of an account with these rules (none: CORS disabled). */
    public static CorsPolicy of(List<CorsRule> rules) {
        return new CorsPolicy(rules);
    }

    /** Whether any rule is set. */
    public boolean enabled() {
        return !rules.isEmpty();
    }

    /** The rules, in evaluation order. */
    public List<CorsRule> rules() {
        return rules;
    }

    /**
     * A refused preflight, with the service's own words whatever the reason (CORS off, no rule for the
     * origin and method, a header the matching rule does not allow): browsers and SDKs see only that.
     */
    private static TableServiceException refused() {
        return TableServiceException.of(ErrorCode.CORS_PREFLIGHT_FAILURE);
    }

    /**
     * Whether {@link #actualRequest} can add anything to the response of a request with this
     * method and {@code Origin} (null when absent), whatever the rules: only a request with an
     * origin, or a GET or HEAD (which may vary by origin), can get CORS headers. Lets a caller skip
     * looking the rules up.
     */
    public static boolean mayApplyTo(String method, String origin) {
        return origin != null || method.equals("GET") || method.equals("HEAD");
    }

    /**
     * The answer to a preflight ({@code OPTIONS}) request: the headers to send with 200 OK.
     *
     * @param origin         the {@code Origin} header, or {@code null}
     * @param requestMethod  the {@code Access-Control-Request-Method} header, or {@code null}
     * @param requestHeaders the {@code Access-Control-Request-Headers} header (comma-separated), or {@code null}
     * @throws TableServiceException {@code InvalidHeaderValue} (400) when {@code Origin} or
     *         {@code Access-Control-Request-Method} is missing; {@code CorsPreflightFailure} (403)
     *         when CORS is disabled or no rule allows the request
     */
    public CorsHeaders preflight(String origin, String requestMethod, String requestHeaders) {
        if (origin == null || origin.isBlank()) {
            throw missingHeader("Origin");
        }
        if (requestMethod == null || requestMethod.isBlank()) {
            throw missingHeader("Access-Control-Request-Method");
        }
        if (rules.isEmpty()) {
            throw refused();
        }
        String method = requestMethod.strip();
        int i = firstMatch(origin, method);
        if (i < 0) {
            throw refused();
        }
        CorsRule rule = rules.get(i);
        TreeSet<String> headers = new TreeSet<>();
        if (requestHeaders != null) {
            for (String h : CorsRule.splitList(requestHeaders)) {
                if (!headerAllowed(rule.allowedHeaders(), h)) {
                    throw refused();
                }
                headers.add(h.toLowerCase(Locale.ROOT));
            }
        }
        boolean any = rule.allowsAnyOrigin();
        return new CorsHeaders(
                Optional.of(any ? ANY : origin),
                Optional.of(method),
                headers.isEmpty() ? Optional.empty() : Optional.of(String.join(",", headers)),
                OptionalInt.of(rule.maxAgeInSeconds()),
                !any,
                Optional.empty(),
                false);
    }

    /**
     * The CORS headers to add to the response of an actual (non-preflight) request. With a
     * matching rule: the allowed origin ({@code *} for a rule allowing every origin, else the
     * request's origin together with {@code Access-Control-Allow-Credentials}) and the exposed
     * headers. {@code Vary: Origin} is added to GET and HEAD responses whenever CORS is enabled,
     * unless the response is shared with every origin. A GET or HEAD without an {@code Origin}
     * header still gets {@code *} when a rule allowing every origin matches its method.
     *
     * @param method              the request's HTTP method
     * @param origin              the {@code Origin} header, or {@code null}
     * @param responseHeaderNames the names of the headers the response carries, which prefixed
     *                            exposed-header entries ({@code x-ms-*}) are matched against
     */
    public CorsHeaders actualRequest(String method, String origin, Collection<String> responseHeaderNames) {
        return actualRequest(method, origin, () -> responseHeaderNames);
    }

    /**
     * {@link #actualRequest(String, String, Collection)} with the response's header names asked for
     * only when a prefixed exposed-header entry needs them (most answers get no CORS header at all).
     */
    public CorsHeaders actualRequest(String method, String origin, Supplier<Collection<String>> responseHeaderNames) {
        if (rules.isEmpty()) {
            return CorsHeaders.NONE;
        }
        boolean cacheable = method.equals("GET") || method.equals("HEAD");
        if (origin == null) {
            if (!cacheable) {
                return CorsHeaders.NONE;
            }
            for (CorsRule r : rules) {
                if (r.allowsAnyOrigin() && methodAllowed(r, method)) {
                    return shared(ANY, false, false, r, responseHeaderNames);
                }
            }
            return CorsHeaders.varyOnly();
        }
        int i = firstMatch(origin, method);
        if (i < 0) {
            return cacheable ? CorsHeaders.varyOnly() : CorsHeaders.NONE;
        }
        CorsRule r = rules.get(i);
        return r.allowsAnyOrigin()
                ? shared(ANY, false, false, r, responseHeaderNames)
                : shared(origin, true, cacheable, r, responseHeaderNames);
    }

    private static CorsHeaders shared(String allowOrigin, boolean credentials, boolean vary, CorsRule rule,
                                      Supplier<Collection<String>> responseHeaderNames) {
        String exposed = exposedHeaders(rule.exposedHeaders(), responseHeaderNames);
        return new CorsHeaders(Optional.of(allowOrigin), Optional.empty(), Optional.empty(), OptionalInt.empty(),
                credentials, exposed.isEmpty() ? Optional.empty() : Optional.of(exposed), vary);
    }

    /** The literal entries as written, and for each prefix entry the response's headers it covers. */
    private static String exposedHeaders(List<String> entries, Supplier<Collection<String>> responseHeaderNames) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String e : entries) {
            if (CorsRule.isPrefixEntry(e)) {
                String prefix = e.substring(0, e.length() - 1).toLowerCase(Locale.ROOT);
                for (String h : responseHeaderNames.get()) {
                    if (h.toLowerCase(Locale.ROOT).startsWith(prefix)) {
                        out.putIfAbsent(h.toLowerCase(Locale.ROOT), h);
                    }
                }
            } else {
                out.putIfAbsent(e.toLowerCase(Locale.ROOT), e);
            }
        }
        return String.join(",", out.values());
    }

    private int firstMatch(String origin, String method) {
        for (int i = 0; i < rules.size(); i++) {
            if (originAllowed(i, origin) && methodAllowed(rules.get(i), method)) {
                return i;
            }
        }
        return -1;
    }

    private boolean originAllowed(int ruleIndex, String origin) {
        CorsRule r = rules.get(ruleIndex);
        if (r.allowsAnyOrigin() || r.allowedOrigins().contains(origin)) {
            return true;
        }
        for (Pattern p : originPatterns.get(ruleIndex)) {
            if (p.matcher(origin).matches()) {
                return true;
            }
        }
        return false;
    }

    private static boolean methodAllowed(CorsRule r, String method) {
        for (CorsRule.Method m : r.allowedMethods()) {
            if (m.name().equals(method)) {
                return true;
            }
        }
        return false;
    }

    private static boolean headerAllowed(List<String> allowed, String header) {
        String h = header.toLowerCase(Locale.ROOT);
        for (String entry : allowed) {
            String e = entry.toLowerCase(Locale.ROOT);
            if (CorsRule.isPrefixEntry(e) ? h.startsWith(e.substring(0, e.length() - 1)) : h.equals(e)) {
                return true;
            }
        }
        return false;
    }

    /** {@code https://*.contoso.com}: each {@code *} one or more characters that are not {@code /} or {@code :}. */
    private static Pattern wildcard(String entry) {
        StringBuilder re = new StringBuilder();
        int from = 0;
        for (int star = entry.indexOf('*'); star >= 0; star = entry.indexOf('*', from)) {
            re.append(Pattern.quote(entry.substring(from, star))).append("[^/:]+");
            from = star + 1;
        }
        re.append(Pattern.quote(entry.substring(from)));
        return Pattern.compile(re.toString());
    }

    private static TableServiceException missingHeader(String name) {
        return TableServiceException.of(ErrorCode.INVALID_HEADER_VALUE,
                "A required CORS header is not present: " + name + ".");
    }
}
