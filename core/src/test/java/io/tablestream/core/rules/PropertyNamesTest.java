package io.tablestream.core.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PropertyNamesTest {
    @ParameterizedTest
    @ValueSource(strings = {
        "Name", "name", "_", "_x", "__", "x1", "Age2", "a_b",
        "\u03A9mega",          // Greek capital omega
        "\u540D\u524D",        // CJK
        "\u00F1and\u00FA",     // precomposed Latin letters
        "caf\u0065\u0301",     // e + combining acute (Mn) inside
        "\u0915\u093F",        // Devanagari letter + spacing mark (Mc)
        "\u216Bx",             // Roman numeral twelve (Nl) may start
        "\u02B0x",             // modifier letter (Lm) may start
        "\u01C5x",             // titlecase letter (Lt) may start
        "a\u0663",             // Arabic-Indic digit (Nd) inside
        "x\u203Fy",            // undertie, a connector punctuation (Pc)
        "a\u200Db",            // zero-width joiner, a format character (Cf)
        "\uD835\uDC9Cbc",      // mathematical script capital A, a supplementary letter
    })
    void acceptsCSharpIdentifiers(String name) {
        assertThat(PropertyNames.isIdentifier(name)).isTrue();
        assertThatCode(() -> PropertyNames.validateCustom(name)).doesNotThrowAnyException();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "", "1abc", "9", "\u0663abc", "-a", "a-b", "a b", " a", "a.b", "a$b", "a/b", "@name", "a@b",
        "\u0301a",             // combining mark cannot start
        "\u200Da",             // format character cannot start
        "\u203Fa",             // connector punctuation other than '_' cannot start
        "a\u0000", "a\tb", "\uD800x", "x\uDC00",
    })
    void rejectsOtherNamesAsPropertyNameInvalid(String name) {
        assertThat(PropertyNames.isIdentifier(name)).isFalse();
        assertThatThrownBy(() -> PropertyNames.validateCustom(name))
                .isInstanceOfSatisfying(TableServiceException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.PROPERTY_NAME_INVALID));
    }

    @ParameterizedTest
    @ValueSource(strings = {"PartitionKey", "RowKey", "Timestamp"})
    void rejectsTheSystemPropertyNames(String name) {
        assertThat(PropertyNames.isSystem(name)).isTrue();
        assertThatThrownBy(() -> PropertyNames.validateCustom(name))
                .isInstanceOfSatisfying(TableServiceException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.PROPERTY_NAME_INVALID));
    }

    @Test
    void allowsNamesUpTo255Characters() {
        assertThatCode(() -> PropertyNames.validateCustom("a".repeat(255))).doesNotThrowAnyException();
        assertThatCode(() -> PropertyNames.validateCustom("_" + "\u540D".repeat(254))).doesNotThrowAnyException();
    }

    @Test
    void rejectsA256CharacterNameAsPropertyNameTooLong() {
        for (String name : new String[] {"a".repeat(256), "\uD835\uDC9C".repeat(128), "1".repeat(300)}) {
            assertThatThrownBy(() -> PropertyNames.validateCustom(name))
                    .isInstanceOfSatisfying(TableServiceException.class,
                            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.PROPERTY_NAME_TOO_LONG));
        }
    }
}
