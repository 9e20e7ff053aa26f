package io.tablestream.query.plan;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablestream.core.continuation.EntityContinuation;
import io.tablestream.core.filter.KeyRange;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.EdmInt32;
import io.tablestream.core.model.EdmString;
import io.tablestream.core.model.Entity;
import io.tablestream.processor.store.StoreReplica;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A scatter-gather's pages (the partitions split among readers, each reading its share of the row
 * budget from the same resume point, then merged) return every match exactly once, in key order,
 * however the partitions are split and even when the split changes from one page to the next.
 */
class PageMergeTest {
    private static final List<Entity> ENTITIES = IntStream.range(0, 600)
            .mapToObj(i -> Entity.of(String.format("p%02d", i / 20), String.format("r%02d", i % 20),
                    Map.of("N", EdmInt32.of(i))).withVersion(EdmDateTime.of(Instant.parse("2024-01-01T00:00:00Z"))))
            .collect(Collectors.toList());

    private final InMemoryPartitions stores = InMemoryPartitions.of(ENTITIES);
    private final PageReader reader = new PageReader(stores, Long.MAX_VALUE);

    /** Pages through {@code filter}, each page read by the partition groups {@code split} gives for it. */
    private List<List<String>> pageThrough(String filter, String top, int rowBudget,
                                           java.util.function.IntFunction<List<List<Integer>>> split) {
        List<List<String>> pages = new ArrayList<>();
        Optional<EntityContinuation> next = Optional.empty();
        do {
            EntityQuery query = EntityQuery.of(filter, null, top,
                    next.map(EntityContinuation::nextPartitionKeyToken).orElse(null),
                    next.map(EntityContinuation::nextRowKeyToken).orElse(null), KeyRange.ALL);
            List<Page> parts = new ArrayList<>();
            for (List<Integer> group : split.apply(pages.size())) {
                int share = Math.max(1, rowBudget * group.size() / InMemoryPartitions.PARTITIONS);
                Page part = reader.read(InMemoryPartitions.TABLE, query, e -> true, group, p -> StoreReplica.ACTIVE, share);
                parts.add(PartialPages.decode(PartialPages.encode(part))); // as it travels between instances
            }
            Page page = PageMerge.merge(parts, query.top(), Long.MAX_VALUE);
            pages.add(page.entities().stream().map(e -> e.partitionKey() + "/" + e.rowKey()).collect(Collectors.toList()));
            next = page.next();
        } while (next.isPresent() && pages.size() < 10_000);
        return pages;
    }

    private static List<String> expected(java.util.function.IntPredicate matches) {
        return IntStream.range(0, ENTITIES.size()).filter(matches)
                .mapToObj(i -> ENTITIES.get(i).partitionKey() + "/" + ENTITIES.get(i).rowKey()).collect(Collectors.toList());
    }

    @ParameterizedTest(name = "top {0}, row budget {1}")
    @CsvSource({"1000,50000", "7,50000", "1,50000", "1000,4", "1000,13", "50,64", "3,8"})
    void threeReadersReturnEveryEntityOnceInKeyOrder(String top, int rowBudget) {
        List<List<String>> pages = pageThrough(null, top, rowBudget, page -> List.of(List.of(0, 1), List.of(2), List.of(3)));

        assertThat(pages.stream().flatMap(List::stream)).containsExactlyElementsOf(expected(i -> true));
        assertThat(pages).allSatisfy(p -> assertThat(p.size()).isLessThanOrEqualTo(Integer.parseInt(top)));
    }

    @ParameterizedTest(name = "top {0}, row budget {1}")
    @CsvSource({"1000,50000", "5,50000", "1000,9", "17,40"})
    void pagesStayExactWhenPartitionsMoveBetweenReadersFromPageToPage(String top, int rowBudget) {
        Random random = new Random(7);
        List<List<String>> pages = pageThrough("N lt 100 or N ge 450", top, rowBudget, page -> {
            List<List<Integer>> groups = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                groups.add(new ArrayList<>());
            }
            for (int p = 0; p < InMemoryPartitions.PARTITIONS; p++) {
                groups.get(random.nextInt(3)).add(p);
            }
            groups.removeIf(List::isEmpty);
            return groups;
        });

        assertThat(pages.stream().flatMap(List::stream)).containsExactlyElementsOf(expected(i -> i < 100 || i >= 450));
    }

    @Test
    void aSmallestContinuationHoldsBackWhatOtherReadersFoundBeyondIt() {
        Entity a = entity("a", "1");
        Entity c = entity("c", "1");
        Entity d = entity("d", "1");
        Page stopped = new Page(List.of(a), Optional.of(EntityContinuation.at("b", "0")));
        Page finished = new Page(List.of(c, d), Optional.empty());

        Page merged = PageMerge.merge(List.of(stopped, finished), 1000, Long.MAX_VALUE);

        assertThat(merged.entities()).containsExactly(a);
        assertThat(merged.next()).contains(EntityContinuation.at("b", "0"));
    }

    @Test
    void aFullPageContinuesAtTheFirstMatchLeftOut() {
        Page one = new Page(List.of(entity("a", "1"), entity("c", "1")), Optional.empty());
        Page two = new Page(List.of(entity("b", "1")), Optional.empty());

        Page merged = PageMerge.merge(List.of(one, two), 2, Long.MAX_VALUE);

        assertThat(merged.entities()).extracting(Entity::partitionKey).containsExactly("a", "b");
        assertThat(merged.next()).contains(EntityContinuation.at("c", "1"));
    }

    @Test
    void theByteBudgetEndsAMergedPageAtAMatch() {
        Page one = new Page(List.of(entity("a", "1"), entity("b", "1"), entity("c", "1")), Optional.empty());

        Page merged = PageMerge.merge(List.of(one), 1000, 1);

        assertThat(merged.entities()).extracting(Entity::partitionKey).containsExactly("a");
        assertThat(merged.next()).contains(EntityContinuation.at("b", "1"));
    }

    @Test
    void aPartialPageSurvivesTheTripBetweenInstances() {
        Entity e = Entity.of("pk", "rk", Map.of("S", EdmString.of("x\u00e9\ud83d\ude00"), "N", EdmInt32.of(-3)))
                .withVersion(EdmDateTime.of(Instant.parse("2024-05-06T07:08:09.1234567Z")));
        Page page = new Page(List.of(e), Optional.of(EntityContinuation.at("pk", "rl")));

        Page back = PartialPages.decode(PartialPages.encode(page));

        assertThat(back).isEqualTo(page);
        assertThat(back.entities().get(0).etag()).isEqualTo(e.etag());
    }

    private static Entity entity(String pk, String rk) {
        return Entity.of(pk, rk, Map.of()).withVersion(EdmDateTime.of(Instant.parse("2024-01-01T00:00:00Z")));
    }
}
