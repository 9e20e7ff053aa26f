package io.tablestream.protocol.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablestream.core.filter.KeyRange;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** The service's table of constraints for spk, srk, epk, erk. */
class TableAccessRangeTest {

    @ParameterizedTest(name = "spk={0} srk={1} epk={2} erk={3} ({4},{5}) -> {6}")
    @CsvSource(nullValues = "-", value = {
            // startPk alone: partitionKey >= startPk
            "b,-,-,-,b,a,true", "b,-,-,-,a,z,false", "b,-,-,-,c,,true",
            // endPk alone: partitionKey <= endPk
            "-,-,d,-,d,zzz,true", "-,-,d,-,e,,false", "-,-,d,-,a,a,true",
            // startPk, startRk: pk > spk || (pk == spk && rk >= srk)
            "b,5,-,-,b,5,true", "b,5,-,-,b,4,false", "b,5,-,-,b,50,true", "b,5,-,-,c,0,true", "b,5,-,-,a,9,false",
            // endPk, endRk: pk < epk || (pk == epk && rk <= erk)
            "-,-,d,5,d,5,true", "-,-,d,5,d,6,false", "-,-,d,5,c,9,true", "-,-,d,5,e,0,false", "-,-,d,5,d,,true",
            // one partition, one entity
            "p,r,p,r,p,r,true", "p,r,p,r,p,s,false", "p,r,p,r,q,r,false",
            // ordinal comparison: upper-case sorts before lower-case, and 'é' after 'z'
            "a,-,-,-,Z,,false", "-,-,z,-,é,,false", "-,-,z,-,Z,,true"})
    void followsTheServicesKeyRangeRules(String spk, String srk, String epk, String erk, String pk, String rk, boolean inside) {
        String rowKey = rk == null ? "" : rk;
        assertThat(new TableAccessRange(spk, srk, epk, erk).contains(pk, rowKey)).isEqualTo(inside);
    }

