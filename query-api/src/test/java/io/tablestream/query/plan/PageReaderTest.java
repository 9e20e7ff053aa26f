package io.tablestream.query.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablestream.core.command.CommandKey;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class PageReaderTest {
    private static final long TABLE = 7L;
    private static final int PARTITIONS = 4;

    private final InMemoryPartitions stores = new InMemoryPartitions();
    private final PageReader reader = new PageReader(stores, Long.MAX_VALUE);

    private static List<String> keys(Page page) {
        return page.entities().stream().map(e -> e.partitionKey() + "/" + e.rowKey()).collect(Collectors.toList());
    }

    private Page read(String filter, String top, Page previous) {
        String npk = previous == null ? null : previous.next().orElseThrow().nextPartitionKeyToken();
        String nrk = previous == null ? null : previous.next().orElseThrow().nextRowKeyToken();
        return stores.read(reader, EntityQuery.of(filter, null, top, npk, nrk, KeyRange.ALL), e -> true, 1_000);
    }

    @Test
    void mergesEveryPartitionInKeyOrder() {
        for (int i = 0; i < 50; i++) {
            stores.put("p" + (i % 7), String.format("r%02d", i), i);
        }

        Page page = read(null, null, null);

        List<String> expected = IntStream.range(0, 50).mapToObj(i -> "p" + (i % 7) + "/" + String.format("r%02d", i))
                .sorted().collect(Collectors.toList());
        assertThat(keys(page)).containsExactlyElementsOf(expected);
        assertThat(page.next()).isEmpty();
        assertThat(stores.open).isZero();
    }

    @Test
    void pagesResumeExactlyWithoutSkippingOrRepeating() {
        for (int i = 0; i < 103; i++) {
            stores.put("p" + (i % 5), String.format("r%03d", i), i);
        }
        List<String> all = new ArrayList<>();
        Page page = read(null, "10", null);
        all.addAll(keys(page));
        int pages = 1;
        while (page.next().isPresent()) {
            page = read(null, "10", page);
            assertThat(page.entities()).hasSizeLessThanOrEqualTo(10);
            all.addAll(keys(page));
            pages++;
        }

        assertThat(all).hasSize(103).doesNotHaveDuplicates().isSorted();
        assertThat(pages).isEqualTo(11);
        assertThat(stores.open).isZero();
    }

    @Test
    void aFilterAppliesToEveryRowAndTheRowBudgetEndsAPageWithAContinuation() {
        for (int i = 0; i < 3000; i++) {
            stores.put("p" + (i % 3), String.format("r%04d", i), i);
        }
        PageReader budgeted = new PageReader(stores, Long.MAX_VALUE);
        List<String> matches = new ArrayList<>();
        EntityQuery q = EntityQuery.of("N ge 2990", null, null, null, null, KeyRange.ALL);
        Page page = stores.read(budgeted, q, e -> true, 500);
        int requests = 1;
        matches.addAll(keys(page));
        while (page.next().isPresent()) {
            q = EntityQuery.of("N ge 2990", null, null, page.next().get().nextPartitionKeyToken(),
                    page.next().get().nextRowKeyToken(), KeyRange.ALL);
            page = stores.read(budgeted, q, e -> true, 500);
            matches.addAll(keys(page));
            requests++;
        }

        assertThat(matches).hasSize(10);
        assertThat(requests).isEqualTo(6); // 3,000 rows at 500 per request
    }

    @Test
    void aQueryOnOnePartitionKeyReadsOnlyItsPartition() {
        stores.put("a", "1", 1);
        stores.put("b", "1", 2);
        int owner = stores.partitionOf(CommandKey.forEntity("acct", TABLE, "a"));
        stores.local.clear();
        stores.local.add(owner); // every other partition is elsewhere

        Page page = read("PartitionKey eq 'a'", null, null);

        assertThat(keys(page)).containsExactly("a/1");
    }

    @Test
    void aScanNeedingAPartitionHostedElsewhereIsABusyAnswer() {
        stores.local.remove(0);

        assertThatThrownBy(() -> read(null, null, null)).isInstanceOfSatisfying(TableServiceException.class,
                e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.SERVER_BUSY));
    }

    @Test
    void anEmptyKeyRangeReadsNothing() {
        stores.put("a", "1", 1);

        Page page = read("PartitionKey eq 'a' and PartitionKey eq 'b'", null, null);

        assertThat(page.entities()).isEmpty();
        assertThat(page.next()).isEmpty();
        assertThat(stores.open).isZero();
    }

    @Test
    void topZeroReadsNothingAndGivesNoContinuation() {
        stores.put("a", "1", 1);

        Page page = read(null, "0", null);

        assertThat(page.entities()).isEmpty();
        assertThat(page.next()).isEmpty();
        assertThat(stores.open).isZero();
    }

    @Test
    void rowsTheCallerMayNotReadAreLeftOut() {
        stores.put("a", "1", 1);
        stores.put("b", "1", 2);

        Page page = stores.read(reader, EntityQuery.of(null, null, null, null, null, KeyRange.ALL),
                e -> e.partitionKey().equals("b"), 1_000);

        assertThat(keys(page)).containsExactly("b/1");
    }

    private Page readDescending(String filter, String top, Page previous) {
        String npk = previous == null ? null : previous.next().orElseThrow().nextPartitionKeyToken();
        String nrk = previous == null ? null : previous.next().orElseThrow().nextRowKeyToken();
        return stores.read(reader, EntityQuery.of(filter, null, top, "RowKey desc", npk, nrk, KeyRange.ALL),
                e -> true, 1_000);
    }

    @Test
    void pagesOnePartitionNewestFirstWithoutSkippingOrRepeating() {
        for (int i = 0; i < 40; i++) {
            stores.put("p1", String.format("r%02d", i), i);
            stores.put("p", String.format("r%02d", i), i);   // a PartitionKey that is a prefix of p1's
            stores.put("p10", String.format("r%02d", i), i); // one that p1's is a prefix of
        }
        String filter = "PartitionKey eq 'p1' and RowKey ge 'r05' and RowKey lt 'r35' and N ne 20";
        List<String> seen = new ArrayList<>();
        Page page = null;
        int pages = 0;
        do {
            page = readDescending(filter, "7", page);
            assertThat(page.entities()).hasSizeLessThanOrEqualTo(7);
            seen.addAll(keys(page));
            pages++;
        } while (page.next().isPresent() && pages < 20);

        List<String> expected = IntStream.iterate(34, i -> i >= 5, i -> i - 1).filter(i -> i != 20)
                .mapToObj(i -> String.format("p1/r%02d", i)).collect(Collectors.toList());
        assertThat(seen).containsExactlyElementsOf(expected);
        assertThat(pages).isEqualTo(5);
    }

    @Test
    void theNewestRowsOfAPartitionComeInOneRequest() {
        for (int i = 0; i < 100; i++) {
            stores.put("log", String.format("%05d", i), i);
        }

        Page page = readDescending("PartitionKey eq 'log'", "10", null);

        assertThat(keys(page)).containsExactly("log/00099", "log/00098", "log/00097", "log/00096", "log/00095",
                "log/00094", "log/00093", "log/00092", "log/00091", "log/00090");
        assertThat(page.next()).isPresent();
    }

    @Test
    void aDescendingOrderAcrossPartitionsIsRefused() {
        assertThatThrownBy(() -> EntityQuery.of("RowKey gt 'a'", null, null, "RowKey desc", null, null, KeyRange.ALL))
                .isInstanceOfSatisfying(TableServiceException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_QUERY_PARAMETER_VALUE));
    }
}
