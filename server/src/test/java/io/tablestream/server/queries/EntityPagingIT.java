package io.tablestream.server.queries;

import static io.tablestream.server.RawTableClient.query;
import static io.tablestream.server.queries.TableFixtures.keysOf;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.core.http.rest.PagedResponse;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.TableEntity;
import io.tablestream.server.RawTableClient;
import io.tablestream.server.TablestreamServerExtension;
import io.tablestream.server.TablestreamServerExtension.RunningServer;
import io.tablestream.testsupport.KafkaExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Paging a Query Entities over 5,200 entities (40 PartitionKeys of 130 rows, spread over every
 * Kafka partition): through the SDK's pages, through its continuation tokens, and through the raw
 * {@code x-ms-continuation-*} headers. Every entity must come exactly once, in key order; pages
 * hold at most 1,000 entities or {@code $top}. Entity {@code i} (in key order) has {@code N = i} and
 * {@code Thirteenth = (i % 13 == 0)}.
 */
@ExtendWith({KafkaExtension.class, TablestreamServerExtension.class})
class EntityPagingIT {
    private static final int PARTITIONS = 40;
    private static final int ROWS = 130;
    private static final int TOTAL = PARTITIONS * ROWS;

    private static TableClient table;
    private static List<String> allKeys;

    @BeforeAll
    static void givenManyEntities(TableServiceClient service) {
        table = TableFixtures.givenTable(service, "Paging");
        List<TableEntity> entities = new ArrayList<>();
        for (int i = 0; i < TOTAL; i++) {
            entities.add(new TableEntity(String.format("p%03d", i / ROWS), String.format("r%04d", i % ROWS))
                    .addProperty("N", i).addProperty("Thirteenth", i % 13 == 0));
        }
        allKeys = keysOf(entities);
        TableFixtures.insertAll(table, entities);
    }

