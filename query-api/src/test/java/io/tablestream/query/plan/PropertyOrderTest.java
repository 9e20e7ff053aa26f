package io.tablestream.query.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablestream.core.continuation.EntityContinuation;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.filter.Filter;
import io.tablestream.core.filter.KeyRange;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.EdmDouble;
import io.tablestream.core.model.EdmInt32;
import io.tablestream.core.model.EdmInt64;
import io.tablestream.core.model.EdmString;
import io.tablestream.core.model.EdmValue;
import io.tablestream.core.model.Entity;
import io.tablestream.core.model.IndexDefinition;
import io.tablestream.core.storekey.IndexPosition;
import io.tablestream.processor.store.StoreReplica;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A query ordered by an indexed property ({@code $orderby=Score [desc]}), scatter-gathered as
 * between instances: its pages hold every entity that has the property and matches, exactly once,
 * in the index's order (type, value, keys; all reversed for desc), however the partitions are split
 * among readers from page to page, whatever the page size and row budget; its continuations travel
 * as tokens. Checked against an oracle: the entities sorted by their place in the index.
 */
class PropertyOrderTest {
    private static final IndexDefinition BY_SCORE = new IndexDefinition("ByScore", "Score", 11L);
    private static final List<Entity> ENTITIES = entities();

    private final InMemoryPartitions stores = InMemoryPartitions.of(ENTITIES).index(11L, "Score");
    private final PageReader reader = new PageReader(stores, Long.MAX_VALUE);

