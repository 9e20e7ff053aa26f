package io.tablestream.protocol.cors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.model.CorsRule;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

class CorsPolicyTest {
    private static final String CONTOSO = "http://www.contoso.com";

    /** The three rules of the evaluation example in Azure's CORS reference, in its order. */
    private static final CorsPolicy REFERENCE_EXAMPLE = CorsPolicy.of(List.of(
            CorsRule.parse(CONTOSO, "PUT,HEAD", "x-ms-blob-content-type, x-ms-blob-content-disposition", "x-ms-*", 5),
            CorsRule.parse("*", "PUT,GET", "x-ms-blob-content-type, x-ms-blob-content-disposition", "x-ms-*", 5),
            CorsRule.parse(CONTOSO, "GET", "x-ms-client-request-id", "x-ms-*", 5)));

    /** Explicit origins only: no rule that would catch a near miss. */
    private static final CorsPolicy EXPLICIT = CorsPolicy.of(List.of(
            CorsRule.parse("https://app.example,https://*.contoso.com", "GET,PUT,MERGE",
                    "x-ms-meta*,content-type,x-ms-version", "x-ms-request-id,x-ms-meta*", 3600)));

    /** The rule of the SDK's service-properties test, as set on a real account. */
    private static final CorsPolicy SDK_TEST_RULE = CorsPolicy.of(List.of(
            CorsRule.parse("*", "GET,PUT,HEAD", "x-ms-version", "x-ms-client-request-id", 10)));

    private static final CorsPolicy DISABLED = CorsPolicy.of(List.of());

