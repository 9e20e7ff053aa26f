package io.tablestream.server.queries;

import static io.tablestream.server.RawTableClient.query;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.models.ListTablesOptions;
import com.azure.data.tables.models.TableItem;
import io.tablestream.server.RawTableClient;
import io.tablestream.server.ServiceErrors;
import io.tablestream.server.TablestreamServerExtension;
import io.tablestream.server.TablestreamServerExtension.RunningServer;
import io.tablestream.testsupport.KafkaExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Query Tables through the SDK and raw HTTP: filters on TableName, {@code $top} paging across 30
 * tables, and the NextTableName continuation naming exactly the next table.
 */
@ExtendWith({KafkaExtension.class, TablestreamServerExtension.class})
class QueryTablesIT {
    private static final int TABLES = 30;

    /** A prefix no other table has: every table of this class is prefix + two digits. */
    private static String prefix;
    private static List<String> names;

    @BeforeAll
    static void givenThirtyTables(TableServiceClient service) {
        prefix = TableFixtures.uniqueName("Lt") + "x";
        names = new ArrayList<>();
        for (int i = 0; i < TABLES; i++) {
            names.add(String.format("%s%02d", prefix, i));
        }
        names.parallelStream().forEach(service::createTable);
    }

    /** Every table of this class, and no other: names from {@code prefix} up to (excluding) {@code prefix + 'y'}. */
    private static String ourRange() {
        return "TableName ge '" + prefix + "' and TableName lt '" + prefix.substring(0, prefix.length() - 1) + "y'";
    }

    private static List<List<String>> pages(TableServiceClient service, ListTablesOptions options) {
        List<List<String>> pages = new ArrayList<>();
        service.listTables(options, null, null).iterableByPage()
                .forEach(p -> pages.add(p.getElements().stream().map(TableItem::getName).collect(Collectors.toList())));
        return pages;
    }

    @Test
    void filtersOnTableNameEquality(TableServiceClient service) {
        List<String> found = service.listTables(new ListTablesOptions().setFilter("TableName eq '" + names.get(17) + "'"),
                null, null).stream().map(TableItem::getName).collect(Collectors.toList());

        assertThat(found).containsExactly(names.get(17));
    }

    @Test
    void filtersOnATableNameRange(TableServiceClient service) {
        String filter = "TableName ge '" + names.get(5) + "' and TableName le '" + names.get(9) + "'";

        List<String> found = service.listTables(new ListTablesOptions().setFilter(filter), null, null).stream()
                .map(TableItem::getName).collect(Collectors.toList());

        assertThat(found).containsExactlyElementsOf(names.subList(5, 10));
    }

    @Test
    void pagesWithTopAcrossMoreTablesThanOnePage(TableServiceClient service) {
        List<List<String>> pages = pages(service, new ListTablesOptions().setFilter(ourRange()).setTop(7));

        assertThat(pages).allSatisfy(p -> assertThat(p).hasSizeLessThanOrEqualTo(7));
        assertThat(pages.get(0)).hasSize(7);
        assertThat(pages.stream().flatMap(List::stream)).containsExactlyElementsOf(names);
    }

    @Test
    void listsEveryTableWithoutAFilter(TableServiceClient service) {
        List<String> all = service.listTables().stream().map(TableItem::getName).collect(Collectors.toList());

        assertThat(all).containsSubsequence(names);
        assertThat(all.stream().filter(n -> n.startsWith(prefix))).containsExactlyElementsOf(names);
    }

    @Test
    void nextTableNameNamesExactlyTheNextTable(RunningServer server) {
        RawTableClient http = RawTableClient.to(server);
        List<List<String>> pages = new ArrayList<>();
        String next = null;
        do {
            String q = query("$filter", ourRange(), "$top", "7") + (next == null ? "" : "&" + query("NextTableName", next));
            RawTableClient.Response r = http.read("Tables?" + q);
            assertThat(r.status()).as(r.body()).isEqualTo(200);
            List<String> page = new ArrayList<>();
            for (Map<String, Object> row : r.rows()) {
                page.add((String) row.get("TableName"));
            }
            pages.add(page);
            next = r.header("x-ms-continuation-NextTableName");
        } while (next != null && pages.size() < 20);

        assertThat(pages.stream().flatMap(List::stream)).containsExactlyElementsOf(names);
        assertThat(pages.subList(0, 4)).allSatisfy(p -> assertThat(p).hasSize(7));
        assertThat(pages.get(4)).containsExactlyElementsOf(names.subList(28, 30));
    }

