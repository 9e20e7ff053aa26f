package io.tablestream.protocol.auth;

import static io.tablestream.protocol.auth.AuthFixtures.KEY;
import static io.tablestream.protocol.auth.AuthFixtures.NOW;
import static io.tablestream.protocol.auth.AuthFixtures.OTHER_KEY;
import static io.tablestream.protocol.auth.AuthFixtures.assertFailsWith;
import static io.tablestream.protocol.auth.AuthFixtures.emulatorAuthenticator;
import static io.tablestream.protocol.auth.AuthFixtures.sign;
import static io.tablestream.protocol.auth.AuthFixtures.withHeader;
import static io.tablestream.protocol.auth.AuthFixtures.withMethod;
import static io.tablestream.protocol.auth.AuthFixtures.withQueryParameter;
import static io.tablestream.protocol.auth.AuthFixtures.withRawPath;
import static org.assertj.core.api.Assertions.assertThat;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * SharedKey for the Table service as the docs define it (and the .NET and Python SDKs send it):
 * VERB, Content-MD5, Content-Type, the date (x-ms-date when sent, else Date) and the canonicalized
 * resource. The Java SDK never sends this scheme, so requests are signed here from the docs.
 */
class SharedKeyTest {
    static final String RFC1123_NOW = DateTimeFormatter.RFC_1123_DATE_TIME.format(NOW.atOffset(ZoneOffset.UTC));
    static final String RFC1123_EARLIER = DateTimeFormatter.RFC_1123_DATE_TIME.format(NOW.minusSeconds(60).atOffset(ZoneOffset.UTC));

    /** A request signed with SharedKey over {@code signedDate}; headers null when absent. */
    static SignedRequest signed(String method, String rawPath, String rawQuery, String contentType, String md5,
                                String xmsDate, String date, String signedDate, String key) {
        String comp = SignedRequest.parseQuery(rawQuery).getOrDefault("comp", List.of()).stream().findFirst()
                .map(c -> "?comp=" + c).orElse("");
        String stringToSign = method + "\n" + (md5 == null ? "" : md5) + "\n" + (contentType == null ? "" : contentType)
                + "\n" + signedDate + "\n/devstoreaccount1" + rawPath + comp;
        SignedRequest.Builder b = SignedRequest.builder().method(method).rawPath(rawPath).rawQuery(rawQuery)
                .header("Authorization", "SharedKey devstoreaccount1:" + sign(key, stringToSign));
        if (contentType != null) {
            b.header("Content-Type", contentType);
        }
        if (md5 != null) {
            b.header("Content-MD5", md5);
        }
        if (xmsDate != null) {
            b.header("x-ms-date", xmsDate);
        }
        if (date != null) {
            b.header("Date", date);
        }
        return b.build();
    }

    /** Like the .NET SDK: x-ms-date, signed. */
    static SignedRequest createTable() {
        return signed("POST", "/devstoreaccount1/Tables", null, "application/json; odata=nometadata", null,
                RFC1123_NOW, null, RFC1123_NOW, KEY);
    }

    private static Principal authenticate(SignedRequest r) {
        return emulatorAuthenticator(NOW).authenticate(r);
    }

