package io.tablestream.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablestream.core.model.EmulatorAccount;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Connection strings, request signing, and what a $batch answer says. */
class TableAccountTest {
    @Test
    void readsTheConnectionStringsOfTheEmulatorOfAzureAndOfASas() {
        TableAccount emulator = TableAccount.parse("UseDevelopmentStorage=true");
        assertThat(emulator.endpoint()).isEqualTo("http://127.0.0.1:10002/devstoreaccount1");
        assertThat(emulator.name()).isEqualTo("devstoreaccount1");

        TableAccount azure = TableAccount.parse("DefaultEndpointsProtocol=https;AccountName=acct;AccountKey="
                + EmulatorAccount.KEY + ";EndpointSuffix=core.windows.net");
        assertThat(azure.endpoint()).isEqualTo("https://acct.table.core.windows.net");

        TableAccount sas = TableAccount.parse("TableEndpoint=http://h:1/acct2/;SharedAccessSignature=?sv=1&sig=x");
        assertThat(sas.name()).isEqualTo("acct2");
        assertThat(sas.endpoint()).isEqualTo("http://h:1/acct2");
        assertThat(sas.sas()).isEqualTo("sv=1&sig=x");
        assertThat(sas.authorization("date", "/acct2/T()", null)).isNull();

        assertThatThrownBy(() -> TableAccount.parse("AccountName=a")).hasMessageContaining("AccountKey");
    }

    @Test
    void signsSharedKeyLiteOverTheDateAndTheAccountAndRawPath() throws Exception {
        TableAccount account = TableAccount.parse(TableAccount.EMULATOR_CONNECTION_STRING);
        String expected = io.tablestream.client.SharedKeySigning.sharedKeyLite("devstoreaccount1",
                java.util.Base64.getDecoder().decode(EmulatorAccount.KEY),
                "Mon, 01 Jan 2024 00:00:00 GMT", "/devstoreaccount1/T()", null);

        assertThat(account.authorization("Mon, 01 Jan 2024 00:00:00 GMT", "/devstoreaccount1/T()", null))
                .isEqualTo(expected);
        assertThat(TableAccount.now()).matches("[A-Z][a-z]{2}, \\d{2} [A-Z][a-z]{2} \\d{4} \\d{2}:\\d{2}:\\d{2} GMT");
    }

    @Test
    void keysInAnAddressAreQuotedAndEncoded() {
        assertThat(TableServiceHttp.keyLiteral("it's a+b/ü")).isEqualTo("it%27%27s%20a%2Bb%2F%C3%BC");
    }

    @Test
    void aRefusedChangeSetNamesItsFailingOperation() {
        String body = "--batchresponse_1\r\nContent-Type: multipart/mixed; boundary=changesetresponse_1\r\n\r\n"
                + "--changesetresponse_1\r\nContent-Type: application/http\r\n\r\nHTTP/1.1 400 Bad Request\r\n"
                + "Content-Type: application/json\r\n\r\n{\"odata.error\":{\"code\":\"InvalidInput\",\"message\":"
                + "{\"lang\":\"en-US\",\"value\":\"3:One of the request inputs is not valid.\"}}}\r\n"
                + "--changesetresponse_1--\r\n--batchresponse_1--\r\n";
        BatchResult r = BatchResult.of(new TableServiceHttp.Answer(202, java.util.Map.of(),
                body.getBytes(StandardCharsets.UTF_8)), 5);
        assertThat(r.applied()).isFalse();
        assertThat(r.failedOperation()).isEqualTo(3);
        assertThat(r.failure()).isEqualTo("400 InvalidInput: 3:One of the request inputs is not valid.");

        String ok = "--b\r\n\r\n--c\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n--c\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n--c--\r\n--b--";
        assertThat(BatchResult.of(new TableServiceHttp.Answer(202, java.util.Map.of(),
                ok.getBytes(StandardCharsets.UTF_8)), 2).applied()).isTrue();
    }
}