    private static List<String> expected(IntPredicate matches) {
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < TOTAL; i++) {
            if (matches.test(i)) {
                keys.add(allKeys.get(i));
            }
        }
        return keys;
    }

    private static List<List<String>> sdkPages(ListEntitiesOptions options, String continuationToken) {
        List<List<String>> pages = new ArrayList<>();
        Iterable<PagedResponse<TableEntity>> iterable = continuationToken == null
                ? table.listEntities(options, null, null).iterableByPage()
                : table.listEntities(options, null, null).iterableByPage(continuationToken);
        iterable.forEach(page -> pages.add(keysOf(page.getElements())));
        return pages;
    }

    private static List<String> flatten(List<List<String>> pages) {
        List<String> all = new ArrayList<>();
        pages.forEach(all::addAll);
        return all;
    }

    @Test
    void sdkPagesHoldEveryEntityOnceInKeyOrder() {
        List<List<String>> pages = sdkPages(new ListEntitiesOptions(), null);

        assertThat(flatten(pages)).containsExactlyElementsOf(allKeys);
        assertThat(pages).allSatisfy(p -> assertThat(p).hasSizeLessThanOrEqualTo(1000));
        assertThat(pages.size()).isGreaterThanOrEqualTo(6);
    }

    @Test
    void sdkPagesHonourTop() {
        List<List<String>> pages = sdkPages(new ListEntitiesOptions().setTop(333), null);

        assertThat(flatten(pages)).containsExactlyElementsOf(allKeys);
        assertThat(pages).allSatisfy(p -> assertThat(p).hasSizeLessThanOrEqualTo(333));
        assertThat(pages.get(0)).hasSize(333);
        assertThat(pages.size()).isGreaterThanOrEqualTo(TOTAL / 333 + 1);
    }

    @Test
    void resumesFromAContinuationTokenTakenInTheMiddle() {
        ListEntitiesOptions options = new ListEntitiesOptions().setTop(450);
        List<String> seen = new ArrayList<>();
        String token = null;
        int page = 0;
        for (PagedResponse<TableEntity> p : table.listEntities(options, null, null).iterableByPage()) {
            seen.addAll(keysOf(p.getElements()));
            token = p.getContinuationToken();
            if (++page == 3) {
                break;
            }
        }
        assertThat(token).isNotNull();

        List<String> rest = flatten(sdkPages(options, token));
        List<String> again = flatten(sdkPages(options, token));

        assertThat(seen).hasSize(3 * 450);
        assertThat(rest).isEqualTo(again);
        List<String> whole = new ArrayList<>(seen);
        whole.addAll(rest);
        assertThat(whole).containsExactlyElementsOf(allKeys);
    }

    @Test
    void rawContinuationHeadersResumeExactly(RunningServer server) {
        RawTableClient http = RawTableClient.to(server);
        List<String> seen = new ArrayList<>();
        String nextPk = null;
        String nextRk = null;
        int pages = 0;
        do {
            String q = query("$top", "700");
            if (nextPk != null) {
                q += "&" + query("NextPartitionKey", nextPk) + (nextRk == null ? "" : "&" + query("NextRowKey", nextRk));
            }
            RawTableClient.Response r = http.read(table.getTableName() + "()?" + q);
            assertThat(r.status()).as(r.body()).isEqualTo(200);
            List<Map<String, Object>> rows = r.rows();
            assertThat(rows).hasSizeLessThanOrEqualTo(700);
            for (Map<String, Object> row : rows) {
                seen.add(row.get("PartitionKey") + "/" + row.get("RowKey"));
            }
            nextPk = r.header("x-ms-continuation-NextPartitionKey");
            nextRk = r.header("x-ms-continuation-NextRowKey");
            pages++;
        } while (nextPk != null && pages < 100);

        assertThat(seen).containsExactlyElementsOf(allKeys);
    }

    @Test
    void aMalformedContinuationIsInvalidInput(RunningServer server) {
        RawTableClient.Response r = RawTableClient.to(server)
                .read(table.getTableName() + "()?" + query("NextPartitionKey", "p001", "NextRowKey", "r0001"));

        assertThat(r.status()).isEqualTo(400);
        assertThat(r.errorCode()).isEqualTo("InvalidInput");
    }

    @Test
    void sparseMatchesAreAllFoundThoughPagesComeShortOrEmpty() {
        IntPredicate matches = i -> i == 3 || i == 2_600 || i == TOTAL - 1;
        List<List<String>> pages = sdkPages(new ListEntitiesOptions()
                .setFilter("N eq 3 or N eq 2600 or N eq " + (TOTAL - 1)), null);

        assertThat(flatten(pages)).containsExactlyElementsOf(expected(matches));
        // the row budget of a page is far below 5,200 rows on the test server: pages end early
        assertThat(pages.size()).isGreaterThan(1);
    }

    @Test
    void aFilterMatchingEveryThirteenthEntityPagesCompletelyWithTop() {
        List<List<String>> pages = sdkPages(new ListEntitiesOptions().setFilter("Thirteenth").setTop(37), null);

        assertThat(flatten(pages)).containsExactlyElementsOf(expected(i -> i % 13 == 0));
        assertThat(pages).allSatisfy(p -> assertThat(p).hasSizeLessThanOrEqualTo(37));
    }

    @Test
    void aPartitionRangeWithATopPagesInOrder() {
        List<List<String>> pages = sdkPages(new ListEntitiesOptions()
                .setFilter("PartitionKey ge 'p010' and PartitionKey lt 'p013' and RowKey lt 'r0100'").setTop(64), null);

        assertThat(flatten(pages)).containsExactlyElementsOf(
                expected(i -> i / ROWS >= 10 && i / ROWS < 13 && i % ROWS < 100));
        assertThat(pages).allSatisfy(p -> assertThat(p).hasSizeLessThanOrEqualTo(64));
    }

    @Test
    void pagesOneAtATimeThroughEmptyQuotedAndNonAsciiKeysInOrdinalOrder(TableServiceClient service) {
        TableClient odd = TableFixtures.givenTable(service, "OddKeys");
        List<String> keys = List.of("", "'", "a b", "a'b", "é", "\u4e2d", "\ud83d\ude00", "\ufffd");
        List<TableEntity> entities = new ArrayList<>();
        for (String pk : List.of("", "p", "\ud83d\ude00")) {
            for (String rk : keys) {
                entities.add(new TableEntity(pk, rk));
            }
        }
        TableFixtures.insertAll(odd, entities);
        entities.sort(TableFixtures.KEY_ORDER); // String order is UTF-16 code unit order, the service's key order

        List<List<String>> pages = new ArrayList<>();
        odd.listEntities(new ListEntitiesOptions().setTop(1), null, null).iterableByPage()
                .forEach(p -> pages.add(keysOf(p.getElements())));

        assertThat(pages.stream().flatMap(List::stream)).containsExactlyElementsOf(keysOf(entities));
        assertThat(pages).allSatisfy(p -> assertThat(p).hasSizeLessThanOrEqualTo(1));
    }
}
