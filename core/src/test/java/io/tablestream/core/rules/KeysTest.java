package io.tablestream.core.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class KeysTest {
    @ParameterizedTest(name = "U+{0} allowed: {1}")
    @CsvSource({
        "0000, false", "0001, false", "0009, false", "000A, false", "000D, false", "001F, false",
        "0020, true", "0021, true", "0022, true", "0023, false", "0024, true", "0027, true",
        "002E, true", "002F, false", "0030, true", "003E, true", "003F, false", "0040, true",
        "005B, true", "005C, false", "005D, true", "007E, true",
        "007F, false", "0080, false", "0085, false", "009F, false", "00A0, true", "00A1, true",
        "D800, true", "DC00, true", "E000, true", "FEFF, true", "FFFE, true", "FFFF, true",
    })
    void allowsEveryCharacterButSlashBackslashHashQuestionMarkAndControls(String hex, boolean allowed) {
        char c = (char) Integer.parseInt(hex, 16);
        assertThat(Keys.isAllowed(c)).isEqualTo(allowed);
        String key = "a" + c + "b";
        assertThat(Keys.isValid(key)).isEqualTo(allowed);
        if (allowed && Character.isSurrogate(c)) {
            assertThatThrownBy(() -> Keys.validatePartitionKey(key)) // a lone surrogate is not well-formed text
                    .isInstanceOfSatisfying(TableServiceException.class,
                            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.OUT_OF_RANGE_INPUT));
        } else if (allowed) {
            assertThatCode(() -> Keys.validatePartitionKey(key)).doesNotThrowAnyException();
        } else {
            assertThatThrownBy(() -> Keys.validateRowKey(key))
                    .isInstanceOfSatisfying(TableServiceException.class, e -> {
                        assertThat(e.errorCode()).isEqualTo(ErrorCode.OUT_OF_RANGE_INPUT);
                        assertThat(e.getMessage()).contains("RowKey").contains("U+" + hex).contains("position 1");
                    });
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "~", "Smith", "\u00A0", "\uD83D\uDE00", "'; drop table --"})
    void acceptsTheEmptyKeyAndAnyAllowedCharacters(String key) {
        assertThat(Keys.isValid(key)).isTrue();
        assertThatCode(() -> Keys.validatePartitionKey(key)).doesNotThrowAnyException();
        assertThatCode(() -> Keys.validateRowKey(key)).doesNotThrowAnyException();
    }

    @ParameterizedTest
    @ValueSource(strings = {"\uD800", "\uDC00x", "a\uD83D", "\uDE00\uD83D"})
    void rejectsKeysWithUnpairedSurrogates(String key) {
        assertThatThrownBy(() -> Keys.validateRowKey(key))
                .isInstanceOfSatisfying(TableServiceException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.OUT_OF_RANGE_INPUT));
    }

    @Test
    void allows512CharactersButNot513() {
        assertThat(Keys.isValid("k".repeat(512))).isTrue();
        assertThatCode(() -> Keys.validatePartitionKey("\uFFFF".repeat(512))).doesNotThrowAnyException();
        assertThat(Keys.isValid("k".repeat(513))).isFalse();
        assertThatThrownBy(() -> Keys.validatePartitionKey("k".repeat(513)))
                .isInstanceOfSatisfying(TableServiceException.class, e -> {
                    assertThat(e.errorCode()).isEqualTo(ErrorCode.PROPERTY_VALUE_TOO_LARGE);
                    assertThat(e.getMessage()).contains("PartitionKey");
                });
    }

    @Test
    void countsASurrogatePairAsTwoCharacters() {
        assertThat(Keys.isValid("\uD83D\uDE00".repeat(256))).isTrue();
        assertThat(Keys.isValid("\uD83D\uDE00".repeat(256) + "x")).isFalse();
    }

    @Test
    void rejectsAMissingKeyAsPropertiesNeedValue() {
        assertThat(Keys.isValid(null)).isFalse();
        assertThatThrownBy(() -> Keys.validateRowKey(null))
                .isInstanceOfSatisfying(TableServiceException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.PROPERTIES_NEED_VALUE));
    }
}
