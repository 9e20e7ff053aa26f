package io.tablestream.core.storekey;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.EntityKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class KeyCodecVersionTest {
    private static final EntityKey KEY = EntityKey.of(9L, "p", "r");

    @Test
    void versionsOfAnEntitySortNewestFirstAndDecodeTheirTime() {
        List<byte[]> keys = new ArrayList<>();
        long[] ticks = {EdmDateTime.MIN_EPOCH_TICKS, -5, 0, 1, 1_000, 17_000_000_000_000_000L, EdmDateTime.MAX_EPOCH_TICKS};
        for (long t : ticks) {
            keys.add(KeyCodec.versionKey(KEY, EdmDateTime.ofEpochTicks(t)));
        }
        keys.sort(Arrays::compareUnsigned);

        List<Long> decoded = keys.stream().map(k -> KeyCodec.versionTime(k).epochTicks()).toList();
        assertThat(decoded).containsExactly(EdmDateTime.MAX_EPOCH_TICKS, 17_000_000_000_000_000L, 1_000L, 1L, 0L, -5L,
                EdmDateTime.MIN_EPOCH_TICKS);
    }

    @Test
    void theVersionsOfOneEntityAreExactlyItsRangeAndNoNeighboursRowsEnterIt() {
        ByteRange all = KeyCodec.versions(KEY, null);
        EdmDateTime t = EdmDateTime.ofEpochTicks(500);

        assertThat(all.contains(KeyCodec.versionKey(KEY, t))).isTrue();
        assertThat(all.contains(KeyCodec.versionKey(EntityKey.of(9L, "p", "r2"), t))).isFalse();
        assertThat(all.contains(KeyCodec.versionKey(EntityKey.of(9L, "p", ""), t))).isFalse();
        assertThat(all.contains(KeyCodec.versionKey(EntityKey.of(9L, "pr", ""), t))).isFalse();
    }

    @Test
    void aResumeTimeStartsAtTheNewestVersionWrittenAtOrBeforeIt() {
        ByteRange from = KeyCodec.versions(KEY, EdmDateTime.ofEpochTicks(500));

        assertThat(from.contains(KeyCodec.versionKey(KEY, EdmDateTime.ofEpochTicks(500)))).isTrue();
        assertThat(from.contains(KeyCodec.versionKey(KEY, EdmDateTime.ofEpochTicks(499)))).isTrue();
        assertThat(from.contains(KeyCodec.versionKey(KEY, EdmDateTime.ofEpochTicks(501)))).isFalse();
    }
}
