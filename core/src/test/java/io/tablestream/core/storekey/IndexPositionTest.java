package io.tablestream.core.storekey;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablestream.core.continuation.EntityContinuation;
import io.tablestream.core.model.EdmBoolean;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.EdmDouble;
import io.tablestream.core.model.EdmGuid;
import io.tablestream.core.model.EdmInt32;
import io.tablestream.core.model.EdmInt64;
import io.tablestream.core.model.EdmString;
import io.tablestream.core.model.EdmValue;
import io.tablestream.core.model.EntityKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A place in an index's order is its entry without the ids: positions sort as entries do, rebuild
 * the entry in any table and index, resume a read exactly there (ascending and descending), and
 * travel as a continuation token that resumes at the same place.
 */
class IndexPositionTest {
    private static EdmValue randomValue(Random r) {
        return switch (r.nextInt(7)) {
            case 0 -> EdmString.of(List.of("", "a", "ab", "b", "\u0000x", "\u0001", "\uffff", "\ud800").get(r.nextInt(8)));
            case 1 -> EdmInt32.of(r.nextInt(5) - 2);
            case 2 -> EdmInt64.of(r.nextInt(5) - 2L);
            case 3 -> EdmDouble.of((r.nextInt(5) - 2) / 2.0);
            case 4 -> EdmBoolean.of(r.nextBoolean());
            case 5 -> EdmDateTime.ofEpochTicks(r.nextInt(5));
            default -> EdmGuid.of(new UUID(r.nextInt(3), r.nextInt(3)));
        };
    }

    @Test
    void positionsSortAsTheirEntriesAndRebuildThem() {
        Random r = new Random(5);
        RandomKeys keys = new RandomKeys(9L);
        List<byte[]> entries = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            EdmValue v = randomValue(r);
            EntityKey k = EntityKey.of(42, keys.key(), keys.key());
            byte[] entry = IndexKeys.entry(7, v, k);
            IndexPosition p = IndexPosition.of(v, k.partitionKey(), k.rowKey());
            assertThat(IndexPosition.ofEntry(entry)).isEqualTo(p);
            assertThat(p.entry(42, 7)).isEqualTo(entry);
            assertThat(p.key(42)).isEqualTo(k);
            assertThat(IndexPosition.parse(p.bytes())).isEqualTo(p);
            entries.add(entry);
        }
        for (int i = 0; i < 5_000; i++) {
            byte[] a = entries.get(r.nextInt(entries.size()));
            byte[] b = entries.get(r.nextInt(entries.size()));
            assertThat(Integer.signum(IndexPosition.ofEntry(a).compareTo(IndexPosition.ofEntry(b))))
                    .isEqualTo(Integer.signum(Arrays.compareUnsigned(a, b)));
        }
    }

    @Test
    void aReadResumesAtThePositionItselfInEitherDirection() {
        byte[] before = IndexKeys.entry(7, EdmInt32.of(3), EntityKey.of(42, "a", "z"));
        byte[] at = IndexKeys.entry(7, EdmInt32.of(3), EntityKey.of(42, "b", "a"));
        byte[] after = IndexKeys.entry(7, EdmInt32.of(3), EntityKey.of(42, "b", "a0"));
        IndexPosition p = IndexPosition.ofEntry(at);
        ByteRange all = IndexKeys.index(42, 7);

        ByteRange up = all.startingAt(p.entry(42, 7));
        ByteRange down = all.endingBefore(p.entryPast(42, 7));

        assertThat(up.contains(before)).isFalse();
        assertThat(up.contains(at)).isTrue();
        assertThat(up.contains(after)).isTrue();
        assertThat(down.contains(before)).isTrue();
        assertThat(down.contains(at)).isTrue();
        assertThat(down.contains(after)).isFalse();
    }

    @Test
    void travelsAsTheContinuationOfAnOrderedQuery() {
        Random r = new Random(6);
        RandomKeys keys = new RandomKeys(10L);
        for (int i = 0; i < 1_000; i++) {
            IndexPosition p = IndexPosition.of(randomValue(r), keys.key(), keys.key());
            EntityContinuation c = EntityContinuation.at(p);

            Optional<EntityContinuation> back = EntityContinuation.fromQuery(c.nextPartitionKeyToken(),
                    c.nextRowKeyToken());

            assertThat(c.nextPartitionKeyToken()).matches("2![1-9][0-9]{0,4}![A-Za-z0-9_-]*");
            assertThat(back).contains(c);
            assertThat(back.get().position()).isEqualTo(p);
        }
    }

    @Test
    void refusesATokenThatIsNoPosition() {
        EntityContinuation c = EntityContinuation.at(IndexPosition.of(EdmInt32.of(1), "pk", "rk"));
        String other = EntityContinuation.at("pk", "rl").nextRowKeyToken();

        for (String bad : List.of("2!4!AAAA", "2!0!", "2!5!AAAAA", c.nextPartitionKeyToken() + "A")) {
            assertThatThrownBy(() -> EntityContinuation.fromQuery(bad, null)).hasMessageContaining("NextPartitionKey");
        }
        assertThatThrownBy(() -> EntityContinuation.fromQuery(c.nextPartitionKeyToken(), other))
                .hasMessageContaining("NextRowKey");
        assertThat(EntityContinuation.fromQuery(c.nextPartitionKeyToken(), null)).contains(c);
    }

    @Test
    void aValueTooLongForAContinuationIsRefusedWhenThePageEnds() {
        EntityContinuation c = EntityContinuation.at(IndexPosition.of(EdmString.of("x".repeat(20_000)), "p", "r"));

        assertThatThrownBy(c::nextPartitionKeyToken).hasMessageContaining("shorter");
    }
}
