package io.tablestream.protocol.auth;

import static io.tablestream.protocol.auth.AuthFixtures.KEY;
import static io.tablestream.protocol.auth.AuthFixtures.NOW;
import static io.tablestream.protocol.auth.AuthFixtures.assertFailsWith;
import static io.tablestream.protocol.auth.AuthFixtures.clockAt;
import static io.tablestream.protocol.auth.AuthFixtures.emulatorAuthenticator;
import static io.tablestream.protocol.auth.AuthFixtures.sasRequest;
import static io.tablestream.protocol.auth.AuthFixtures.withHeader;
import static io.tablestream.protocol.auth.AuthFixtures.withQueryParameter;
import static io.tablestream.protocol.auth.AuthFixtures.withRawPath;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.sas.TableSasPermission;
import com.azure.data.tables.sas.TableSasSignatureValues;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.model.TableName;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** How the authenticator picks a scheme, anonymous access, and what its errors never say. */
class AuthenticationTest {
    static final TableName T = TableName.of("mytable");

    static SignedRequest unsigned(String path) {
        return SignedRequest.builder().method("GET").rawPath(path).rawQuery("$filter=x").build();
    }

    static Authentication anonymousAllowed() {
        return new Authentication(AccountKeys.emulator(), StoredAccessPolicies.NONE, clockAt(NOW),
                AuthenticationSettings.defaults().withAnonymousAccess(true));
    }

    @Test
    void rejectsARequestWithoutCredentialsAsAuthorizationFailure() {
        assertFailsWith(ErrorCode.AUTHORIZATION_FAILURE, () -> emulatorAuthenticator(NOW).authenticate(unsigned("/devstoreaccount1/Tables")));
    }

    @Test
    void letsAnUnsignedRequestInOnlyWhenTheOperatorAllowsIt() {
        Principal p = anonymousAllowed().authenticate(unsigned("/devstoreaccount1/Tables"));
        assertThat(p.kind()).isEqualTo(Principal.Kind.ANONYMOUS);
        assertThat(p.audit()).isEqualTo("Anonymous devstoreaccount1");
        p.authorize(Access.setTableAcl(T));
        p.authorize(Access.deleteEntity(T, "p", "r"));
        assertThat(p.accessRange()).isEqualTo(TableAccessRange.ALL);
    }

    @Test
    void letsNoAnonymousRequestIntoAnUnknownAccount() {
        assertFailsWith(ErrorCode.AUTHORIZATION_FAILURE, () -> anonymousAllowed().authenticate(unsigned("/nosuchaccount/Tables")));
        assertFailsWith(ErrorCode.AUTHORIZATION_FAILURE, () -> anonymousAllowed().authenticate(unsigned("/")));
    }

    @Test
    void neverFallsBackToAnonymousWhenCredentialsAreWrong() {
        SignedRequest badKey = withHeader(unsigned("/devstoreaccount1/Tables"), "Authorization", "SharedKey devstoreaccount1:AAAA");
        assertFailsWith(ErrorCode.AUTHORIZATION_FAILURE, () -> anonymousAllowed().authenticate(badKey));
        SignedRequest badSas = sasRequest("GET", "/devstoreaccount1/mytable()", "sv=2019-02-02&tn=mytable&sp=r&se=2031-01-01&sig=AAAA");
        assertFailsWith(ErrorCode.AUTHORIZATION_FAILURE, () -> anonymousAllowed().authenticate(badSas));
    }

    @Test
    void rejectsASignatureThatNamesNeitherATableNorServices() {
        SignedRequest r = sasRequest("GET", "/devstoreaccount1/mytable()", "sv=2019-02-02&sp=r&se=2031-01-01&sig=AAAA");
        assertFailsWith(ErrorCode.AUTHENTICATION_FAILED, () -> emulatorAuthenticator(NOW).authenticate(r));
    }

