package io.tablestream.server.robustness;

import static io.tablestream.server.ServiceErrors.assertServiceError;
import static org.assertj.core.api.Assertions.assertThat;

import io.tablestream.core.model.EmulatorAccount;
import io.tablestream.server.RawTableClient;
import io.tablestream.client.SharedKeySigning;
import io.tablestream.server.TablestreamServerExtension;
import io.tablestream.server.TablestreamServerExtension.RunningServer;
import io.tablestream.testsupport.KafkaExtension;
import java.nio.charset.StandardCharsets;
import java.time.ZonedDateTime;
import java.util.Base64;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Requests whose credentials are missing, malformed, for another account, stale or forged. */
@ExtendWith({KafkaExtension.class, TablestreamServerExtension.class})
class AuthorizationHeaderIT {
    private static RawTableClient client;
    private static String table;

    @BeforeAll
    static void createTable(RunningServer server) {
        client = new RawTableClient(server.port());
        table = "RobustAuth" + System.nanoTime() % 1_000_000;
        server.client().createTable(table);
    }

    @Test
    void rejectsAnUnsignedRequestAsAuthorizationFailure() {
        assertServiceError(client.get("Tables").unsigned().send(), 403, "AuthorizationFailure");
        assertServiceError(client.request("POST", table).unsigned().body("{\"PartitionKey\":\"p\",\"RowKey\":\"r\"}")
                .send(), 403, "AuthorizationFailure");
        assertServiceError(client.request("POST", "Tables").unsigned().body("{\"TableName\":\"Unsigned1\"}").send(),
                403, "AuthorizationFailure");
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "garbage",
            "SharedKeyLite",
            "SharedKeyLite devstoreaccount1",
            "SharedKeyLite devstoreaccount1:",
            "SharedKeyLite :c2lnbmF0dXJl",
            "Basic dXNlcjpwYXNzd29yZA==",
            "Bearer eyJhbGciOiJub25lIn0.e30."})
    void rejectsAMalformedAuthorizationHeader(String authorization) {
        assertServiceError(client.get("Tables").unsigned().header("Authorization", authorization).send(), 400,
                "InvalidAuthenticationInfo");
    }

    @Test
    void rejectsTwoAuthorizationHeaders() {
        RawTableClient.Request r = client.get("Tables");
        String signature = signatureFor(r);

        assertServiceError(client.get("Tables").header("Authorization", signature).send(), 400,
                "InvalidAuthenticationInfo");
    }

    @Test
    void rejectsASignatureMadeForAnotherAccount() {
        String date = SharedKeySigning.httpDate(ZonedDateTime.now());
        String forOther = SharedKeySigning.sharedKeyLite("otheraccount", key(), date, "/devstoreaccount1/Tables", null);

        assertServiceError(client.get("Tables").unsigned().date(date).header("Authorization", forOther).send(), 403,
                "AuthorizationFailure");
    }

    @Test
    void rejectsASignatureMadeWithAnotherKey() {
        String date = SharedKeySigning.httpDate(ZonedDateTime.now());
        byte[] otherKey = "not the account key, just 32 bytes".getBytes(StandardCharsets.UTF_8);
        String forged = SharedKeySigning.sharedKeyLite(RawTableClient.ACCOUNT, otherKey, date, "/devstoreaccount1/Tables",
                null);

        assertServiceError(client.get("Tables").unsigned().date(date).header("Authorization", forged).send(), 403,
                "AuthorizationFailure");
    }

    @Test
    void rejectsASignatureOverAnotherPath() {
        String date = SharedKeySigning.httpDate(ZonedDateTime.now());
        String forTables = SharedKeySigning.sharedKeyLite(RawTableClient.ACCOUNT, key(), date, "/devstoreaccount1/Tables",
                null);

        RawTableClient.Response r = client.request("POST", table).unsigned().date(date)
                .header("Authorization", forTables).body("{\"PartitionKey\":\"p\",\"RowKey\":\"r\"}").send();

        assertServiceError(r, 403, "AuthorizationFailure");
    }

    @ParameterizedTest
    @ValueSource(ints = {-60, -16, 16, 60 * 24})
    void rejectsARequestDatedTooFarFromNow(int minutes) {
        String date = SharedKeySigning.httpDate(ZonedDateTime.now().plusMinutes(minutes));

        assertServiceError(client.get("Tables").date(date).send(), 403, "AuthenticationFailed");
    }

    @ParameterizedTest
    @ValueSource(strings = {"yesterday", "2024-01-01T00:00:00Z", ""})
    void rejectsASignedDateThatIsNotADate(String date) {
        assertServiceError(client.get("Tables").date(date).send(), 403, "AuthenticationFailed");
    }

    @Test
    void rejectsASignedRequestWithoutADate() {
        String signature = SharedKeySigning.sharedKeyLite(RawTableClient.ACCOUNT, key(), "", "/devstoreaccount1/Tables", null);

        assertServiceError(client.get("Tables").unsigned().date(null).header("Authorization", signature).send(), 403,
                "AuthenticationFailed");
    }

    @Test
    void acceptsTheSameRequestWhenSignedProperly() {
        assertThat(client.get("Tables").send().status()).isEqualTo(200);
    }

    private static String signatureFor(RawTableClient.Request r) {
        return r.allHeaders().stream().filter(h -> h[0].equals("Authorization")).findFirst().orElseThrow()[1];
    }

    private static byte[] key() {
        return Base64.getDecoder().decode(EmulatorAccount.KEY);
    }
}