    @Test
    void resumesAtTheNamedTableInclusive(RunningServer server) {
        RawTableClient http = RawTableClient.to(server);
        RawTableClient.Response first = http.read("Tables?" + query("$filter", ourRange(), "$top", "3"));
        String next = first.header("x-ms-continuation-NextTableName");

        RawTableClient.Response second = http.read("Tables?" + query("$filter", ourRange(), "$top", "3", "NextTableName", next));

        assertThat(first.rows()).extracting(row -> row.get("TableName")).containsExactlyElementsOf(names.subList(0, 3));
        assertThat(second.rows()).extracting(row -> row.get("TableName")).containsExactlyElementsOf(names.subList(3, 6));
    }

    @Test
    void aMalformedNextTableNameIsInvalidInput(RunningServer server) {
        RawTableClient.Response r = RawTableClient.to(server).read("Tables?" + query("NextTableName", names.get(3)));

        assertThat(r.status()).isEqualTo(400);
        assertThat(r.errorCode()).isEqualTo("InvalidInput");
    }

    @Test
    void aBadTableFilterIsInvalidInput(TableServiceClient service) {
        ServiceErrors.assertHttpError(400, "InvalidInput", () -> service.listTables(
                new ListTablesOptions().setFilter("TableName eq"), null, null).stream().count());
    }

    @Test
    void aFilterMatchingNoTableReturnsNothing(TableServiceClient service) {
        assertThat(service.listTables(new ListTablesOptions().setFilter("TableName eq '" + prefix + "zz'"), null, null)
                .stream()).isEmpty();
    }

    @Test
    void tableFeedsFollowTheMetadataLevel(RunningServer server) {
        RawTableClient http = RawTableClient.to(server);
        String one = query("$filter", "TableName eq '" + names.get(2) + "'");
        RawTableClient.Response none = http.read("Tables?" + one, "Accept", "application/json;odata=nometadata");
        RawTableClient.Response minimal = http.read("Tables?" + one, "Accept", "application/json;odata=minimalmetadata");
        RawTableClient.Response full = http.read("Tables?" + one, "Accept", "application/json;odata=fullmetadata");

        assertThat(none.json()).containsOnlyKeys("value");
        assertThat(none.rows()).containsExactly(Map.of("TableName", names.get(2)));
        assertThat((String) minimal.json().get("odata.metadata")).endsWith("/devstoreaccount1/$metadata#Tables");
        assertThat(minimal.rows()).containsExactly(Map.of("TableName", names.get(2)));
        Map<String, Object> row = full.rows().get(0);
        assertThat(row).containsEntry("odata.type", "devstoreaccount1.Tables")
                .containsEntry("odata.editLink", "Tables('" + names.get(2) + "')")
                .containsEntry("TableName", names.get(2));
        assertThat((String) row.get("odata.id")).endsWith("/devstoreaccount1/Tables('" + names.get(2) + "')");
    }

    @Test
    void getsOneTableByName(RunningServer server) {
        RawTableClient.Response r = RawTableClient.to(server).read("Tables('" + names.get(4) + "')");
        RawTableClient.Response missing = RawTableClient.to(server).read("Tables('" + prefix + "zz')");

        assertThat(r.status()).as(r.body()).isEqualTo(200);
        assertThat(r.json()).containsEntry("TableName", names.get(4));
        assertThat((String) r.json().get("odata.metadata")).endsWith("/devstoreaccount1/$metadata#Tables/@Element");
        assertThat(missing.status()).isEqualTo(404);
        assertThat(missing.errorCode()).isEqualTo("TableNotFound");
    }
}