    private static Map<String, String> headers(String... nameValues) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < nameValues.length; i += 2) {
            m.put(nameValues[i], nameValues[i + 1]);
        }
        return m;
    }

    // --- preflight ---

    static Stream<Arguments> allowedPreflights() {
        return Stream.of(
                Arguments.of("reference example, first rule", REFERENCE_EXAMPLE, CONTOSO, "PUT", "x-ms-blob-content-type",
                        headers("Access-Control-Allow-Origin", CONTOSO, "Access-Control-Allow-Methods", "PUT",
                                "Access-Control-Allow-Headers", "x-ms-blob-content-type", "Access-Control-Max-Age", "5",
                                "Access-Control-Allow-Credentials", "true")),
                Arguments.of("reference example, second rule (any origin)", REFERENCE_EXAMPLE, CONTOSO, "GET",
                        "x-ms-blob-content-type",
                        headers("Access-Control-Allow-Origin", "*", "Access-Control-Allow-Methods", "GET",
                                "Access-Control-Allow-Headers", "x-ms-blob-content-type", "Access-Control-Max-Age", "5")),
                Arguments.of("no request headers", EXPLICIT, "https://app.example", "MERGE", null,
                        headers("Access-Control-Allow-Origin", "https://app.example", "Access-Control-Allow-Methods", "MERGE",
                                "Access-Control-Max-Age", "3600", "Access-Control-Allow-Credentials", "true")),
                Arguments.of("an empty request-headers list", EXPLICIT, "https://app.example", "GET", " ",
                        headers("Access-Control-Allow-Origin", "https://app.example", "Access-Control-Allow-Methods", "GET",
                                "Access-Control-Max-Age", "3600", "Access-Control-Allow-Credentials", "true")),
                Arguments.of("headers in any case, echoed lower-case and sorted", EXPLICIT, "https://app.example", "PUT",
                        "X-MS-Version, Content-Type,x-ms-meta-b, x-ms-meta-a",
                        headers("Access-Control-Allow-Origin", "https://app.example", "Access-Control-Allow-Methods", "PUT",
                                "Access-Control-Allow-Headers", "content-type,x-ms-meta-a,x-ms-meta-b,x-ms-version",
                                "Access-Control-Max-Age", "3600", "Access-Control-Allow-Credentials", "true")),
                Arguments.of("a subdomain wildcard origin", EXPLICIT, "https://a.b.contoso.com", "GET", "x-ms-meta-z",
                        headers("Access-Control-Allow-Origin", "https://a.b.contoso.com", "Access-Control-Allow-Methods", "GET",
                                "Access-Control-Allow-Headers", "x-ms-meta-z", "Access-Control-Max-Age", "3600",
                                "Access-Control-Allow-Credentials", "true")),
                Arguments.of("the reference's sample (any origin, any header)",
                        CorsPolicy.of(List.of(CorsRule.parse("*", "PUT", "*", "", 60))), "www.contoso.com", "PUT",
                        "content-type, accept",
                        headers("Access-Control-Allow-Origin", "*", "Access-Control-Allow-Methods", "PUT",
                                "Access-Control-Allow-Headers", "accept,content-type", "Access-Control-Max-Age", "60")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("allowedPreflights")
    void answersAnAllowedPreflightWithTheRulesHeaders(String what, CorsPolicy policy, String origin, String method,
                                                       String requestHeaders, Map<String, String> expected) {
        assertThat(policy.preflight(origin, method, requestHeaders).asMap()).containsExactlyEntriesOf(expected);
    }

    static Stream<Arguments> refusedPreflights() {
        return Stream.of(
                Arguments.of("no Origin", EXPLICIT, null, "GET", null, ErrorCode.INVALID_HEADER_VALUE),
                Arguments.of("an empty Origin", EXPLICIT, "", "GET", null, ErrorCode.INVALID_HEADER_VALUE),
                Arguments.of("no Access-Control-Request-Method", EXPLICIT, "https://app.example", null, null,
                        ErrorCode.INVALID_HEADER_VALUE),
                Arguments.of("missing headers even with CORS disabled", DISABLED, null, null, null,
                        ErrorCode.INVALID_HEADER_VALUE),
                Arguments.of("CORS disabled", DISABLED, "https://app.example", "GET", null, ErrorCode.CORS_PREFLIGHT_FAILURE),
                Arguments.of("an origin no rule lists", EXPLICIT, "https://evil.example", "GET", null,
                        ErrorCode.CORS_PREFLIGHT_FAILURE),
                Arguments.of("an origin in another case", EXPLICIT, "https://APP.example", "GET", null,
                        ErrorCode.CORS_PREFLIGHT_FAILURE),
                Arguments.of("a method no rule allows", EXPLICIT, "https://app.example", "DELETE", null,
                        ErrorCode.CORS_PREFLIGHT_FAILURE),
                Arguments.of("a method in lower case", EXPLICIT, "https://app.example", "put", null,
                        ErrorCode.CORS_PREFLIGHT_FAILURE),
                Arguments.of("a header the rule does not allow", EXPLICIT, "https://app.example", "GET",
                        "x-ms-version, x-ms-client-request-id", ErrorCode.CORS_PREFLIGHT_FAILURE),
                Arguments.of("a header that only shares the prefix's start", EXPLICIT, "https://app.example", "GET",
                        "x-ms-met", ErrorCode.CORS_PREFLIGHT_FAILURE),
                Arguments.of("the wildcard's bare parent domain", EXPLICIT, "https://contoso.com", "GET", null,
                        ErrorCode.CORS_PREFLIGHT_FAILURE),
                Arguments.of("a domain merely ending like the wildcard", EXPLICIT, "https://evilcontoso.com", "GET", null,
                        ErrorCode.CORS_PREFLIGHT_FAILURE),
                Arguments.of("the wildcard origin on another port", EXPLICIT, "https://a.contoso.com:8443", "GET", null,
                        ErrorCode.CORS_PREFLIGHT_FAILURE),
                Arguments.of("the wildcard origin over another scheme", EXPLICIT, "http://a.contoso.com", "GET", null,
                        ErrorCode.CORS_PREFLIGHT_FAILURE),
                // The reference's third case: the second rule matches origin and method, so it alone decides,
                // and it does not allow the header, although the third rule would have.
                Arguments.of("the first matching rule refusing a header a later rule allows", REFERENCE_EXAMPLE, CONTOSO,
                        "GET", "x-ms-client-request-id", ErrorCode.CORS_PREFLIGHT_FAILURE));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusedPreflights")
    void refusesAPreflightAsTheServiceDoes(String what, CorsPolicy policy, String origin, String method,
                                           String requestHeaders, ErrorCode code) {
        assertThatThrownBy(() -> policy.preflight(origin, method, requestHeaders))
                .isInstanceOfSatisfying(TableServiceException.class, e -> {
                    assertThat(e.errorCode()).isEqualTo(code);
                    assertThat(e.httpStatus()).isEqualTo(code == ErrorCode.INVALID_HEADER_VALUE ? 400 : 403);
                    if (code == ErrorCode.CORS_PREFLIGHT_FAILURE) { // the service's words, whatever the reason
                        assertThat(e.getMessage()).isEqualTo("CORS not enabled or no matching rule found for this request.");
                    }
                });
    }

    // --- actual requests ---

    private static final List<String> RESPONSE_HEADERS =
            List.of("Content-Type", "x-ms-request-id", "x-ms-meta-a", "X-MS-META-B", "Date");

    static Stream<Arguments> actualRequests() {
        return Stream.of(
                Arguments.of("CORS disabled", DISABLED, "GET", "https://app.example", headers()),
                // Rows of the reference's Vary table (GET/HEAD):
                Arguments.of("no Origin, rules but none for every origin", EXPLICIT, "GET", null, headers("Vary", "Origin")),
                Arguments.of("no Origin, a rule for every origin", SDK_TEST_RULE, "GET", null,
                        headers("Access-Control-Allow-Origin", "*", "Access-Control-Expose-Headers", "x-ms-client-request-id")),
                Arguments.of("an exact origin match", EXPLICIT, "GET", "https://app.example",
                        headers("Access-Control-Allow-Origin", "https://app.example", "Access-Control-Allow-Credentials", "true",
                                "Access-Control-Expose-Headers", "x-ms-request-id,x-ms-meta-a,X-MS-META-B", "Vary", "Origin")),
                Arguments.of("an origin no rule lists", EXPLICIT, "HEAD", "https://evil.example", headers("Vary", "Origin")),
                Arguments.of("a rule for every origin", SDK_TEST_RULE, "HEAD", "https://any.example",
                        headers("Access-Control-Allow-Origin", "*", "Access-Control-Expose-Headers", "x-ms-client-request-id")),
                // Other methods never get Vary:
                Arguments.of("PUT with an exact origin match", EXPLICIT, "PUT", "https://app.example",
                        headers("Access-Control-Allow-Origin", "https://app.example", "Access-Control-Allow-Credentials", "true",
                                "Access-Control-Expose-Headers", "x-ms-request-id,x-ms-meta-a,X-MS-META-B")),
                Arguments.of("PUT from an origin no rule lists", EXPLICIT, "PUT", "https://evil.example", headers()),
                Arguments.of("PUT without Origin, a rule for every origin", SDK_TEST_RULE, "PUT", null, headers()),
                Arguments.of("a method the matching origin's rule does not allow", EXPLICIT, "DELETE", "https://app.example",
                        headers()),
                Arguments.of("an origin in another case", EXPLICIT, "GET", "https://App.example", headers("Vary", "Origin")),
                Arguments.of("the first matching rule wins", REFERENCE_EXAMPLE, "GET", CONTOSO,
                        headers("Access-Control-Allow-Origin", "*", "Access-Control-Expose-Headers",
                                "x-ms-request-id,x-ms-meta-a,X-MS-META-B")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("actualRequests")
    void addsTheHeadersTheServiceAddsToAnActualResponse(String what, CorsPolicy policy, String method, String origin,
                                                          Map<String, String> expected) {
        assertThat(policy.actualRequest(method, origin, RESPONSE_HEADERS).asMap()).containsExactlyEntriesOf(expected);
    }

    @Test
    void listsLiteralExposedHeadersEvenWhenTheResponseLacksThem() {
        CorsPolicy p = CorsPolicy.of(List.of(CorsRule.parse("*", "GET", "", "x-ms-continuation-NextPartitionKey,etag", 0)));
        assertThat(p.actualRequest("GET", "https://a.example", List.of()).exposeHeaders())
                .contains("x-ms-continuation-NextPartitionKey,etag");
    }

    @Test
    void leavesOutExposeHeadersWhenNothingIsExposed() {
        CorsPolicy p = CorsPolicy.of(List.of(CorsRule.parse("*", "GET", "", "x-ms-meta*", 0)));
        assertThat(p.actualRequest("GET", "https://a.example", List.of("Content-Type")).asMap())
                .containsExactlyEntriesOf(headers("Access-Control-Allow-Origin", "*"));
    }

    @Test
    void reportsWhetherCorsIsEnabled() {
        assertThat(DISABLED.enabled()).isFalse();
        assertThat(EXPLICIT.enabled()).isTrue();
        assertThat(CorsHeaders.NONE.isEmpty()).isTrue();
        assertThat(DISABLED.actualRequest("GET", "https://a.example", List.of())).isEqualTo(CorsHeaders.NONE);
    }
}
