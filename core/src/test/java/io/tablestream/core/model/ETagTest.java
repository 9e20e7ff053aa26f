package io.tablestream.core.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ETagTest {
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
        "2024-05-01T12:00:00.1234567Z | W/\"datetime'2024-05-01T12%3A00%3A00.1234567Z'\"",
        "1601-01-01T00:00:00Z         | W/\"datetime'1601-01-01T00%3A00%3A00.0000000Z'\"",
        "1969-12-31T23:59:59.9999999Z | W/\"datetime'1969-12-31T23%3A59%3A59.9999999Z'\"",
    })
    void isAWeakTagOfTheTimestampWithEscapedColons(String timestamp, String etag) {
        assertThat(ETag.forTimestamp(EdmDateTime.parse(timestamp).orElseThrow()).value()).isEqualTo(etag);
    }

    @Test
    void differsForTimestampsOneTickApart() {
        EdmDateTime t = EdmDateTime.parse("2024-05-01T12:00:00Z").orElseThrow();
        assertThat(ETag.forTimestamp(t)).isNotEqualTo(ETag.forTimestamp(t.plusTicks(1)));
        assertThat(ETag.forTimestamp(t)).isEqualTo(ETag.forTimestamp(EdmDateTime.ofEpochTicks(t.epochTicks())));
    }

    @Test
    void isSatisfiedByAStarOrItself() {
        ETag etag = ETag.forTimestamp(EdmDateTime.ofEpochTicks(0));
        assertThat(ETag.ANY).isEqualTo("*");
        assertThat(etag.satisfies("*")).isTrue();
        assertThat(etag.satisfies(etag.value())).isTrue();
        assertThat(etag.satisfies(ETag.forTimestamp(EdmDateTime.ofEpochTicks(1)).value())).isFalse();
        assertThat(etag.satisfies("W/\"*\"")).isFalse();
        assertThat(etag.satisfies("")).isFalse();
        assertThat(etag.satisfies(null)).isFalse();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "W/\"datetime'2024-05-01T12%3A00%3A00.1234567Z'\"",
        "W/\"datetime'2024-05-01T12%3A00%3A00.1234567Z'",
        "\"datetime'2024-05-01T12%3A00%3A00.1234567Z'\"",
        "datetime'2024-05-01T12:00:00.1234567Z'",
        "W/\"datetime'2024-05-01T12%3a00%3a00.1234567Z'\"",
        "' W/\"datetime''2024-05-01T12%3A00%3A00.1234567Z''\" '",
    })
    void aDatetimeTagMatchesInEverySpellingClientsSendBack(String ifMatch) {
        ETag etag = ETag.forTimestamp(EdmDateTime.parse("2024-05-01T12:00:00.1234567Z").orElseThrow());

        assertThat(etag.satisfies(ifMatch)).isTrue();
        assertThat(ETag.canonicalCondition(ifMatch)).isEqualTo(etag.value());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "W/\"datetime'2024-05-01T12%3A00%3A00.1234568Z'",
        "W/\"datetime'2024-05-01T12%3A00%3A00.12345678Z'\"",
        "W/\"datetime'not a time'\"",
        "W/\"2024-05-01T12%3A00%3A00.1234567Z\"",
        "\"0x8D9C1B2A3F4E5D6\"",
    })
    void otherTagsDoNotMatch(String ifMatch) {
        ETag etag = ETag.forTimestamp(EdmDateTime.parse("2024-05-01T12:00:00.1234567Z").orElseThrow());

        assertThat(etag.satisfies(ifMatch)).isFalse();
    }

    @Test
    void leavesAnythingButADatetimeTagAsItIs() {
        assertThat(ETag.canonicalCondition("*")).isEqualTo("*");
        assertThat(ETag.canonicalCondition("\"abc\"")).isEqualTo("\"abc\"");
        assertThat(ETag.canonicalCondition("W/\"datetime'bad'\"")).isEqualTo("W/\"datetime'bad'\"");
    }
}
