package io.tablestream.query.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class KafkaCommandLogEndsTest {
    private final AtomicLong clock = new AtomicLong();
    private final List<CompletableFuture<Map<Integer, Long>>> lookups = new ArrayList<>();
    private final KafkaCommandLogEnds ends = new KafkaCommandLogEnds(() -> {
        CompletableFuture<Map<Integer, Long>> lookup = new CompletableFuture<>();
        lookups.add(lookup);
        return lookup;
    }, clock::get, () -> { });

    @Test
    void answersAnOffsetBelowTheEndsLastSeenWithoutALookup() {
        ends.endBeyond(0, 5);
        lookups.get(0).complete(Map.of(0, 10L, 1, 3L));

        CompletableFuture<Long> end = ends.endBeyond(0, 9);

        assertThat(end).isCompletedWithValue(10L);
        assertThat(lookups).hasSize(1);
    }

    @Test
    void looksUpAgainForAnOffsetAtOrPastTheEndsLastSeen() {
        ends.endBeyond(0, 5);
        lookups.get(0).complete(Map.of(0, 10L));
        clock.incrementAndGet();

        CompletableFuture<Long> end = ends.endBeyond(0, 10);
        lookups.get(1).complete(Map.of(0, 12L));

        assertThat(lookups).hasSize(2);
        assertThat(end).isCompletedWithValue(12L);
    }

    @Test
    void sharesARunningLookupWithAsksFromBeforeItStartedAndOneFollowingLookupWithEveryLaterAsk() {
        CompletableFuture<Long> first = ends.endBeyond(0, 100);
        CompletableFuture<Long> sameInstant = ends.endBeyond(1, 100);
        clock.incrementAndGet();
        List<CompletableFuture<Long>> later = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            later.add(ends.endBeyond(i % 2, 100 + i));
        }

        assertThat(lookups).hasSize(1);
        lookups.get(0).complete(Map.of(0, 7L, 1, 8L));
        assertThat(first).isCompletedWithValue(7L);
        assertThat(sameInstant).isCompletedWithValue(8L);
        assertThat(later).allSatisfy(f -> assertThat(f).isNotDone());
        assertThat(lookups).hasSize(2);
        lookups.get(1).complete(Map.of(0, 200L, 1, 9L));
        assertThat(later.get(0)).isCompletedWithValue(200L);
        assertThat(later.get(1)).isCompletedWithValue(9L);
        assertThat(lookups).hasSize(2);
    }

    @Test
    void failsWhenTheLookupFailsAndLooksUpAgainForTheNextAsk() {
        CompletableFuture<Long> failed = ends.endBeyond(0, 1);
        lookups.get(0).completeExceptionally(new IllegalStateException("broker unreachable"));
        clock.incrementAndGet();

        CompletableFuture<Long> retried = ends.endBeyond(0, 1);
        lookups.get(1).complete(Map.of(0, 2L));

        assertThat(failed).isCompletedExceptionally();
        assertThat(retried).isCompletedWithValue(2L);
    }

    @Test
    void keepsTheGreatestEndSeenOfEachPartition() {
        ends.endBeyond(0, 1);
        lookups.get(0).complete(Map.of(0, 10L));
        clock.incrementAndGet();
        ends.endBeyond(0, 10);
        lookups.get(1).complete(Map.of(0, 4L)); // a lagging answer never moves an end back

        assertThat(ends.endBeyond(0, 9)).isCompletedWithValue(10L);
    }

    @Test
    void failsForAPartitionTheLogDoesNotHave() {
        CompletableFuture<Long> end = ends.endBeyond(9, 0);
        lookups.get(0).complete(Map.of(0, 1L));

        assertThat(end).isCompletedExceptionally();
    }
}
