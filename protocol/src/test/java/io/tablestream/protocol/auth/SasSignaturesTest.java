package io.tablestream.protocol.auth;

import static io.tablestream.protocol.auth.AuthFixtures.ACCOUNT;
import static io.tablestream.protocol.auth.AuthFixtures.KEY;
import static io.tablestream.protocol.auth.AuthFixtures.OTHER_KEY;
import static io.tablestream.protocol.auth.AuthFixtures.assertFailsWith;
import static io.tablestream.protocol.auth.AuthFixtures.sign;
import static org.assertj.core.api.Assertions.assertThat;

import io.tablestream.core.error.ErrorCode;
import org.junit.jupiter.api.Test;

class SasSignaturesTest {
    private final SasSignatures signatures = new SasSignatures(
            AccountKeys.builder().account(ACCOUNT, KEY, OTHER_KEY).build());

    @Test
    void holdsAVerifiedSignatureAndAnswersItAgainWithTheSameKey() {
        String signed = "r\n\n2030-01-01\n";
        assertThat(signatures.verify(ACCOUNT, signed, sign(KEY, signed), "account").label()).isEqualTo("key1");
        assertThat(signatures.held()).isEqualTo(1);
        assertThat(signatures.verify(ACCOUNT, signed, sign(KEY, signed), "account").label()).isEqualTo("key1");
        assertThat(signatures.verify(ACCOUNT, signed, sign(OTHER_KEY, signed), "account").label()).isEqualTo("key2");
        assertThat(signatures.held()).isEqualTo(1);
    }

    @Test
    void neverHoldsAMismatchAndRejectsItAfterAMatchOfTheSameString() {
        String signed = "r\n\n2030-01-01\n";
        assertFailsWith(ErrorCode.AUTHORIZATION_FAILURE, () -> signatures.verify(ACCOUNT, signed, "AAAA", "account"));
        assertThat(signatures.held()).isZero();
        signatures.verify(ACCOUNT, signed, sign(KEY, signed), "account");
        assertFailsWith(ErrorCode.AUTHORIZATION_FAILURE, () -> signatures.verify(ACCOUNT, signed, "AAAA", "account"));
        assertFailsWith(ErrorCode.AUTHORIZATION_FAILURE,
                () -> signatures.verify("otheraccount", signed, sign(KEY, signed), "account"));
    }

    @Test
    void holdsAtMostItsBound() {
        for (int i = 0; i < SasSignatures.MAX_HELD + 10; i++) {
            String signed = "r\n\n" + i + "\n";
            signatures.verify(ACCOUNT, signed, sign(KEY, signed), "account");
        }
        assertThat(signatures.held()).isBetween(1, SasSignatures.MAX_HELD);
    }
}