    static Stream<Arguments> acceptedRequests() {
        return Stream.of(
                Arguments.of("create table over x-ms-date", createTable()),
                Arguments.of("signed over Date when only Date is sent",
                        signed("GET", "/devstoreaccount1/Tables", "$top=1", null, null, null, RFC1123_NOW, RFC1123_NOW, KEY)),
                Arguments.of("both dates sent, x-ms-date signed",
                        signed("GET", "/devstoreaccount1/mytable()", null, null, null, RFC1123_NOW, RFC1123_EARLIER, RFC1123_NOW, KEY)),
                Arguments.of("both dates sent, Date signed (as Azurite and older clients accept)",
                        signed("GET", "/devstoreaccount1/mytable()", null, null, null, RFC1123_NOW, RFC1123_EARLIER, RFC1123_EARLIER, KEY)),
                Arguments.of("comp=acl in the canonicalized resource",
                        signed("PUT", "/devstoreaccount1/mytable", "comp=acl", "application/xml", null, RFC1123_NOW, null, RFC1123_NOW, KEY)),
                Arguments.of("service properties with a trailing slash",
                        signed("GET", "/devstoreaccount1/", "restype=service&comp=properties", null, null, RFC1123_NOW, null, RFC1123_NOW, KEY)),
                Arguments.of("Content-MD5 signed",
                        signed("POST", "/devstoreaccount1/mytable", null, "application/json", "1B2M2Y8AsgTpgAmY7PhCfg==",
                                RFC1123_NOW, null, RFC1123_NOW, KEY)),
                Arguments.of("entity path with escapes",
                        signed("DELETE", "/devstoreaccount1/mytable(PartitionKey='a%20b',RowKey='%C3%BC''x')", null, null, null,
                                RFC1123_NOW, null, RFC1123_NOW, KEY)),
                Arguments.of("batch",
                        signed("POST", "/devstoreaccount1/$batch", null, "multipart/mixed; boundary=batch_1", null,
                                RFC1123_NOW, null, RFC1123_NOW, KEY)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("acceptedRequests")
    void acceptsRequestsSignedAsTheDocsDescribe(String description, SignedRequest request) {
        Principal p = authenticate(request);
        assertThat(p.kind()).isEqualTo(Principal.Kind.SHARED_KEY);
        assertThat(p.audit()).isEqualTo("SharedKey devstoreaccount1 key1");
    }

    static Stream<Arguments> tamperings() {
        return Stream.<Arguments>of(
                Arguments.of("another verb", (UnaryOperator<SignedRequest>) r -> withMethod(r, "PUT")),
                Arguments.of("another content type", (UnaryOperator<SignedRequest>) r -> withHeader(r, "Content-Type", "application/json")),
                Arguments.of("content type removed", (UnaryOperator<SignedRequest>) r -> withHeader(r, "Content-Type", null)),
                Arguments.of("a Content-MD5 added", (UnaryOperator<SignedRequest>) r -> withHeader(r, "Content-MD5", "1B2M2Y8AsgTpgAmY7PhCfg==")),
                Arguments.of("another date", (UnaryOperator<SignedRequest>) r -> withHeader(r, "x-ms-date", RFC1123_EARLIER)),
                Arguments.of("the date header removed", (UnaryOperator<SignedRequest>) r -> withHeader(r, "x-ms-date", null)),
                Arguments.of("another path", (UnaryOperator<SignedRequest>) r -> withRawPath(r, "/devstoreaccount1/Tables()")),
                Arguments.of("a comp parameter added", (UnaryOperator<SignedRequest>) r -> withQueryParameter(r, "comp", "acl")),
                Arguments.of("the signature of another key", (UnaryOperator<SignedRequest>) r -> withHeader(r, "Authorization",
                        signed("POST", "/devstoreaccount1/Tables", null, "application/json; odata=nometadata", null,
                                RFC1123_NOW, null, RFC1123_NOW, OTHER_KEY).header("Authorization").orElseThrow())),
                Arguments.of("a signature that is not base64", (UnaryOperator<SignedRequest>) r -> withHeader(r, "Authorization",
                        "SharedKey devstoreaccount1:not*base64")),
                Arguments.of("another account named", (UnaryOperator<SignedRequest>) r -> withHeader(r, "Authorization",
                        r.header("Authorization").orElseThrow().replace("devstoreaccount1:", "devstoreaccount2:"))),
                Arguments.of("another account addressed", (UnaryOperator<SignedRequest>) r -> withRawPath(r, "/devstoreaccount2/Tables")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("tamperings")
    void rejectsARequestThatDiffersFromWhatWasSigned(String description, UnaryOperator<SignedRequest> tamper) {
        SignedRequest original = createTable();
        assertThat(authenticate(original).kind()).isEqualTo(Principal.Kind.SHARED_KEY);
        assertFailsWith(ErrorCode.AUTHORIZATION_FAILURE, () -> authenticate(tamper.apply(original)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "SharedKey", "SharedKey devstoreaccount1", "SharedKey :c2ln", "SharedKey devstoreaccount1:",
            "Bearer eyJ0eXAiOiJKV1QifQ", "sharedkey devstoreaccount1:c2ln", "Basic ZGV2OnB3"})
    void rejectsAMalformedAuthorizationHeaderAsInvalidAuthenticationInfo(String header) {
        SignedRequest r = withHeader(createTable(), "Authorization", header);
        assertFailsWith(ErrorCode.INVALID_AUTHENTICATION_INFO, () -> authenticate(r));
    }

    @Test
    void rejectsTwoAuthorizationHeaders() {
        SignedRequest one = createTable();
        SignedRequest two = SignedRequest.builder().method("POST").rawPath(one.rawPath())
                .header("Authorization", one.header("Authorization").orElseThrow())
                .header("authorization", one.header("Authorization").orElseThrow())
                .header("x-ms-date", RFC1123_NOW).header("Content-Type", "application/json; odata=nometadata").build();
        assertFailsWith(ErrorCode.INVALID_AUTHENTICATION_INFO, () -> authenticate(two));
    }

    @Test
    void rejectsAValidSignatureOverAMissingOrUnreadableDate() {
        SignedRequest noDate = signed("GET", "/devstoreaccount1/Tables", null, null, null, null, null, "", KEY);
        assertFailsWith(ErrorCode.AUTHENTICATION_FAILED, () -> authenticate(noDate));
        SignedRequest badDate = signed("GET", "/devstoreaccount1/Tables", null, null, null, "yesterday", null, "yesterday", KEY);
        assertFailsWith(ErrorCode.AUTHENTICATION_FAILED, () -> authenticate(badDate));
        SignedRequest old = signed("GET", "/devstoreaccount1/Tables", null, null, null, "Mon, 01 Jan 2024 00:00:00 GMT",
                null, "Mon, 01 Jan 2024 00:00:00 GMT", KEY);
        assertFailsWith(ErrorCode.AUTHENTICATION_FAILED, () -> authenticate(old));
    }

    @Test
    void neverQuotesTheSignatureOrTheKeyInAnError() {
        SignedRequest r = createTable();
        String signature = r.header("Authorization").orElseThrow().substring("SharedKey devstoreaccount1:".length());
        for (UnaryOperator<SignedRequest> tamper : List.<UnaryOperator<SignedRequest>>of(
                x -> withMethod(x, "PUT"),
                x -> withHeader(x, "Authorization", "SharedKey " + signature),
                x -> withHeader(x, "Authorization", "Bogus " + signature),
                x -> withRawPath(x, "/devstoreaccount2/Tables"))) {
            try {
                authenticate(tamper.apply(r));
            } catch (TableServiceException e) {
                assertThat(e.getMessage()).doesNotContain(signature).doesNotContain(KEY).doesNotContain(KEY.substring(0, 12));
                continue;
            }
            throw new AssertionError("tampered request was accepted");
        }
    }

    @Test
    void acceptsTheSecondaryLocationSignedAsTheSdksSignIt() {
        // the SDKs sign /<account> + the path as sent, -secondary included
        SignedRequest r = signed("GET", "/devstoreaccount1-secondary/", "restype=service&comp=stats", null, null,
                RFC1123_NOW, null, RFC1123_NOW, KEY);

        Principal p = authenticate(r);

        assertThat(p.kind()).isEqualTo(Principal.Kind.SHARED_KEY);
        assertThat(p.account()).isEqualTo("devstoreaccount1");
    }

    @Test
    void acceptsTheSecondaryLocationSignedWithoutTheSuffixAsTheServiceDocumentsIt() {
        String stringToSign = "GET\n\n\n" + RFC1123_NOW + "\n/devstoreaccount1/devstoreaccount1/mytable()";
        SignedRequest r = SignedRequest.builder().method("GET").rawPath("/devstoreaccount1-secondary/mytable()")
                .header("x-ms-date", RFC1123_NOW)
                .header("Authorization", "SharedKey devstoreaccount1:" + sign(KEY, stringToSign)).build();

        assertThat(authenticate(r).account()).isEqualTo("devstoreaccount1");
    }

    @Test
    void acceptsThePythonSdksSecondaryPathSignedAsThePrimarysPath() {
        // Python sends /<account>-secondary/<account>/... and signs /<account> + /<account>/...
        String stringToSign = "GET\n\n\n" + RFC1123_NOW + "\n/devstoreaccount1/devstoreaccount1/?comp=stats";
        SignedRequest r = SignedRequest.builder().method("GET").rawPath("/devstoreaccount1-secondary/devstoreaccount1/")
                .rawQuery("restype=service&comp=stats").header("x-ms-date", RFC1123_NOW)
                .header("Authorization", "SharedKey devstoreaccount1:" + sign(KEY, stringToSign)).build();

        assertThat(authenticate(r).account()).isEqualTo("devstoreaccount1");
    }

    @Test
    void refusesASecondaryLocationSignatureMadeForAnotherPath() {
        SignedRequest r = signed("GET", "/devstoreaccount1-secondary/Tables", null, null, null, RFC1123_NOW, null,
                RFC1123_NOW, KEY);

        assertFailsWith(ErrorCode.AUTHORIZATION_FAILURE, () -> authenticate(withRawPath(r,
                "/devstoreaccount1-secondary/other()")));
    }
}
