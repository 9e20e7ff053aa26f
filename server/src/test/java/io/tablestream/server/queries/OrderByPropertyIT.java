package io.tablestream.server.queries;

import static io.tablestream.server.RawTableClient.query;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.models.TableEntity;
import io.tablestream.server.IndexRequests;
import io.tablestream.server.RawTableClient;
import io.tablestream.server.ServiceErrors;
import io.tablestream.server.TablestreamServerExtension;
import io.tablestream.server.TablestreamServerExtension.RunningServer;
import io.tablestream.testsupport.KafkaExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code $orderby=<property> [asc|desc]} on a property with a secondary index, over raw HTTP (the
 * SDKs send no {@code $orderby}): pages in the property's order, across every partition of the
 * log, continued exactly from page to page; entities without the property left out; without an
 * index, a 400 naming the index to declare. The data: 300 entities over 30 PartitionKeys,
 * {@code Score} an Int32 with many ties on all but every tenth.
 */
@ExtendWith({KafkaExtension.class, TablestreamServerExtension.class})
class OrderByPropertyIT {
    private static TableClient table;
    private static List<TableEntity> all;

    @BeforeAll
    static void givenScoresAndAnIndexOnThem(TableServiceClient service, RunningServer server) {
        table = TableFixtures.givenTable(service, "Ordered");
        all = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            TableEntity e = new TableEntity(String.format("p%02d", i % 30), String.format("r%03d", i))
                    .addProperty("N", i);
            if (i % 10 != 3) {
                e.addProperty("Score", (i * 37) % 50);
            }
            all.add(e);
        }
        TableFixtures.insertAll(table, all);
        IndexRequests indexes = new IndexRequests(RawTableClient.to(server));
        assertThat(indexes.create(table.getTableName(), "ByScore", "Score").status()).isEqualTo(201);
        indexes.awaitReady(table.getTableName(), "ByScore", Duration.ofSeconds(60));
    }

    private static List<String> expected(Predicate<TableEntity> matches, boolean descending) {
        Comparator<TableEntity> order = Comparator.<TableEntity>comparingInt(e -> (int) e.getProperty("Score"))
                .thenComparing(TableFixtures.KEY_ORDER);
        return all.stream().filter(e -> e.getProperty("Score") != null).filter(matches)
                .sorted(descending ? order.reversed() : order)
                .map(e -> e.getPartitionKey() + "/" + e.getRowKey()).collect(Collectors.toList());
    }

    /** Every page of a raw query, following the continuation headers. */
    private static List<List<String>> pages(RunningServer server, String q) {
        RawTableClient http = RawTableClient.to(server);
        List<List<String>> pages = new ArrayList<>();
        String next = "";
        do {
            RawTableClient.Response r = http.read(table.getTableName() + "()?" + q + next);
            assertThat(r.status()).as(r.body()).isEqualTo(200);
            assertThat(r.header("x-tablestream-index")).isEqualTo("ByScore");
            pages.add(r.rows().stream().map(m -> m.get("PartitionKey") + "/" + m.get("RowKey")).toList());
            String pk = r.header("x-ms-continuation-NextPartitionKey");
            next = pk == null ? null : "&" + query("NextPartitionKey", pk, "NextRowKey",
                    r.header("x-ms-continuation-NextRowKey"));
        } while (next != null && pages.size() < 500);
        return pages;
    }

    @ParameterizedTest(name = "$orderby={0} $filter={1} $top={2}")
    @CsvSource(delimiter = '|', value = {
            "Score      |                        | 1000",
            "Score asc  |                        | 17",
            "Score desc |                        | 23",
            "Score desc | N ge 100               | 9",
            "Score      | Score ge 20 and Score lt 30 | 6",
            "Score desc | PartitionKey eq 'p07'  | 4"})
    void pagesComeInThePropertysOrderAndContinueExactly(String orderBy, String filter, int top, RunningServer server) {
        String q = query("$orderby", orderBy, "$top", Integer.toString(top))
                + (filter == null ? "" : "&" + query("$filter", filter));
        Predicate<TableEntity> matches = filter == null ? e -> true
                : filter.startsWith("N ") ? e -> (int) e.getProperty("N") >= 100
                : filter.startsWith("Score") ? e -> (int) e.getProperty("Score") >= 20 && (int) e.getProperty("Score") < 30
                : e -> e.getPartitionKey().equals("p07");

        List<List<String>> pages = pages(server, q);

        assertThat(pages.stream().flatMap(List::stream)).containsExactlyElementsOf(
                expected(matches, orderBy.endsWith("desc")));
        assertThat(pages).allSatisfy(p -> assertThat(p).hasSizeLessThanOrEqualTo(top));
    }

    @Test
    void withoutAnIndexOnThePropertyItIsA400NamingTheIndexToDeclare(RunningServer server) {
        RawTableClient.Response r = RawTableClient.to(server).read(table.getTableName() + "()?"
                + query("$orderby", "N desc"));

        ServiceErrors.assertServiceError(r, 400, "InvalidQueryParameterValue");
        assertThat(r.body()).contains("comp=indexes").contains("\\\"Property\\\":\\\"N\\\"");
    }

    @Test
    void aContinuationOfTheOrderIsRefusedWithoutIt(RunningServer server) {
        RawTableClient http = RawTableClient.to(server);
        RawTableClient.Response first = http.read(table.getTableName() + "()?" + query("$orderby", "Score", "$top", "5"));

        RawTableClient.Response r = http.read(table.getTableName() + "()?" + query("NextPartitionKey",
                first.header("x-ms-continuation-NextPartitionKey"), "NextRowKey",
                first.header("x-ms-continuation-NextRowKey")));

        ServiceErrors.assertServiceError(r, 400, "InvalidInput");
    }
}
