package io.tablestream.core.storekey;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ByteRangeTest {
    private static final HexFormat HEX = HexFormat.of();

    private static ByteRange range(String from, String to) {
        return new ByteRange(HEX.parseHex(from), HEX.parseHex(to));
    }

    @ParameterizedTest(name = "[{index}] [{0}, {1}) holds {2}: {3}")
    @CsvSource({
        "10, 20, 10, true",
        "10, 20, 1000, true",
        "10, 20, 1fff, true",
        "10, 20, 20, false",
        "10, 20, 0fff, false",
        "10, 20, 2000, false",
        "10, 20, '', false",
        "'', 01, '', true",
        "'', 01, 00ff, true",
        "7f, 80, 7fffffff, true",   // unsigned: 0x80 is above 0x7f
        "7f, 80, 80, false",
        "7f, 80, ff, false",
        "20, 10, 15, false",       // inverted bounds hold nothing
    })
    void holdsKeysFromItsStartUpToItsEndInUnsignedOrder(String from, String to, String key, boolean expected) {
        assertThat(range(from, to).contains(HEX.parseHex(key))).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource({"10, 10, true", "10, 0f, true", "10, 1000, false", "'', '', true", "'', 00, false", "7f, 80, false"})
    void isEmptyWhenItsStartIsNotBelowItsEnd(String from, String to, boolean expected) {
        assertThat(range(from, to).isEmpty()).isEqualTo(expected);
    }

    @Test
    void startsLaterWhenResumedInside() {
        ByteRange r = range("10", "20");
        assertThat(r.startingAt(HEX.parseHex("1500"))).isEqualTo(range("1500", "20"));
        assertThat(r.startingAt(HEX.parseHex("05"))).isEqualTo(r);
        assertThat(r.startingAt(HEX.parseHex("10"))).isEqualTo(r);
        assertThat(r.startingAt(HEX.parseHex("20")).isEmpty()).isTrue();
        assertThat(r.startingAt(HEX.parseHex("ff")).isEmpty()).isTrue();
    }

    @Test
    void sharesNoArrayWithItsCallers() {
        byte[] from = HEX.parseHex("10");
        byte[] to = HEX.parseHex("20");
        ByteRange r = new ByteRange(from, to);
        from[0] = 0x30;
        r.toExclusive()[0] = 0x00;
        assertThat(r).isEqualTo(range("10", "20"));
        assertThat(r.hashCode()).isEqualTo(range("10", "20").hashCode());
        assertThat(r).isNotEqualTo(range("10", "21"));
        assertThat(r).hasToString("ByteRange[10, 20)");
    }
}
