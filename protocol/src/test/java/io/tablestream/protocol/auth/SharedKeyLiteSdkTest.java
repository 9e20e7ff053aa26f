package io.tablestream.protocol.auth;

import static io.tablestream.protocol.auth.AuthFixtures.ACCOUNT;
import static io.tablestream.protocol.auth.AuthFixtures.KEY;
import static io.tablestream.protocol.auth.AuthFixtures.OTHER_KEY;
import static io.tablestream.protocol.auth.AuthFixtures.assertFailsWith;
import static io.tablestream.protocol.auth.AuthFixtures.authenticator;
import static io.tablestream.protocol.auth.AuthFixtures.sign;
import static io.tablestream.protocol.auth.AuthFixtures.withHeader;
import static io.tablestream.protocol.auth.AuthFixtures.withMethod;
import static io.tablestream.protocol.auth.AuthFixtures.withQueryParameter;
import static io.tablestream.protocol.auth.AuthFixtures.withRawPath;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableServiceProperties;
import com.azure.data.tables.models.TableSignedIdentifier;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionType;
import io.tablestream.core.error.ErrorCode;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The official Java SDK (azure-data-tables 12.5.9) as the oracle: it signs every request with
 * SharedKeyLite over the Date header and {@code /account + path (+ ?comp=)}. Its requests are
 * captured off the wire by a local server and fed to the authenticator.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SharedKeyLiteSdkTest {
    /** Keys with every character class that matters for the path's encoding. */
    static final String SPECIAL_PK = "O'Brien & Sons (Ltd.) 100% $ +";
    static final String SPECIAL_RK = "ü€𝄞 /?#,;=";

    private RecordingTableServer server;
    private final Map<String, RecordingTableServer.Captured> requests = new LinkedHashMap<>();

    @BeforeAll
    void captureWhatTheSdkSends() throws Exception {
        server = new RecordingTableServer();
        TableServiceClient service = new TableServiceClientBuilder()
                .connectionString(server.connectionString(ACCOUNT, KEY)).buildClient();
        TableClient table = service.getTableClient("mytable");
        run("create table", () -> service.createTable("mytable"));
        run("insert with special keys", () -> table.createEntity(new TableEntity(SPECIAL_PK, SPECIAL_RK).addProperty("n", 1)));
        run("get entity with special keys", () -> table.getEntity(SPECIAL_PK, SPECIAL_RK));
        run("query with filter", () -> table.listEntities(
                new ListEntitiesOptions().setFilter("PartitionKey eq 'O''Brien' and RowKey ge 'a'"), null, null)
                .iterator().hasNext());
        run("update entity", () -> table.updateEntity(new TableEntity("p", "r")));
        run("upsert entity", () -> table.upsertEntity(new TableEntity("p", "r")));
        run("delete entity with special keys", () -> table.deleteEntity(SPECIAL_PK, SPECIAL_RK));
        run("batch", () -> table.submitTransaction(List.of(
                new TableTransactionAction(TableTransactionActionType.CREATE, new TableEntity("p", "r1")),
                new TableTransactionAction(TableTransactionActionType.DELETE, new TableEntity("p", "r2")))));
        run("get table acl", table::getAccessPolicies);
        run("set table acl", () -> table.setAccessPolicies(List.of(new TableSignedIdentifier("policy1"))));
        run("get service properties", service::getProperties);
        run("set service properties", () -> service.setProperties(new TableServiceProperties()));
        run("query tables", () -> service.listTables().iterator().hasNext());
        run("delete table", () -> service.deleteTable("mytable"));
    }

    private void run(String name, Runnable sdkCall) {
        server.clear();
        try {
            sdkCall.run();
        } catch (RuntimeException ignored) {
            // the recording server's answers are minimal; only the request matters here
        }
        assertThat(server.captured()).as("requests sent for %s", name).hasSize(1);
        requests.put(name, server.last());
    }

    @AfterAll
    void stop() {
        server.close();
    }

    Stream<String> operations() {
        return requests.keySet().stream();
    }

    private SignedRequest request(String name) {
        return requests.get(name).toSignedRequest();
    }

    private static Instant dateOf(SignedRequest r) {
        return ZonedDateTime.parse(r.header("Date").orElseThrow(), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
    }

    private static Principal authenticate(SignedRequest r) {
        return authenticator(AccountKeys.emulator(), dateOf(r).plusSeconds(5)).authenticate(r);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("operations")
    void acceptsEveryRequestTheSdkSigns(String operation) {
        SignedRequest r = request(operation);
        Principal p = authenticate(r);
        assertThat(p.kind()).isEqualTo(Principal.Kind.SHARED_KEY_LITE);
        assertThat(p.account()).isEqualTo(ACCOUNT);
        assertThat(p.audit()).isEqualTo("SharedKeyLite devstoreaccount1 key1");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("operations")
    void rejectsTheSdkRequestWhenAnotherKeySigned(String operation) {
        SignedRequest r = request(operation);
        AccountKeys otherKey = AccountKeys.builder().account(ACCOUNT, OTHER_KEY).build();
        assertFailsWith(ErrorCode.AUTHORIZATION_FAILURE, () -> authenticator(otherKey, dateOf(r)).authenticate(r));
    }

    @Test
    void acceptsASignatureMadeWithTheSecondKey() {
        SignedRequest r = request("create table");
        AccountKeys keys = AccountKeys.builder().account(ACCOUNT, OTHER_KEY, KEY).build();
        assertThat(authenticator(keys, dateOf(r)).authenticate(r).audit()).isEqualTo("SharedKeyLite devstoreaccount1 key2");
    }

    @Test
    void sdkSignsTheDateHeaderAndThePathAsSentWithTheAccountTwice() {
        SignedRequest r = request("get table acl");
        assertThat(r.header("x-ms-date")).isEmpty();
        assertThat(r.header("x-ms-version")).contains("2020-12-06");
        String expected = sign(KEY, r.header("Date").orElseThrow() + "\n/devstoreaccount1/devstoreaccount1/mytable?comp=acl");
        assertThat(r.header("Authorization")).contains("SharedKeyLite devstoreaccount1:" + expected);
    }

    @Test
    void sdkSendsKeysPercentEncodedExceptQuotesParenthesesAndSubDelimiters() {
        // evidence for the router and for signing: the path is signed exactly in this encoding
        assertThat(request("get entity with special keys").rawPath()).isEqualTo("/devstoreaccount1/mytable("
                + "PartitionKey='O''Brien%20&%20Sons%20(Ltd.)%20100%25%20$%20+',"
                + "RowKey='%C3%BC%E2%82%AC%F0%9D%84%9E%20%2F%3F%23,;=')");
        assertThat(request("batch").rawPath()).isEqualTo("/devstoreaccount1/$batch");
        assertThat(request("get service properties").rawPath()).isEqualTo("/devstoreaccount1");
        assertThat(request("get service properties").query()).containsEntry("comp", List.of("properties"))
                .containsEntry("restype", List.of("service"));
        assertThat(request("delete table").rawPath()).isEqualTo("/devstoreaccount1/Tables('mytable')");
        assertThat(request("query with filter").rawPath()).isEqualTo("/devstoreaccount1/mytable()");
        assertThat(request("update entity").method()).isEqualTo("PATCH");
    }

    @Test
    void rejectsThePathDecodedOrEncodedDifferentlyFromWhatWasSigned() {
        SignedRequest r = request("get entity with special keys");
        String raw = r.rawPath();
        for (String other : List.of(
                raw.replace("%20", " "),                       // decoded spaces
                raw.replace("'", "%27"),                       // quotes encoded
                raw.replace("(", "%28"),                       // parentheses encoded
                raw.replace("%C3%BC", "%c3%bc"),               // lower-case escapes
                SignedRequest.percentDecode(raw, false),       // fully decoded
                raw.replace("mytable", "MYTABLE"))) {          // other case
            assertFailsWith(ErrorCode.AUTHORIZATION_FAILURE, () -> authenticate(withRawPath(r, other)));
        }
    }

    @Test
    void rejectsAnotherResourceTheSignatureWasNotMadeFor() {
        SignedRequest insert = request("insert with special keys");
        assertFailsWith(ErrorCode.AUTHORIZATION_FAILURE, () -> authenticate(withRawPath(insert, "/devstoreaccount1/othertable")));
        assertFailsWith(ErrorCode.AUTHORIZATION_FAILURE, () -> authenticate(withRawPath(insert, "/devstoreaccount1/mytable/")));
        assertFailsWith(ErrorCode.AUTHORIZATION_FAILURE, () -> authenticate(withQueryParameter(insert, "comp", "acl")));
        SignedRequest acl = request("get table acl");
        assertFailsWith(ErrorCode.AUTHORIZATION_FAILURE, () -> authenticate(withQueryParameter(acl, "comp", null)));
        assertFailsWith(ErrorCode.AUTHORIZATION_FAILURE, () -> authenticate(withQueryParameter(acl, "comp", "properties")));
    }

    @Test
    void signsOnlyTheCompQueryParameter() {
        SignedRequest query = request("query with filter");
        SignedRequest otherFilter = withQueryParameter(query, "$filter", "PartitionKey eq 'x'");
        assertThat(authenticate(withQueryParameter(otherFilter, "$top", "5")).kind()).isEqualTo(Principal.Kind.SHARED_KEY_LITE);
    }

    @Test
    void doesNotSignTheVerbOrContentTypeInSharedKeyLite() {
        SignedRequest insert = request("insert with special keys");
        assertThat(authenticate(withMethod(withHeader(insert, "Content-Type", "text/plain"), "PUT")).kind())
                .isEqualTo(Principal.Kind.SHARED_KEY_LITE);
    }

    @Test
    void rejectsATamperedDate() {
        SignedRequest r = request("create table");
        String otherDate = DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.parse(
                r.header("Date").orElseThrow(), DateTimeFormatter.RFC_1123_DATE_TIME).plusSeconds(1));
        Authentication authenticator = authenticator(AccountKeys.emulator(), dateOf(r));
        assertFailsWith(ErrorCode.AUTHORIZATION_FAILURE, () -> authenticator.authenticate(withHeader(r, "Date", otherDate)));
        assertFailsWith(ErrorCode.AUTHORIZATION_FAILURE, () -> authenticator.authenticate(withHeader(r, "Date", null)));
        // x-ms-date takes precedence: the signature over the Date header alone only counts when it equals
        // the signed date or both are sent (see SharedKeyTest)
        assertFailsWith(ErrorCode.AUTHORIZATION_FAILURE,
                () -> authenticator.authenticate(withHeader(withHeader(r, "Date", null), "x-ms-date", otherDate)));
    }

    @Test
    void rejectsTheSignatureUnderAnotherSchemeOrAccount() {
        SignedRequest r = request("create table");
        String auth = r.header("Authorization").orElseThrow();
        assertFailsWith(ErrorCode.AUTHORIZATION_FAILURE,
                () -> authenticate(withHeader(r, "Authorization", auth.replace("SharedKeyLite ", "SharedKey "))));
        AccountKeys two = AccountKeys.builder().emulatorAccount().account("otheraccount", KEY).build();
        SignedRequest elsewhere = withRawPath(r, "/otheraccount/Tables");
        assertFailsWith(ErrorCode.AUTHORIZATION_FAILURE, () -> authenticator(two, dateOf(r)).authenticate(elsewhere));
        SignedRequest unknownAccount = withRawPath(r, "/nosuchaccount/Tables");
        assertFailsWith(ErrorCode.AUTHORIZATION_FAILURE, () -> authenticate(unknownAccount));
    }

    @Test
    void rejectsTheRequestWithoutItsAuthorizationHeader() {
        SignedRequest r = withHeader(request("create table"), "Authorization", null);
        assertFailsWith(ErrorCode.AUTHORIZATION_FAILURE, () -> authenticate(r));
    }

    @Test
    void acceptsARequestDateUpToFifteenMinutesAwayAndNoFurther() {
        SignedRequest r = request("create table");
        Instant date = dateOf(r);
        for (Duration ok : List.of(Duration.ofMinutes(15), Duration.ofMinutes(-15), Duration.ZERO)) {
            assertThat(authenticator(AccountKeys.emulator(), date.plus(ok)).authenticate(r)).isNotNull();
        }
        for (Duration late : List.of(Duration.ofMinutes(15).plusSeconds(1), Duration.ofMinutes(-16))) {
            assertFailsWith(ErrorCode.AUTHENTICATION_FAILED,
                    () -> authenticator(AccountKeys.emulator(), date.plus(late)).authenticate(r));
        }
        Authentication lenient = new Authentication(AccountKeys.emulator(), StoredAccessPolicies.NONE,
                AuthFixtures.clockAt(date.plus(Duration.ofDays(3))), AuthenticationSettings.defaults().withoutRequestDateCheck());
        assertThat(lenient.authenticate(r).kind()).isEqualTo(Principal.Kind.SHARED_KEY_LITE);
    }
}
