package io.tablestream.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablestream.core.model.EmulatorAccount;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class SharedKeySigningTest {
    private static final byte[] KEY = Base64.getDecoder().decode(EmulatorAccount.KEY);
    private final SharedKeySigning signer = new SharedKeySigning(EmulatorAccount.NAME, KEY);

    @Test
    void signsAnAccountSasOverTheDocumentedStringToSign() {
        String sas = signer.accountSas("rwdlacu", Instant.parse("2030-01-02T03:04:05.678Z"));

        String stringToSign = "devstoreaccount1\nrwdlacu\nt\nsco\n\n2030-01-02T03:04:05Z\n\n\n2019-02-02\n";
        assertThat(sas).isEqualTo("sv=2019-02-02&ss=t&srt=sco&sp=rwdlacu&se=2030-01-02T03%3A04%3A05Z&sig="
                + java.net.URLEncoder.encode(SharedKeySigning.hmac(KEY, stringToSign), StandardCharsets.UTF_8));
        assertThat(URLDecoder.decode(sas.substring(sas.indexOf("sig=") + 4), StandardCharsets.UTF_8))
                .isEqualTo(signer.sign(stringToSign));
    }

    @Test
    void anInstanceSignsAsTheStaticMethodsDo() {
        assertThat(signer.sharedKeyLite("Mon, 01 Jan 2024 00:00:00 GMT", "/devstoreaccount1/T()", null))
                .isEqualTo(SharedKeySigning.sharedKeyLite(EmulatorAccount.NAME, KEY, "Mon, 01 Jan 2024 00:00:00 GMT",
                        "/devstoreaccount1/T()", null))
                .startsWith("SharedKeyLite devstoreaccount1:");
        assertThat(signer.sharedKey("GET", null, null, "d", "/devstoreaccount1/Tables", "acl"))
                .isEqualTo("SharedKey devstoreaccount1:" + SharedKeySigning.hmac(KEY,
                        "GET\n\n\nd\n/devstoreaccount1/devstoreaccount1/Tables?comp=acl"));
    }
}
