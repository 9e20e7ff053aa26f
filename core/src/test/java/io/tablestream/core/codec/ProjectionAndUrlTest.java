package io.tablestream.core.codec;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ProjectionAndUrlTest {

    @Test
    void selectsEverythingForAnEmptyOrStarSelect() {
        assertThat(Projection.parse(null).isAll()).isTrue();
        assertThat(Projection.parse("").isAll()).isTrue();
        assertThat(Projection.parse(" , ").isAll()).isTrue();
        assertThat(Projection.parse("a,*").isAll()).isTrue();
        assertThat(Projection.ALL.includes("anything")).isTrue();
    }

    @Test
    void keepsTheSelectedNamesInOrderAndEchoesThem() {
        Projection projection = Projection.parse(" b , a,b ");
        assertThat(projection.names()).containsExactly("b", "a", "b");
        assertThat(projection.distinctNames()).containsExactly("b", "a");
        assertThat(projection.selectClause()).isEqualTo("b,a,b");
        assertThat(projection.includes("a")).isTrue();
        assertThat(projection.includes("A")).isFalse();
        assertThat(projection).isEqualTo(Projection.of(List.of("b", "a", "b")));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
            "Customer03|Customer03",
            "it's|it''s",
            "''|''''",
            "a b|a%20b",
            "100%|100%25",
            "a/b\\c|a%2Fb%5Cc",
            "x#y?z|x%23y%3Fz",
            "é|%C3%A9",
            "\uD83D\uDE00|%F0%9F%98%80",
            "-._~!$&()*+,;=:@|-._~!$&()*+,;=:@"})
    void quotesAndPercentEncodesKeysForLinks(String key, String literal) {
        assertThat(ODataUrls.keyLiteral(key)).isEqualTo(literal);
    }

    @Test
    void dropsTrailingSlashesFromTheBaseUrl() {
        assertThat(ODataContext.forService("http://h:1/acct//", "acct").baseUrl()).isEqualTo("http://h:1/acct");
    }
}
