package io.tablestream.query.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablestream.core.command.CommandKey;
import io.tablestream.core.continuation.EntityContinuation;
import io.tablestream.core.filter.KeyRange;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.EdmInt32;
import io.tablestream.core.model.Entity;
import io.tablestream.core.model.EntityKey;
import io.tablestream.core.model.StoredEntity;
import io.tablestream.core.storekey.ByteRange;
import io.tablestream.core.storekey.KeyCodec;
import io.tablestream.processor.store.CloseableIterator;
import io.tablestream.processor.store.EntityStore;
import io.tablestream.query.routing.KeyLocator;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Pages over four in-memory partition stores: every page of every query, followed by its
 * continuation, yields each match exactly once in key order, whatever the page size and row budget.
 */
class PageReaderPagingTest {
    private static final long TABLE = 7;
    private static final int PARTITIONS = 4;

    /** 30 PartitionKeys of 20 rows; entity i (in key order) has N = i. */
    private static final List<Entity> ENTITIES = IntStream.range(0, 600)
            .mapToObj(i -> Entity.of(String.format("p%02d", i / 20), String.format("r%02d", i % 20),
                    Map.of("N", EdmInt32.of(i))).withVersion(EdmDateTime.of(Instant.parse("2024-01-01T00:00:00Z"))))
            .collect(Collectors.toList());

    private final InMemoryPartitions stores = InMemoryPartitions.of(ENTITIES);

    private List<List<String>> pageThrough(String filter, String top, int rowBudget) {
        PageReader reader = new PageReader(stores, Long.MAX_VALUE);
        List<List<String>> pages = new ArrayList<>();
        Optional<EntityContinuation> next = Optional.empty();
        do {
            EntityQuery query = EntityQuery.of(filter, null, top,
                    next.map(EntityContinuation::nextPartitionKeyToken).orElse(null),
                    next.map(EntityContinuation::nextRowKeyToken).orElse(null), KeyRange.ALL);
            Page page = stores.read(reader, query, e -> true, rowBudget);
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
    @CsvSource({"1000,50000", "7,50000", "1,50000", "1000,1", "1000,13", "50,64", "3,2"})
    void returnsEveryEntityOnceInKeyOrder(String top, int rowBudget) {
        List<List<String>> pages = pageThrough(null, top, rowBudget);

        assertThat(pages.stream().flatMap(List::stream)).containsExactlyElementsOf(expected(i -> true));
        assertThat(pages).allSatisfy(p -> assertThat(p.size()).isLessThanOrEqualTo(Math.min(Integer.parseInt(top), rowBudget)));
    }

    @Test
    void aSparseFilterOverABudgetGivesEmptyPagesWithContinuationsAndFindsEverything() {
        List<List<String>> pages = pageThrough("N eq 5 or N eq 599", null, 100);

        assertThat(pages.stream().flatMap(List::stream)).containsExactlyElementsOf(expected(i -> i == 5 || i == 599));
        assertThat(pages).hasSize(6);
        assertThat(pages.subList(1, 5)).allSatisfy(p -> assertThat(p).isEmpty());
    }

    @Test
    void aPartitionQueryReadsOnlyItsPartitionAndResumesInsideIt() {
        List<List<String>> pages = pageThrough("PartitionKey eq 'p03' and RowKey ge 'r05'", "4", 50_000);

        assertThat(pages.stream().flatMap(List::stream)).containsExactlyElementsOf(expected(i -> i / 20 == 3 && i % 20 >= 5));
        assertThat(pages).hasSize(4);
    }

    @Test
    void theContinuationIsTheFirstKeyNotReturned() {
        PageReader reader = new PageReader(stores, Long.MAX_VALUE);
        Page first = stores.read(reader, EntityQuery.of(null, null, "25", null, null, KeyRange.ALL), e -> true, 50_000);

        assertThat(first.entities()).hasSize(25);
        assertThat(first.next()).contains(EntityContinuation.at("p01", "r05"));
    }

    @Test
    void rowsTheCallerMayNotSeeAreSkippedButCounted() {
        PageReader reader = new PageReader(stores, Long.MAX_VALUE);
        Page page = stores.read(reader, EntityQuery.of(null, null, null, null, null, KeyRange.ALL),
                e -> e.rowKey().equals("r03"), 10);

        assertThat(page.entities()).extracting(Entity::partitionKey).containsExactly("p00");
        assertThat(page.next()).contains(EntityContinuation.at("p00", "r10"));
    }

    @Test
    void refusesABudgetThatCouldNeverAdvance() {
        PageReader reader = new PageReader(stores, 1);
        EntityQuery all = EntityQuery.of(null, null, null, null, null, KeyRange.ALL);
        assertThatThrownBy(() -> stores.read(reader, all, e -> true, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new PageReader(stores, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