    /** 400 entities over 20 PartitionKeys; Score of several types with many ties, missing on some. */
    private static List<Entity> entities() {
        Random random = new Random(3);
        List<Entity> out = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            Map<String, EdmValue> p = new HashMap<>();
            p.put("N", EdmInt32.of(i));
            switch (random.nextInt(6)) {
                case 0 -> { } // no Score
                case 1 -> p.put("Score", EdmString.of("s" + random.nextInt(5)));
                case 2 -> p.put("Score", EdmDouble.of(random.nextInt(7) - 3.5));
                case 3 -> p.put("Score", EdmInt64.of(random.nextInt(3)));
                default -> p.put("Score", EdmInt32.of(random.nextInt(10) - 5));
            }
            out.add(Entity.of(String.format("p%02d", i % 20), String.format("r%03d", i), p)
                    .withVersion(EdmDateTime.of(Instant.parse("2024-01-01T00:00:00Z"))));
        }
        return out;
    }

    private static String key(Entity e) {
        return e.partitionKey() + "/" + e.rowKey();
    }

    private static List<String> oracle(String filter, boolean descending) {
        Filter f = Filter.parse(filter);
        Comparator<Entity> order = Comparator.comparing(e -> IndexPosition.of(e.property("Score"), e.partitionKey(),
                e.rowKey()));
        return ENTITIES.stream().filter(e -> e.property("Score") != null).filter(f::test)
                .sorted(descending ? order.reversed() : order).map(PropertyOrderTest::key).collect(Collectors.toList());
    }

    private static EntityQuery query(String filter, String orderBy, String top, Optional<EntityContinuation> at) {
        return EntityQuery.of(filter, null, top, orderBy, at.map(EntityContinuation::nextPartitionKeyToken).orElse(null),
                at.map(EntityContinuation::nextRowKeyToken).orElse(null), KeyRange.ALL).usingIndexes(List.of(BY_SCORE));
    }

    /** Every page, each read by a random split of the partitions among readers, merged as between instances. */
    private List<List<String>> pageThrough(String filter, String orderBy, String top, int rowBudget, long seed) {
        Random random = new Random(seed);
        List<List<String>> pages = new ArrayList<>();
        Optional<EntityContinuation> next = Optional.empty();
        do {
            EntityQuery q = query(filter, orderBy, top, next);
            List<Integer> partitions = stores.partitionsFor(q);
            List<List<Integer>> groups = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                groups.add(new ArrayList<>());
            }
            partitions.forEach(p -> groups.get(random.nextInt(3)).add(p));
            groups.removeIf(List::isEmpty);
            List<Page> parts = new ArrayList<>();
            for (List<Integer> group : groups) {
                int share = Math.max(1, rowBudget * group.size() / InMemoryPartitions.PARTITIONS);
                parts.add(PartialPages.decode(PartialPages.encode(
                        reader.read(InMemoryPartitions.TABLE, q, e -> true, group, p -> StoreReplica.ACTIVE, share))));
            }
            Page page = PageMerge.merge(parts, q.pageOrder(), q.top(), Long.MAX_VALUE);
            pages.add(page.entities().stream().map(PropertyOrderTest::key).collect(Collectors.toList()));
            next = page.next();
        } while (next.isPresent() && pages.size() < 10_000);
        return pages;
    }

    @ParameterizedTest(name = "{0} {1}, top {2}, row budget {3}")
    @CsvSource(delimiter = '|', value = {
            "               | Score      | 1000 | 50000",
            "               | Score desc | 1000 | 50000",
            "               | Score      | 7    | 50000",
            "               | Score desc | 3    | 13",
            "               | Score asc  | 1000 | 9",
            "N lt 200       | Score      | 11   | 40",
            "Score ge 0 and Score lt 4   | Score desc | 5 | 50000",
            "Score ge 's1'  | Score      | 4    | 30",
            "PartitionKey eq 'p07'       | Score | 2 | 50000",
            "PartitionKey eq 'p07'       | Score desc | 1000 | 3",
            "startswith(PartitionKey,'p1') and N ge 100 | Score desc | 6 | 20"})
    void pagesHoldEveryMatchOnceInTheIndexOrder(String filter, String orderBy, String top, int rowBudget) {
        List<List<String>> pages = pageThrough(filter, orderBy, top, rowBudget, 7);

        assertThat(pages.stream().flatMap(List::stream)).containsExactlyElementsOf(
                oracle(filter, orderBy.endsWith("desc")));
        assertThat(pages).allSatisfy(p -> assertThat(p.size()).isLessThanOrEqualTo(Integer.parseInt(top)));
    }

    @Test
    void entitiesWithoutThePropertyAreLeftOut() {
        List<String> all = pageThrough(null, "Score", "1000", 50_000, 1).stream().flatMap(List::stream).toList();

        assertThat(all).hasSize((int) ENTITIES.stream().filter(e -> e.property("Score") != null).count())
                .hasSizeLessThan(ENTITIES.size());
    }

    @Test
    void withoutAnIndexOnThePropertyTheQueryNamesTheIndexToDeclare() {
        EntityQuery asked = EntityQuery.of(null, null, null, "Name desc", null, null, KeyRange.ALL);

        assertThatThrownBy(() -> asked.usingIndexes(List.of(BY_SCORE)))
                .isInstanceOfSatisfying(TableServiceException.class, e -> assertThat(e.errorCode())
                        .isEqualTo(ErrorCode.INVALID_QUERY_PARAMETER_VALUE))
                .hasMessageContaining("\"Property\":\"Name\"");
    }

    @Test
    void aContinuationOfOneOrderIsRefusedByTheOther() {
        EntityQuery first = query(null, "Score", "5", Optional.empty());
        Page page = stores.read(reader, first, e -> true, 50_000);
        EntityContinuation next = page.next().orElseThrow();

        assertThat(next.nextPartitionKeyToken()).startsWith("2!");
        assertThatThrownBy(() -> EntityQuery.of(null, null, "5", null, next.nextPartitionKeyToken(),
                next.nextRowKeyToken(), KeyRange.ALL)).hasMessageContaining("$orderby");
        assertThatThrownBy(() -> EntityQuery.of(null, null, "5", "Score", EntityContinuation.at("p01", "r001")
                .nextPartitionKeyToken(), null, KeyRange.ALL)).hasMessageContaining("key order");
    }

    @Test
    void aPartitionWhoseIndexIsStillBuildingMakesTheQueryWait() {
        stores.building.add(2);

        assertThatThrownBy(() -> stores.read(reader, query(null, "Score", null, Optional.empty()), e -> true, 50_000))
                .isInstanceOfSatisfying(TableServiceException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.SERVER_BUSY))
                .hasMessageContaining("ByScore");
    }

    @Test
    void aSasKeyRangeHidesWhatItDoesNotCover() {
        Predicate<Entity> visible = e -> e.partitionKey().compareTo("p10") < 0;
        EntityQuery q = query(null, "Score desc", null, Optional.empty());

        Page page = stores.read(reader, q, visible, 50_000);

        assertThat(page.entities()).extracting(PropertyOrderTest::key).containsExactlyElementsOf(
                oracle("PartitionKey lt 'p10'", true));
    }
}