    @Test
    void prefersTheAuthorizationHeaderToASas() {
        String sas = ServiceSasTest.SDK.generateSas(new TableSasSignatureValues(NOW.plusSeconds(60).atOffset(java.time.ZoneOffset.UTC),
                TableSasPermission.parse("r")));
        SignedRequest both = withHeader(sasRequest("GET", "/devstoreaccount1/mytable()", sas), "Authorization", "SharedKey devstoreaccount1:AAAA");
        assertFailsWith(ErrorCode.AUTHORIZATION_FAILURE, () -> emulatorAuthenticator(NOW).authenticate(both));
        assertThat(emulatorAuthenticator(NOW).authenticate(withHeader(both, "Authorization", null)).kind())
                .isEqualTo(Principal.Kind.SERVICE_SAS);
    }

    @Test
    void letsTheAccountKeyDoEverything() {
        SignedRequest r = SharedKeyTest.createTable();
        Principal p = emulatorAuthenticator(NOW).authenticate(r);
        for (Access access : List.of(Access.queryTables(), Access.createTable(T), Access.deleteTable(T), Access.getTableAcl(T),
                Access.setTableAcl(T), Access.getServiceProperties(), Access.setServiceProperties(), Access.getServiceStats(),
                Access.submitBatch(), Access.preflight(), Access.queryEntities(T), Access.upsertEntity(T, "", ""))) {
            p.authorize(access);
        }
        assertThat(p.keyRange().kind()).isEqualTo(io.tablestream.core.filter.KeyRange.Kind.TABLE_SCAN);
        assertThat(p.contains("any", "thing")).isTrue();
    }

    static Stream<UnaryOperator<SignedRequest>> sasTamperings() {
        return Stream.of(
                r -> withQueryParameter(r, "sig", r.queryParameter("sig").orElseThrow().substring(1)),
                r -> withQueryParameter(r, "sp", "r"),
                r -> withQueryParameter(r, "se", "2020-01-01T00:00:00Z"),
                r -> withQueryParameter(r, "sv", "1999-01-01"),
                r -> withRawPath(r, "/nosuchaccount/mytable()"));
    }

    @ParameterizedTest
    @MethodSource("sasTamperings")
    void neverQuotesASasSignatureOrTheKeyInAnError(UnaryOperator<SignedRequest> tamper) {
        String sas = ServiceSasTest.SDK.generateSas(new TableSasSignatureValues(NOW.plusSeconds(60).atOffset(java.time.ZoneOffset.UTC),
                TableSasPermission.parse("raud")));
        SignedRequest r = sasRequest("GET", "/devstoreaccount1/mytable()", sas);
        String sig = r.queryParameter("sig").orElseThrow();
        try {
            emulatorAuthenticator(NOW).authenticate(tamper.apply(r));
        } catch (TableServiceException e) {
            assertThat(e.getMessage()).doesNotContain(sig).doesNotContain(sig.substring(1)).doesNotContain(KEY.substring(0, 12));
            assertThat(e.httpStatus()).isEqualTo(403);
            return;
        }
        throw new AssertionError("tampered SAS was accepted");
    }

    @Test
    void comparesSignaturesExactly() {
        // the constant-time comparison itself is checked by reading AccountKey.signed;
        // here: it is exact, not a prefix or case-insensitive match
        AccountKey key = new AccountKey("key1", new byte[] {1, 2, 3});
        String signature = key.sign("GET\n/a/b");
        assertThat(key.signed("GET\n/a/b", signature)).isTrue();
        assertThat(key.signed("GET\n/a/b", signature.substring(0, signature.length() - 1))).isFalse();
        assertThat(key.signed("GET\n/a/b", signature.toLowerCase(java.util.Locale.ROOT))).isFalse();
        assertThat(key.signed("GET\n/a/b", signature + "=")).isFalse();
        assertThat(key.signed("GET\n/a/b", "")).isFalse();
    }
}