    @Test
    void rejectsARowKeyBoundWithoutItsPartitionKey() {
        assertThatThrownBy(() -> new TableAccessRange(null, "1", null, null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new TableAccessRange(null, null, null, "1")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void coversEveryEntityOfTheRangeWithItsKeyRangeExactlyWhenItSaysSo() {
        Random random = new Random(42);
        List<String> alphabet = List.of("", "a", "b", "c", "ba", "bb", "Z", "é");
        for (int i = 0; i < 2000; i++) {
            String spk = pick(random, alphabet);
            String epk = pick(random, alphabet);
            String srk = spk == null ? null : pick(random, alphabet);
            String erk = epk == null ? null : pick(random, alphabet);
            TableAccessRange range = new TableAccessRange(spk, srk, epk, erk);
            KeyRange keyRange = range.keyRange();
            for (int j = 0; j < 20; j++) {
                String pk = alphabet.get(random.nextInt(alphabet.size()));
                String rk = alphabet.get(random.nextInt(alphabet.size()));
                if (range.contains(pk, rk)) {
                    assertThat(keyRange.contains(pk, rk)).as("%s superset at (%s,%s)", range, pk, rk).isTrue();
                } else if (range.isExactKeyRange()) {
                    assertThat(keyRange.contains(pk, rk)).as("%s exact at (%s,%s)", range, pk, rk).isFalse();
                }
            }
        }
    }

    @Test
    void holdsAWholePartitionExactlyWhenEveryRowKeyOfItIsInside() {
        Random random = new Random(7);
        List<String> alphabet = List.of("", "a", "b", "c", "ba", "bb", "Z", "é");
        List<String> rowKeys = List.of("", "a", "b", "c", "ba", "bb", "Z", "é", "\uFFFF\uFFFF");
        for (int i = 0; i < 2000; i++) {
            String spk = pick(random, alphabet);
            String epk = pick(random, alphabet);
            TableAccessRange range = new TableAccessRange(spk, spk == null ? null : pick(random, alphabet), epk,
                    epk == null ? null : pick(random, alphabet));
            for (String pk : alphabet) {
                boolean every = rowKeys.stream().allMatch(rk -> range.contains(pk, rk));
                boolean some = rowKeys.stream().anyMatch(rk -> range.contains(pk, rk));
                assertThat(range.containsPartition(pk)).as("%s whole %s", range, pk).isEqualTo(every);
                if (some) {
                    assertThat(range.touchesPartition(pk)).as("%s touches %s", range, pk).isTrue();
                }
            }
        }
    }

    /**
     * A range covers a filter's key range only when every key the key range holds lies in it
     * (checked against the per-entity rule over a small alphabet of keys), and does cover the plain
     * cases: one whole PartitionKey inside, everything for no bounds.
     */
    @Test
    void coversAKeyRangeOnlyWhenEveryKeyOfItIsInside() {
        Random random = new Random(11);
        List<String> alphabet = List.of("", "a", "b", "c", "ba", "bb", "Z", "é");
        List<String> keys = List.of("", "a", "b", "c", "ba", "bb", "Z", "é", "\uFFFF\uFFFF");
        for (int i = 0; i < 3000; i++) {
            String spk = pick(random, alphabet);
            String epk = pick(random, alphabet);
            TableAccessRange range = new TableAccessRange(spk, spk == null ? null : pick(random, alphabet), epk,
                    epk == null ? null : pick(random, alphabet));
            KeyRange filter = randomKeyRange(random, alphabet);
            boolean every = true;
            for (String pk : keys) {
                for (String rk : keys) {
                    if (filter.contains(pk, rk) && !range.contains(pk, rk)) {
                        every = false;
                    }
                }
            }
            if (range.covers(filter)) {
                assertThat(every).as("%s covers %s", range, filter).isTrue();
            }
        }
        assertThat(new TableAccessRange("b", null, "b", null).covers(KeyRange.partition("b",
                io.tablestream.core.filter.StringRange.ALL))).isTrue();
        assertThat(new TableAccessRange("b", null, "b", null).covers(KeyRange.ALL)).isFalse();
        assertThat(TableAccessRange.ALL.covers(KeyRange.ALL)).isTrue();
        assertThat(new TableAccessRange("b", "r5", "c", null).covers(KeyRange.partition("b",
                io.tablestream.core.filter.StringRange.atLeast("r6")))).isTrue();
        assertThat(new TableAccessRange("b", "r5", "c", null).covers(KeyRange.partition("b",
                io.tablestream.core.filter.StringRange.ALL))).isFalse();
        assertThat(new TableAccessRange("a", null, "c", "r5").covers(new KeyRange(
                io.tablestream.core.filter.StringRange.atLeast("b"), io.tablestream.core.filter.StringRange.ALL)))
                .isFalse();
    }

    private static KeyRange randomKeyRange(Random random, List<String> alphabet) {
        String lo = pick(random, alphabet);
        String hi = pick(random, alphabet);
        if (random.nextInt(3) == 0) {
            String pk = alphabet.get(random.nextInt(alphabet.size()));
            return KeyRange.partition(pk, new io.tablestream.core.filter.StringRange(lo, random.nextBoolean(), hi,
                    random.nextBoolean()));
        }
        return new KeyRange(new io.tablestream.core.filter.StringRange(lo, random.nextBoolean(), hi, random.nextBoolean()),
                io.tablestream.core.filter.StringRange.ALL);
    }

    @Test
    void isAllWithoutBounds() {
        assertThat(TableAccessRange.ALL.isAll()).isTrue();
        assertThat(TableAccessRange.ALL.keyRange()).isEqualTo(KeyRange.ALL);
        assertThat(new TableAccessRange(null, null, "a", null).isAll()).isFalse();
    }

    private static String pick(Random random, List<String> alphabet) {
        int i = random.nextInt(alphabet.size() + 1);
        return i == alphabet.size() ? null : alphabet.get(i);
    }
}
