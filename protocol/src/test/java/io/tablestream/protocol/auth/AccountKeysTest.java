package io.tablestream.protocol.auth;

import static io.tablestream.protocol.auth.AuthFixtures.KEY;
import static io.tablestream.protocol.auth.AuthFixtures.OTHER_KEY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AccountKeysTest {

    @Test
    void holdsTheEmulatorAccountWithItsWellKnownKey() {
        AccountKeys keys = AccountKeys.emulator();
        assertThat(keys.accounts()).containsExactly("devstoreaccount1");
        assertThat(keys.keysOf("devstoreaccount1")).hasSize(1);
        assertThat(keys.keysOf("devstoreaccount1").get(0).sign("x")).isEqualTo(AuthFixtures.sign(KEY, "x"));
        assertThat(keys.keysOf("nosuchaccount")).isEmpty();
    }

    @Test
    void holdsTwoKeysPerAccountInOrder() {
        AccountKeys keys = AccountKeys.builder().emulatorAccount().account("prod1", OTHER_KEY, KEY).build();
        assertThat(keys.accounts()).containsExactly("devstoreaccount1", "prod1");
        assertThat(keys.keysOf("prod1")).extracting(AccountKey::label).containsExactly("key1", "key2");
        assertThat(keys.keysOf("prod1").get(1).sign("x")).isEqualTo(AuthFixtures.sign(KEY, "x"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"ab", "Devstore", "dev-store", "a234567890123456789012345", ""})
    void rejectsAccountNamesTheServiceWouldNot(String name) {
        assertThatThrownBy(() -> AccountKeys.builder().account(name, KEY)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void rejectsAKeyThatIsNotBase64WithoutQuotingIt() {
        String notBase64 = "this is !!not base64 SECRET";
        assertThatThrownBy(() -> AccountKeys.builder().account("prod1", notBase64))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageNotContaining("SECRET")
                .hasMessageContaining("prod1");
        assertThatThrownBy(() -> AccountKeys.builder().account("prod1", "")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void printsAccountsButNoKeys() {
        AccountKeys keys = AccountKeys.emulator();
        assertThat(keys.toString()).contains("devstoreaccount1").doesNotContain(KEY.substring(0, 10));
        assertThat(keys.keysOf("devstoreaccount1").get(0).toString()).isEqualTo("key1");
    }
}
