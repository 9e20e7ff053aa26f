package io.tablestream.core.odata;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ODataUrlsTest {

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
