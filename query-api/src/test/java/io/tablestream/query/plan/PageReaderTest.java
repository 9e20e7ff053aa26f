package io.tablestream.query.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablestream.core.codec.ByteRange;
import io.tablestream.core.codec.KeyCodec;
import io.tablestream.core.command.CommandKey;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.filter.KeyRange;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.EdmInt32;
import io.tablestream.core.model.Entity;
import io.tablestream.core.model.EntityKey;
import io.tablestream.core.model.StoredEntity;
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
}
