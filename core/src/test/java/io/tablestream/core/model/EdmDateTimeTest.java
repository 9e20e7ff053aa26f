package io.tablestream.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class EdmDateTimeTest {
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        // date only
        "2024-05-01,                          2024-05-01T00:00:00.0000000Z",
        "2024-02-29,                          2024-02-29T00:00:00.0000000Z",
        // hh:mm, with and without a zone
        "2024-05-01T12:34,                    2024-05-01T12:34:00.0000000Z",
        "2024-05-01T12:34Z,                   2024-05-01T12:34:00.0000000Z",
        "2024-05-01T12:34+01:00,              2024-05-01T11:34:00.0000000Z",
        // seconds
        "2024-05-01T12:34:56,                 2024-05-01T12:34:56.0000000Z",
        "2024-05-01T12:34:56Z,                2024-05-01T12:34:56.0000000Z",
        "2024-05-01T12:34:56z,                2024-05-01T12:34:56.0000000Z",
        // one to seven fraction digits
        "2024-05-01T12:34:56.1Z,              2024-05-01T12:34:56.1000000Z",
        "2024-05-01T12:34:56.12Z,             2024-05-01T12:34:56.1200000Z",
        "2024-05-01T12:34:56.123Z,            2024-05-01T12:34:56.1230000Z",
        "2024-05-01T12:34:56.1234Z,           2024-05-01T12:34:56.1234000Z",
        "2024-05-01T12:34:56.12345Z,          2024-05-01T12:34:56.1234500Z",
        "2024-05-01T12:34:56.123456Z,         2024-05-01T12:34:56.1234560Z",
        "2024-05-01T12:34:56.1234567Z,        2024-05-01T12:34:56.1234567Z",
        "2024-05-01T12:34:56.0000001,         2024-05-01T12:34:56.0000001Z",
        // more digits, as the Java SDK writes them (ISO_INSTANT: 9), rounded to a tick half to even
        "2024-05-01T12:34:56.123456700Z,      2024-05-01T12:34:56.1234567Z",
        "2024-05-01T12:34:56.12345678Z,       2024-05-01T12:34:56.1234568Z",
        "2024-05-01T12:34:56.12345674999Z,    2024-05-01T12:34:56.1234567Z",
        "2024-05-01T12:34:56.123456750Z,      2024-05-01T12:34:56.1234568Z",
        "2024-05-01T12:34:56.123456650Z,      2024-05-01T12:34:56.1234566Z",
        "2024-05-01T12:34:56.123456650001Z,   2024-05-01T12:34:56.1234567Z",
        "2024-05-01T12:34:56.999999951Z,      2024-05-01T12:34:57.0000000Z",
        "1601-01-01T00:00:00.000000000Z,      1601-01-01T00:00:00.0000000Z",
        "9999-12-31T23:59:59.999999900Z,      9999-12-31T23:59:59.9999999Z",
        // offsets
        "2024-05-01T12:34:56.1234567+02:00,   2024-05-01T10:34:56.1234567Z",
        "2024-05-01T00:30:00-01:30,           2024-05-01T02:00:00.0000000Z",
        "2024-12-31T23:00:00-01:00,           2025-01-01T00:00:00.0000000Z",
        "2024-01-01T00:00:00+14:00,           2023-12-31T10:00:00.0000000Z",
        "2024-01-01T00:00:00-00:00,           2024-01-01T00:00:00.0000000Z",
        // the extremes, before 1970 included
        "1601-01-01,                          1601-01-01T00:00:00.0000000Z",
        "1601-01-01T00:30:00+00:30,           1601-01-01T00:00:00.0000000Z",
        "1969-12-31T23:59:59.9999999Z,        1969-12-31T23:59:59.9999999Z",
        "1970-01-01T00:00:00Z,                1970-01-01T00:00:00.0000000Z",
        "9999-12-31T23:59:59.9999999Z,        9999-12-31T23:59:59.9999999Z",
        "9999-12-31T23:59:59.9999999+00:00,   9999-12-31T23:59:59.9999999Z",
    })
    void parsesEveryAcceptedForm(String text, String iso) {
        assertThat(EdmDateTime.parse(text)).map(EdmDateTime::toIso).contains(iso);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "", " ", "2024", "2024-05", "2024-5-01", "24-05-01", "+2024-05-01", " 2024-05-01", "2024-05-01 ",
        "2024-13-01", "2024-00-10", "2024-05-00", "2024-05-32", "2024-02-30", "2023-02-29",
        "2024-05-01T", "2024-05-01T12", "2024-05-01T1:00", "2024-05-01T24:00", "2024-05-01T12:60",
        "2024-05-01T12:00:60", "2024-05-01 12:34:56", "2024-05-01t12:34:56Z", "2024-05-01Z",
        "2024-05-01T12:34:56.Z", "2024-05-01T12:34:56.", "9999-12-31T23:59:59.99999996Z",
        "2024-05-01T12:34:56ZZ", "2024-05-01T12:34:56+0200", "2024-05-01T12:34:56+02", "2024-05-01T12:34:56+15:00",
        "2024-05-01T12:34:56+02:60", "2024-05-01T12:34:56UTC",
        "1600-12-31T23:59:59.9999999Z", "0000-01-01", "0001-01-01", "10000-01-01",
        "1601-01-01T00:00:00+00:01", "9999-12-31T23:59:59.9999999-00:01",
        "\u0662\u0660\u0662\u0664-05-01",           // Arabic-Indic digits in the year
        "2024-05-01T12:34:56.\u0661Z",               // an Arabic-Indic fraction digit
        "2024-05-01T12:34:56.12\u0663Z",
        "2024-05-01T12:34:56.\uFF11Z",               // a fullwidth fraction digit
    })
    void rejectsEverythingElse(String text) {
        assertThat(EdmDateTime.parse(text)).isEmpty();
    }

    @Test
    void rejectsNull() {
        assertThat(EdmDateTime.parse(null)).isEmpty();
    }

    @ParameterizedTest(name = "{0} ticks -> {1}")
    @CsvSource({
        "0,                     1970-01-01T00:00:00.0000000Z",
        "1,                     1970-01-01T00:00:00.0000001Z",
        "-1,                    1969-12-31T23:59:59.9999999Z",
        "-10000000,             1969-12-31T23:59:59.0000000Z",
        "-10000001,             1969-12-31T23:59:58.9999999Z",
        "-116444736000000000,   1601-01-01T00:00:00.0000000Z",
        "2534023007999999999,   9999-12-31T23:59:59.9999999Z",
        "17145648001234567,     2024-05-01T12:00:00.1234567Z",
    })
    void writesSevenFractionDigitsAndZ(long ticks, String iso) {
        EdmDateTime t = EdmDateTime.ofEpochTicks(ticks);
        assertThat(t.toIso()).isEqualTo(iso);
        assertThat(EdmDateTime.parse(iso)).contains(t);
    }

    @Test
    void namesItsExtremes() {
        assertThat(EdmDateTime.ofEpochTicks(EdmDateTime.MIN_EPOCH_TICKS).toIso()).isEqualTo("1601-01-01T00:00:00.0000000Z");
        assertThat(EdmDateTime.ofEpochTicks(EdmDateTime.MAX_EPOCH_TICKS).toIso()).isEqualTo("9999-12-31T23:59:59.9999999Z");
        assertThatThrownBy(() -> EdmDateTime.ofEpochTicks(EdmDateTime.MIN_EPOCH_TICKS - 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> EdmDateTime.ofEpochTicks(EdmDateTime.MAX_EPOCH_TICKS + 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> EdmDateTime.ofEpochTicks(EdmDateTime.MAX_EPOCH_TICKS).plusTicks(1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void roundTripsAnyTickThroughItsText() {
        Random random = new Random(1601L);
        long span = EdmDateTime.MAX_EPOCH_TICKS - EdmDateTime.MIN_EPOCH_TICKS;
        for (int i = 0; i < 20_000; i++) {
            long ticks = EdmDateTime.MIN_EPOCH_TICKS + Math.floorMod(random.nextLong(), span + 1);
            EdmDateTime t = EdmDateTime.ofEpochTicks(ticks);
            assertThat(EdmDateTime.parse(t.toIso())).as("%d", ticks).contains(t);
        }
    }

    @Test
    void truncatesAnInstantTo100NanosecondsAlsoBefore1970() {
        assertThat(EdmDateTime.of(Instant.parse("1969-12-31T23:59:59.123456789Z")).toIso()).isEqualTo("1969-12-31T23:59:59.1234567Z");
        assertThat(EdmDateTime.of(Instant.parse("2024-05-01T12:00:00.999999999Z")).toIso()).isEqualTo("2024-05-01T12:00:00.9999999Z");
        assertThat(EdmDateTime.of(Instant.parse("1969-12-31T23:59:59.123456789Z")).toInstant())
                .isEqualTo(Instant.parse("1969-12-31T23:59:59.1234567Z"));
        assertThat(EdmDateTime.ofEpochTicks(-1).toInstant()).isEqualTo(Instant.parse("1969-12-31T23:59:59.9999999Z"));
        assertThatThrownBy(() -> EdmDateTime.of(Instant.parse("1600-12-31T23:59:59Z"))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> EdmDateTime.of(Instant.parse("+10000-01-01T00:00:00Z"))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void comparesByInstant() {
        assertThat(EdmDateTime.ofEpochTicks(-5)).isLessThan(EdmDateTime.ofEpochTicks(3));
        assertThat(EdmDateTime.parse("2024-05-01T12:00:00+02:00")).contains(EdmDateTime.parse("2024-05-01T10:00:00Z").orElseThrow());
    }
}
