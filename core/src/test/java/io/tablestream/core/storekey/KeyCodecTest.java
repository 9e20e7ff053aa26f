package io.tablestream.core.storekey;

import static io.tablestream.core.storekey.RandomKeys.escape;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablestream.core.model.EntityKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class KeyCodecTest {
    private static final HexFormat HEX = HexFormat.of();
    private static final long[] TABLE_IDS = {0, 1, 255, 256, 65_535, 1L << 32, Long.MAX_VALUE - 1, Long.MAX_VALUE};

    @Test
    void ordersEncodedKeysAsTheServiceOrdersEntities() {
        RandomKeys keys = new RandomKeys(20240501L);
        for (int i = 0; i < 60_000; i++) {
            String pk1 = keys.key();
            String rk1 = keys.key();
            String pk2 = keys.random().nextInt(3) == 0 ? pk1 : keys.near(pk1);
            String rk2 = keys.near(rk1);
            int expected = Integer.signum(compare(pk1, rk1, pk2, rk2));
            int actual = Integer.signum(Arrays.compareUnsigned(KeyCodec.encode(7, pk1, rk1), KeyCodec.encode(7, pk2, rk2)));
            if (actual != expected) {
                throw new AssertionError("order differs for (" + escape(pk1) + ", " + escape(rk1) + ") vs ("
                        + escape(pk2) + ", " + escape(rk2) + "): expected " + expected + ", got " + actual);
            }
        }
    }

    @Test
    void ordersByTableIdBeforeAnyKey() {
        RandomKeys keys = new RandomKeys(11L);
        for (int i = 0; i < 20_000; i++) {
            long t1 = TABLE_IDS[keys.random().nextInt(TABLE_IDS.length)];
            long t2 = TABLE_IDS[keys.random().nextInt(TABLE_IDS.length)];
            EntityKey a = EntityKey.of(t1, keys.key(), keys.key());
            EntityKey b = EntityKey.of(t2, keys.key(), keys.key());
            assertThat(Integer.signum(Arrays.compareUnsigned(KeyCodec.encode(a), KeyCodec.encode(b))))
                    .as("%s vs %s", a.tableId(), b.tableId())
                    .isEqualTo(Integer.signum(a.compareTo(b)));
        }
    }

    @Test
    void sortsStoreKeysInTheOrderOfEntityKeys() {
        RandomKeys keys = new RandomKeys(3L);
        List<EntityKey> entities = new ArrayList<>();
        String pk = keys.key();
        for (int i = 0; i < 5_000; i++) {
            pk = keys.random().nextBoolean() ? pk : keys.near(pk);
            entities.add(EntityKey.of(keys.random().nextInt(3), pk, keys.key()));
        }
        List<EntityKey> byModel = entities.stream().sorted().toList();
        List<EntityKey> byBytes = entities.stream()
                .map(KeyCodec::encode)
                .sorted(Arrays::compareUnsigned)
                .map(KeyCodec::decode)
                .toList();
        assertThat(byBytes).isEqualTo(byModel);
    }

    static Stream<Arguments> hardPairs() {
        return Stream.of(
                // the UTF-8 trap: a surrogate pair is below U+E000 in UTF-16 order, above it in code points
                Arguments.of("\uD800\uDC00", "", "\uE000", "", -1),
                Arguments.of("\uDBFF\uDFFF", "", "\uE000", "", -1),
                Arguments.of("\uD83D\uDE00", "", "\uFFFF", "", -1),
                Arguments.of("x", "\uD83D\uDE00", "x", "\uFF21", -1),
                Arguments.of("\uD7FF", "", "\uD800", "", -1),
                Arguments.of("\uD800", "", "\uD800\uDC00", "", -1), // lone high surrogate is a prefix
                Arguments.of("\uDC00", "", "\uD800\uDFFF", "", 1), // lone low surrogate above a pair
                // prefixes
                Arguments.of("a", "", "ab", "", -1),
                Arguments.of("a", "\uFFFF\uFFFF", "ab", "", -1),
                Arguments.of("a", "zzz", "a ", "", -1),
                Arguments.of("", "\uFFFF", " ", "", -1),
                Arguments.of("", "", "", "a", -1),
                Arguments.of("a", "", "a", " ", -1),
                Arguments.of("p", "row", "p", "row", 0),
                Arguments.of("", "", "", "", 0),
                // neighbours of the forbidden ranges and the encoding-length edges
                Arguments.of(" ", "", "!", "", -1),
                Arguments.of("~", "", "\u00A0", "", -1),
                Arguments.of("~~~~", "", "\u00A0", "", -1),
                Arguments.of("\u00A0", "", "\u00A1", "", -1),
                Arguments.of("\u07FF", "", "\u0800", "", -1),
                Arguments.of("\u07FF\u07FF", "", "\u0800", "", -1),
                Arguments.of("\uFFFE", "", "\uFFFF", "", -1));
    }

    @ParameterizedTest(name = "[{index}] ({0}, {1}) vs ({2}, {3}) -> {4}")
    @MethodSource("hardPairs")
    void ordersHardPairsAsStringCompareToDoes(String pk1, String rk1, String pk2, String rk2, int expected) {
        assertThat(Integer.signum(compare(pk1, rk1, pk2, rk2))).as("premise").isEqualTo(expected);
        byte[] a = KeyCodec.encode(1, pk1, rk1);
        byte[] b = KeyCodec.encode(1, pk2, rk2);
        assertThat(Integer.signum(Arrays.compareUnsigned(a, b))).isEqualTo(expected);
        assertThat(Integer.signum(Arrays.compareUnsigned(b, a))).isEqualTo(-expected);
    }

    @Test
    void roundTripsEveryKey() {
        RandomKeys keys = new RandomKeys(99L);
        for (int i = 0; i < 20_000; i++) {
            EntityKey key = EntityKey.of(TABLE_IDS[i % TABLE_IDS.length], keys.key(), keys.key());
            assertThat(KeyCodec.decode(KeyCodec.encode(key))).isEqualTo(key);
        }
    }

    @Test
    void roundTripsTheLongestKeys() {
        String ascii = "~".repeat(512);
        String bmp = "\uFFFF".repeat(512);
        String pairs = "\uD83D\uDE00".repeat(256);
        String loneSurrogates = "\uDC00\uD800".repeat(256);
        for (String pk : List.of(ascii, bmp, pairs, loneSurrogates)) {
            for (String rk : List.of("", ascii, bmp, pairs, loneSurrogates)) {
                EntityKey key = EntityKey.of(Long.MAX_VALUE, pk, rk);
                assertThat(KeyCodec.decode(KeyCodec.encode(key))).isEqualTo(key);
            }
        }
        assertThat(KeyCodec.encode(0, bmp, bmp)).hasSize(8 + 3 * 512 + 1 + 3 * 512 + 1);
    }

    @Test
    void writesTheDocumentedLayout() {
        assertThat(HEX.formatHex(KeyCodec.encode(1, "a", ""))).isEqualTo("0000000000000001" + "6100" + "00");
        assertThat(HEX.formatHex(KeyCodec.encode(258, "", "b"))).isEqualTo("0000000000000102" + "00" + "6200");
        assertThat(HEX.formatHex(KeyCodec.encode(0, "\u00E9", "\u20AC")))
                .isEqualTo("0000000000000000" + "c3a9" + "00" + "e282ac" + "00");
        // a surrogate pair is two 3-byte sequences, not one 4-byte UTF-8 sequence
        assertThat(HEX.formatHex(KeyCodec.encode(0, "\uD83D\uDE00", "")))
                .isEqualTo("0000000000000000" + "eda0bdedb880" + "00" + "00");
    }

    @Test
    void costsOneByteAnAsciiCharacter() {
        assertThat(KeyCodec.encode(42, "Smith", "Ben1898")).hasSize(KeyCodec.TABLE_ID_BYTES + 5 + 1 + 7 + 1);
        assertThat(KeyCodec.encode(42, "~".repeat(512), " ".repeat(512))).hasSize(8 + 513 + 513);
    }

    @ParameterizedTest
    @ValueSource(longs = {0, 1, 255, 256, 65_535, 1L << 32, Long.MAX_VALUE - 1, Long.MAX_VALUE})
    void readsTheTableIdWithoutDecodingTheKeys(long tableId) {
        assertThat(KeyCodec.tableId(KeyCodec.encode(tableId, "pk", "rk"))).isEqualTo(tableId);
        assertThat(KeyCodec.tableId(KeyCodec.table(tableId).fromInclusive())).isEqualTo(tableId);
    }

    @Test
    void rejectsANegativeTableId() {
        assertThatThrownBy(() -> KeyCodec.encode(-1, "a", "b")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> KeyCodec.table(Long.MIN_VALUE)).isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"\u0000", "a\u0000", "\u0000b"})
    void rejectsAKeyHoldingNul(String key) {
        assertThatThrownBy(() -> KeyCodec.encode(1, key, "r"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("PartitionKey");
        assertThatThrownBy(() -> KeyCodec.encode(1, "p", key))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("RowKey");
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @ValueSource(strings = {
        "",                                   // nothing
        "00000000000001",                     // shorter than a table id
        "0000000000000001",                   // table id only
        "000000000000000161",                 // PartitionKey without terminator
        "00000000000000016100",               // no RowKey terminator
        "0000000000000001610062",             // RowKey without terminator
        "000000000000000161006200ff",         // bytes after the RowKey
        "00000000000000016100620000",         // a third terminator
        "8000000000000001610000",             // negative table id
        "0000000000000001c08000",             // overlong U+0000 (modified UTF-8)
        "0000000000000001c0af0000",           // overlong '/'
        "0000000000000001c1bf0000",           // overlong 2-byte
        "0000000000000001e0808000" + "00",    // overlong 3-byte
        "0000000000000001e09fbf00" + "00",    // overlong 3-byte, top of the 2-byte range
        "0000000000000001f09f98800000",       // 4-byte UTF-8 sequence
        "0000000000000001800000",             // stray continuation byte
        "0000000000000001c30000",             // truncated 2-byte sequence
        "0000000000000001e2820000",           // truncated 3-byte sequence
        "0000000000000001e2ac410000",         // bad continuation byte
        "0000000000000001ff0000",             // never a lead byte
    })
    void rejectsBytesThatAreNotAStoreKey(String hex) {
        byte[] bytes = HEX.parseHex(hex);
        assertThatThrownBy(() -> KeyCodec.decode(bytes)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void decodesOnlyCanonicalBytes() {
        Random random = new Random(5L);
        byte[] alphabet = HEX.parseHex("01207e7f80bfc0c1c2c3dfe0e1eded9fa0eff0ff");
        int decoded = 0;
        for (int i = 0; i < 50_000; i++) {
            byte[] body = new byte[random.nextInt(7)];
            for (int j = 0; j < body.length; j++) {
                body[j] = alphabet[random.nextInt(alphabet.length)];
            }
            String s;
            try {
                s = Cesu8.decode(body, 0, body.length);
            } catch (IllegalArgumentException rejected) {
                continue;
            }
            decoded++;
            assertThat(Cesu8.encode(s)).as(HEX.formatHex(body)).isEqualTo(body);
        }
        assertThat(decoded).as("some random byte strings decode").isGreaterThan(250);
    }

    static int compare(String pk1, String rk1, String pk2, String rk2) {
        int c = pk1.compareTo(pk2);
        return c != 0 ? c : rk1.compareTo(rk2);
    }
}
