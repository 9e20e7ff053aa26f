package io.tablestream.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import java.util.Locale;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TableNameTest {
    private static final String LONGEST = "a" + "1".repeat(62);

    @ParameterizedTest
    @ValueSource(strings = {"abc", "ABC", "a12", "Z99", "Customers", "MyTable2024", "tables1", "Tables2", "mytables",
        "tabless", "a11111111111111111111111111111111111111111111111111111111111111"})
    void acceptsAlphanumericNamesStartingWithALetterOf3To63Characters(String name) {
        assertThat(TableName.isValid(name)).isTrue();
        assertThat(TableName.of(name).value()).isEqualTo(name);
    }

    @ParameterizedTest
    @ValueSource(strings = {"ab", "a", "1abc", "123", "_abc", "a-bc", "a_bc", "a.bc", "a bc", "abc ", " abc",
        "abc\n", "abc\r\n", "\u00E9bc", "ab\u00E9", "\uFF41bc", "a\u0661\u0662", "tables", "Tables", "TABLES", "tAbLeS",
        "a111111111111111111111111111111111111111111111111111111111111111"})
    void rejectsOtherNamesAsInvalidResourceName(String name) {
        assertThat(TableName.isValid(name)).isFalse();
        assertThatThrownBy(() -> TableName.of(name))
                .isInstanceOfSatisfying(TableServiceException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_RESOURCE_NAME));
    }

    @Test
    void agreesWithTheRuleAsARegularExpressionOnRandomNames() {
        Pattern rule = Pattern.compile(TableName.RULE);
        String alphabet = "aZz0919_-. \u00E9\uFF41\u0661\n";
        Random random = new Random(7);
        int valid = 0;
        for (int n = 0; n < 20_000; n++) {
            StringBuilder name = new StringBuilder();
            int length = random.nextInt(67);
            for (int i = 0; i < length; i++) {
                // Mostly ASCII letters and digits, so that many names are valid and the length limits are met.
                name.append(random.nextInt(10) < 9 ? "abcXYZ0123".charAt(random.nextInt(10))
                        : alphabet.charAt(random.nextInt(alphabet.length())));
            }
            String s = name.toString();
            boolean expected = rule.matcher(s).matches() && !s.equalsIgnoreCase("tables");
            assertThat(TableName.isValid(s)).as("'%s'", s).isEqualTo(expected);
            valid += expected ? 1 : 0;
        }
        assertThat(valid).as("valid names among the random ones").isGreaterThan(1_000);
    }

    @Test
    void countsTheLengthLimitsExactly() {
        assertThat(LONGEST).hasSize(63);
        assertThat(TableName.isValid(LONGEST)).isTrue();
        assertThat(TableName.isValid(LONGEST + "1")).isFalse();
        assertThat(TableName.isValid("abc")).isTrue();
        assertThat(TableName.isValid("ab")).isFalse();
    }

    @Test
    void rejectsAMissingOrEmptyNameAsInvalidResourceName() {
        for (String name : new String[] {null, ""}) {
            assertThatThrownBy(() -> TableName.of(name))
                    .isInstanceOfSatisfying(TableServiceException.class,
                            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_RESOURCE_NAME));
        }
        assertThat(TableName.isValid(null)).isFalse();
    }

    @Test
    void keepsTheCaseItWasCreatedWithAndComparesCaseInsensitively() {
        TableName name = TableName.of("MyTable");
        assertThat(name.value()).isEqualTo("MyTable");
        assertThat(name).hasToString("MyTable");
        assertThat(name.key()).isEqualTo("mytable");
        assertThat(TableName.of("MYTABLE").key()).isEqualTo(name.key());
        assertThat(name.sameTableAs(TableName.of("mytable"))).isTrue();
        assertThat(name.sameTableAs(TableName.of("MyTable2"))).isFalse();
        assertThat(name).isNotEqualTo(TableName.of("mytable")); // the record keeps the case
    }

    @Test
    void lowerCasesTheKeyTheSameWayInEveryLocale() {
        Locale saved = Locale.getDefault();
        try {
            Locale.setDefault(Locale.forLanguageTag("tr-TR")); // where "I".toLowerCase() is a dotless i
            assertThat(TableName.of("INVOICES").key()).isEqualTo("invoices");
            assertThat(TableName.isValid("TABLES")).isFalse();
            assertThat(TableName.isValid("TABLEI")).isTrue();
        } finally {
            Locale.setDefault(saved);
        }
    }
}
