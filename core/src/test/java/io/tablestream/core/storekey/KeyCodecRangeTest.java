package io.tablestream.core.storekey;

import static io.tablestream.core.storekey.RandomKeys.escape;
import static org.assertj.core.api.Assertions.assertThat;

import io.tablestream.core.filter.KeyRange;
import io.tablestream.core.filter.StringRange;
import io.tablestream.core.rules.Keys;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class KeyCodecRangeTest {
    private static final long TABLE = 1_000L;

    @Test
    void holdsExactlyTheKeysTheKeyRangeAdmits() {
        RandomKeys gen = new RandomKeys(424242L);
        int[] kinds = new int[KeyRange.Kind.values().length];
        int contained = 0;
        for (int trial = 0; trial < 12_000; trial++) {
            String pk = gen.key();
            String rk = gen.key();
            KeyRange range = randomRange(gen, pk, rk);
            kinds[range.kind().ordinal()]++;
            ByteRange bytes = KeyCodec.range(TABLE, range);
            if (range.kind() == KeyRange.Kind.EMPTY) {
                assertThat(bytes.isEmpty()).as("%s", range).isTrue();
            }
            for (String[] key : candidateKeys(gen, range, pk, rk)) {
                boolean expected = range.contains(key[0], key[1]);
                boolean actual = bytes.contains(KeyCodec.encode(TABLE, key[0], key[1]));
                if (expected != actual) {
                    throw new AssertionError(range + ": key (" + escape(key[0]) + ", " + escape(key[1])
                            + ") expected " + (expected ? "inside" : "outside") + " " + bytes);
                }
                contained += expected ? 1 : 0;
                assertThat(KeyCodec.range(TABLE - 1, range).contains(KeyCodec.encode(TABLE, key[0], key[1]))).isFalse();
                assertThat(KeyCodec.range(TABLE + 1, range).contains(KeyCodec.encode(TABLE, key[0], key[1]))).isFalse();
            }
        }
        assertThat(Arrays.stream(kinds).min().orElse(0)).as("every kind of range is exercised").isGreaterThan(300);
        assertThat(contained).as("many keys fall inside").isGreaterThan(50_000);
    }

    static Stream<Arguments> partitionRowKeyRanges() {
        // RowKeys "b".."d" of partition "p": every inclusive/exclusive/unbounded combination
        return Stream.of(
                Arguments.of(new StringRange("b", true, "d", true), List.of("b", "b ", "c", "c\uFFFF", "d")),
                Arguments.of(new StringRange("b", true, "d", false), List.of("b", "b ", "c", "c\uFFFF")),
                Arguments.of(new StringRange("b", false, "d", true), List.of("b ", "c", "c\uFFFF", "d")),
                Arguments.of(new StringRange("b", false, "d", false), List.of("b ", "c", "c\uFFFF")),
                Arguments.of(StringRange.atLeast("b"), List.of("b", "b ", "c", "c\uFFFF", "d", "d ", "\uFFFF")),
                Arguments.of(StringRange.greaterThan("b"), List.of("b ", "c", "c\uFFFF", "d", "d ", "\uFFFF")),
                Arguments.of(StringRange.atMost("d"), List.of("", "a", "b", "b ", "c", "c\uFFFF", "d")),
                Arguments.of(StringRange.lessThan("d"), List.of("", "a", "b", "b ", "c", "c\uFFFF")),
                Arguments.of(StringRange.all(), List.of("", "a", "b", "b ", "c", "c\uFFFF", "d", "d ", "\uFFFF")),
                Arguments.of(StringRange.exactly("c"), List.of("c")),
                Arguments.of(StringRange.exactly(""), List.of("")),
                Arguments.of(new StringRange("d", true, "b", true), List.of()),
                Arguments.of(new StringRange("c", false, "c", true), List.of()),
                // bounds no key can equal: U+0000 cuts the bound; '/' and controls just order
                Arguments.of(StringRange.atLeast("b\u0000"), List.of("b ", "c", "c\uFFFF", "d", "d ", "\uFFFF")),
                Arguments.of(StringRange.lessThan("b\u0000x"), List.of("", "a", "b")),
                Arguments.of(StringRange.exactly("c\u0000"), List.of()),
                Arguments.of(new StringRange("b/", true, "c\u0001", false), List.of("c")),
                Arguments.of(StringRange.greaterThan("\u0000"), List.of("a", "b", "b ", "c", "c\uFFFF", "d", "d ", "\uFFFF")));
    }

    @ParameterizedTest(name = "[{index}] RowKey {0}")
    @MethodSource("partitionRowKeyRanges")
    void coversEachRowKeyBoundCombinationOfOnePartition(StringRange rowKeys, List<String> inside) {
        List<String> rowKeysTried = List.of("", "a", "b", "b ", "c", "c\uFFFF", "d", "d ", "\uFFFF");
        ByteRange bytes = KeyCodec.range(TABLE, KeyRange.partition("p", rowKeys));
        List<String> found = new ArrayList<>();
        for (String rk : rowKeysTried) {
            if (bytes.contains(KeyCodec.encode(TABLE, "p", rk))) {
                found.add(rk);
            }
            // never a key of a neighbouring partition
            for (String otherPk : List.of("", "o", "p ", "pp", "p\uFFFF", "q")) {
                assertThat(bytes.contains(KeyCodec.encode(TABLE, otherPk, rk))).as("(%s, %s)", otherPk, rk).isFalse();
            }
        }
        assertThat(found).isEqualTo(inside);
    }

    static Stream<Arguments> partitionKeyRanges() {
        List<String> all = List.of("", "a", "a ", "ab", "b", "b ", "b\uFFFF", "c");
        return Stream.of(
                Arguments.of(new StringRange("a", true, "b", true), List.of("a", "a ", "ab", "b")),
                Arguments.of(new StringRange("a", false, "b", true), List.of("a ", "ab", "b")),
                Arguments.of(new StringRange("a", true, "b", false), List.of("a", "a ", "ab")),
                Arguments.of(new StringRange("a", false, "b", false), List.of("a ", "ab")),
                Arguments.of(StringRange.greaterThan("a"), List.of("a ", "ab", "b", "b ", "b\uFFFF", "c")),
                Arguments.of(StringRange.atMost("b"), List.of("", "a", "a ", "ab", "b")),
                Arguments.of(StringRange.lessThan("a"), List.of("")),
                Arguments.of(StringRange.atLeast(""), all),
                Arguments.of(StringRange.greaterThan(""), all.subList(1, all.size())),
                Arguments.of(StringRange.atMost("a\u0000"), List.of("", "a")),
                Arguments.of(StringRange.greaterThan("a\u0000"), List.of("a ", "ab", "b", "b ", "b\uFFFF", "c")));
    }

    @ParameterizedTest(name = "[{index}] PartitionKey {0}")
    @MethodSource("partitionKeyRanges")
    void coversEachPartitionKeyBoundCombinationWithEveryRowKey(StringRange partitionKeys, List<String> inside) {
        List<String> pksTried = List.of("", "a", "a ", "ab", "b", "b ", "b\uFFFF", "c");
        ByteRange bytes = KeyCodec.range(TABLE, new KeyRange(partitionKeys, StringRange.ALL));
        for (String pk : pksTried) {
            for (String rk : List.of("", " ", "z", "\uFFFF".repeat(512))) {
                assertThat(bytes.contains(KeyCodec.encode(TABLE, pk, rk)))
                        .as("(%s, %s) in %s", pk, escape(rk), partitionKeys)
                        .isEqualTo(inside.contains(pk));
            }
        }
    }

    @Test
    void coversOnePointExactly() {
        ByteRange point = KeyCodec.range(TABLE, KeyRange.point("p", "r"));
        assertThat(point.contains(KeyCodec.encode(TABLE, "p", "r"))).isTrue();
        for (String[] other : new String[][] {{"p", ""}, {"p", "r "}, {"p", "rr"}, {"p", "q\uFFFF"}, {"p ", "r"}, {"", "r"}}) {
            assertThat(point.contains(KeyCodec.encode(TABLE, other[0], other[1]))).as("%s", (Object) other).isFalse();
        }
    }

    @Test
    void servesTheEmptyRangeAsAnEmptyByteRange() {
        assertThat(KeyCodec.range(TABLE, KeyRange.NONE).isEmpty()).isTrue();
        assertThat(KeyCodec.range(TABLE, KeyRange.point("a\u0000", "r")).isEmpty()).isTrue();
        assertThat(KeyCodec.range(TABLE, KeyRange.partition("p", new StringRange("b", true, "a", true))).isEmpty()).isTrue();
        assertThat(KeyCodec.range(TABLE, new KeyRange(new StringRange("b", false, "b", false), StringRange.ALL)).isEmpty()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(longs = {0, 1, 255, 256, 65_535, 65_536, Long.MAX_VALUE - 1, Long.MAX_VALUE})
    void holdsEveryKeyOfOneTableAndNoOther(long tableId) {
        ByteRange table = KeyCodec.table(tableId);
        assertThat(KeyCodec.range(tableId, KeyRange.ALL)).isEqualTo(table);
        String max = "\uFFFF".repeat(512);
        for (String[] key : new String[][] {{"", ""}, {"", max}, {max, ""}, {max, max}, {"a", "b"}}) {
            assertThat(table.contains(KeyCodec.encode(tableId, key[0], key[1]))).isTrue();
            if (tableId > 0) {
                assertThat(table.contains(KeyCodec.encode(tableId - 1, key[0], key[1]))).isFalse();
            }
            if (tableId < Long.MAX_VALUE) {
                assertThat(table.contains(KeyCodec.encode(tableId + 1, key[0], key[1]))).isFalse();
            }
        }
    }

    @Test
    void holdsEveryKeyOfOnePartition() {
        ByteRange partition = KeyCodec.partition(TABLE, "ab");
        assertThat(partition.contains(KeyCodec.encode(TABLE, "ab", ""))).isTrue();
        assertThat(partition.contains(KeyCodec.encode(TABLE, "ab", "\uFFFF".repeat(512)))).isTrue();
        assertThat(partition.contains(KeyCodec.encode(TABLE, "a", "\uFFFF"))).isFalse();
        assertThat(partition.contains(KeyCodec.encode(TABLE, "ab ", ""))).isFalse();
        assertThat(partition.contains(KeyCodec.encode(TABLE, "abc", ""))).isFalse();
    }

    @Test
    void resumesAtTheSmallestKeyNotBeforeTheGivenPair() {
        RandomKeys gen = new RandomKeys(77L);
        for (int i = 0; i < 15_000; i++) {
            String pk = gen.bound(gen.key());
            String rk = gen.bound(gen.key());
            byte[] resume = KeyCodec.resumeAt(TABLE, pk, rk);
            String keyPk = gen.random().nextBoolean() && pk.indexOf('\0') < 0 && pk.length() <= 512
                    && Keys.isValid(pk) ? pk : gen.near(gen.key());
            String keyRk = gen.near(gen.key());
            boolean atOrAfter = KeyCodecTest.compare(keyPk, keyRk, pk, rk) >= 0;
            assertThat(Arrays.compareUnsigned(KeyCodec.encode(TABLE, keyPk, keyRk), resume) >= 0)
                    .as("(%s, %s) vs resume (%s, %s)", escape(keyPk), escape(keyRk), escape(pk), escape(rk))
                    .isEqualTo(atOrAfter);
        }
    }

    @Test
    void resumesAtTheKeyItselfForAValidKey() {
        RandomKeys gen = new RandomKeys(8L);
        for (int i = 0; i < 5_000; i++) {
            String pk = gen.key();
            String rk = gen.key();
            assertThat(KeyCodec.resumeAt(TABLE, pk, rk)).isEqualTo(KeyCodec.encode(TABLE, pk, rk));
        }
    }

    @Test
    void resumesAQueryRangeWithoutLeavingIt() {
        ByteRange partition = KeyCodec.range(TABLE, KeyRange.partition("p", new StringRange("b", true, "d", false)));
        ByteRange rest = partition.startingAt(KeyCodec.resumeAt(TABLE, "p", "c"));
        assertThat(rest.contains(KeyCodec.encode(TABLE, "p", "b "))).isFalse();
        assertThat(rest.contains(KeyCodec.encode(TABLE, "p", "c"))).isTrue();
        assertThat(rest.contains(KeyCodec.encode(TABLE, "p", "d"))).isFalse();
        // a resume point before the range leaves the range whole
        assertThat(partition.startingAt(KeyCodec.resumeAt(TABLE, "a", "z"))).isEqualTo(partition);
        // one past its end empties it
        assertThat(partition.startingAt(KeyCodec.resumeAt(TABLE, "p", "e")).isEmpty()).isTrue();
    }

    /** A KeyRange of a random kind whose bounds lie near the given keys. */
    private static KeyRange randomRange(RandomKeys gen, String pk, String rk) {
        return switch (gen.random().nextInt(6)) {
            case 0 -> KeyRange.point(gen.bound(pk), gen.bound(rk));
            case 1, 2 -> KeyRange.partition(gen.bound(pk), randomStringRange(gen, rk));
            case 3, 4 -> new KeyRange(randomStringRange(gen, pk), StringRange.ALL);
            default -> gen.random().nextBoolean() ? KeyRange.ALL : KeyRange.NONE;
        };
    }

    private static StringRange randomStringRange(RandomKeys gen, String around) {
        String lower = gen.random().nextInt(4) == 0 ? null : gen.bound(around);
        String upper = gen.random().nextInt(4) == 0 ? null : gen.bound(around);
        if (lower != null && upper != null && lower.compareTo(upper) > 0 && gen.random().nextInt(4) != 0) {
            String t = lower; // mostly well-ordered, sometimes empty
            lower = upper;
            upper = t;
        }
        return new StringRange(lower, lower != null && gen.random().nextBoolean(),
                upper, upper != null && gen.random().nextBoolean());
    }

    /** Valid keys around the range's bounds and the anchor keys. */
    private static List<String[]> candidateKeys(RandomKeys gen, KeyRange range, String pk, String rk) {
        List<String> pks = new ArrayList<>(List.of(pk, gen.near(pk), gen.near(pk), gen.key()));
        addIfKey(pks, range.partitionKeys().lower());
        addIfKey(pks, range.partitionKeys().upper());
        List<String> rks = new ArrayList<>(List.of(rk, gen.near(rk), gen.near(rk), gen.key()));
        addIfKey(rks, range.rowKeys().lower());
        addIfKey(rks, range.rowKeys().upper());
        List<String[]> keys = new ArrayList<>();
        for (String p : pks) {
            for (String r : rks) {
                keys.add(new String[] {p, r});
            }
        }
        return keys;
    }

    private static void addIfKey(List<String> keys, String bound) {
        if (bound != null) {
            if (Keys.isValid(bound)) {
                keys.add(bound);
            }
            String cut = bound.indexOf('\0') >= 0 ? bound.substring(0, bound.indexOf('\0')) : null;
            if (cut != null && Keys.isValid(cut)) {
                keys.add(cut);
            }
        }
    }
}
