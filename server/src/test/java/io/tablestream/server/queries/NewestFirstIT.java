package io.tablestream.server.queries;

import static io.tablestream.server.RawTableClient.query;
import static org.assertj.core.api.Assertions.assertThat;

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

import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code $orderby=RowKey desc} over HTTP: a partition read newest-first with {@code $filter},
 * {@code $top} and continuations; every {@code $orderby} it cannot serve is a 400 saying so, and an
 * ascending or absent one leaves the answer as the service gives it. The data: partition {@code log}
 * of 1,500 rows {@code 00000..01499} (more than a page), neighbours {@code lo} and {@code log2}.
 */
@ExtendWith({KafkaExtension.class, TablestreamServerExtension.class})
class NewestFirstIT {
    private static final int ROWS = 1_500;
    private static TableClient table;

    @BeforeAll
    static void givenALogPartition(TableServiceClient service) {
        table = TableFixtures.givenTable(service, "NewestFirst");
        List<TableEntity> entities = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            entities.add(new TableEntity("log", String.format("%05d", i)).addProperty("N", i));
        }
        for (String neighbour : List.of("lo", "log2")) {
            for (int i = 0; i < 20; i++) {
                entities.add(new TableEntity(neighbour, String.format("%05d", i)).addProperty("N", i));
            }
        }
        TableFixtures.insertAll(table, entities);
    }

    private static String row(int i) {
        return "log/" + String.format("%05d", i);
    }

    private static List<String> keys(RawTableClient.Response r) {
        return r.rows().stream().map(m -> m.get("PartitionKey") + "/" + m.get("RowKey")).collect(Collectors.toList());
    }

    /** Every page of a raw query, following the continuation headers. */
    private static List<List<String>> pages(RunningServer server, String q) {
        RawTableClient http = RawTableClient.to(server);
        List<List<String>> pages = new ArrayList<>();
        String nextPk = null;
        String nextRk = null;
        do {
            String target = table.getTableName() + "()?" + q;
            if (nextPk != null) {
                target += "&" + query("NextPartitionKey", nextPk, "NextRowKey", nextRk);
            }
            RawTableClient.Response r = http.read(target);
            assertThat(r.status()).as(r.body()).isEqualTo(200);
            pages.add(keys(r));
            nextPk = r.header("x-ms-continuation-NextPartitionKey");
            nextRk = r.header("x-ms-continuation-NextRowKey");
        } while (nextPk != null && pages.size() < 50);
        return pages;
    }

    @Test
    void theNewestTenRowsOfAPartitionComeInOneRequest(RunningServer server) {
        RawTableClient.Response r = RawTableClient.to(server).read(table.getTableName() + "()?"
                + query("$filter", "PartitionKey eq 'log'", "$orderby", "RowKey desc", "$top", "10"));

        assertThat(r.status()).as(r.body()).isEqualTo(200);
        assertThat(keys(r)).containsExactlyElementsOf(
                IntStream.iterate(ROWS - 1, i -> i >= ROWS - 10, i -> i - 1).mapToObj(NewestFirstIT::row).toList());
        assertThat(r.header("x-ms-continuation-NextRowKey")).isNotNull();
    }

    @Test
    void continuationsWalkThePartitionBackwardsExactlyOnce(RunningServer server) {
        List<List<String>> pages = pages(server, query("$filter", "PartitionKey eq 'log'", "$orderby", "RowKey desc",
                "$top", "400"));

        List<String> all = pages.stream().flatMap(List::stream).toList();
        assertThat(all).containsExactlyElementsOf(
                IntStream.iterate(ROWS - 1, i -> i >= 0, i -> i - 1).mapToObj(NewestFirstIT::row).toList());
        assertThat(pages).allSatisfy(p -> assertThat(p).hasSizeLessThanOrEqualTo(400));
        assertThat(pages.get(0)).hasSize(400);
    }

    @Test
    void aFilterOnRowKeysAndPropertiesNarrowsTheDescendingScan(RunningServer server) {
        List<List<String>> pages = pages(server, query("$filter",
                "PartitionKey eq 'log' and RowKey lt '00100' and RowKey ge '00010' and N ne 50", "$orderby",
                "RowKey desc", "$top", "25"));

        assertThat(pages.stream().flatMap(List::stream).toList()).containsExactlyElementsOf(
                IntStream.iterate(99, i -> i >= 10, i -> i - 1).filter(i -> i != 50).mapToObj(NewestFirstIT::row)
                        .toList());
    }

    @Test
    void theSdkGetsTheServicesOrderWhenItAsksForNone() {
        List<String> keys = new ArrayList<>();
        table.listEntities(new ListEntitiesOptions().setFilter("PartitionKey eq 'log'").setTop(5), null, null)
                .iterableByPage().iterator().next().getElements()
                .forEach(e -> keys.add(e.getPartitionKey() + "/" + e.getRowKey()));

        assertThat(keys).containsExactly(row(0), row(1), row(2), row(3), row(4));
    }

    @ParameterizedTest
    @ValueSource(strings = {"PartitionKey", "PartitionKey asc,RowKey asc", "RowKey asc"})
    void anAscendingOrderByAnswersAsWithout(String orderBy, RunningServer server) {
        RawTableClient http = RawTableClient.to(server);
        String filter = "PartitionKey eq 'log' and RowKey lt '00003'";

        RawTableClient.Response with = http.read(table.getTableName() + "()?"
                + query("$filter", filter, "$orderby", orderBy));
        RawTableClient.Response without = http.read(table.getTableName() + "()?" + query("$filter", filter));

        assertThat(with.status()).as(with.body()).isEqualTo(200);
        assertThat(keys(with)).isEqualTo(keys(without)).containsExactly(row(0), row(1), row(2));
    }

    @ParameterizedTest
    @ValueSource(strings = {"Timestamp desc", "N", "RowKey desc,N", "RowKey upwards"})
    void anOrderByItCannotServeIsA400SayingWhatIs(String orderBy, RunningServer server) {
        RawTableClient.Response r = RawTableClient.to(server).read(table.getTableName() + "()?"
                + query("$filter", "PartitionKey eq 'log'", "$orderby", orderBy));

        assertThat(r.status()).isEqualTo(400);
        assertThat(r.errorCode()).isEqualTo("InvalidQueryParameterValue");
        // says what it can serve: RowKey desc, or (for one property) a secondary index on it
        assertThat(r.body()).contains("$orderby").containsAnyOf("RowKey desc", "secondary index");
    }

    @Test
    void aDescendingScanAcrossPartitionsIsA400(RunningServer server) {
        RawTableClient.Response r = RawTableClient.to(server).read(table.getTableName() + "()?"
                + query("$orderby", "RowKey desc"));

        assertThat(r.status()).isEqualTo(400);
        assertThat(r.errorCode()).isEqualTo("InvalidQueryParameterValue");
        assertThat(r.body()).contains("PartitionKey eq");
    }

    @Test
    void aDescendingReadOfAnEmptyPartitionIsEmpty(RunningServer server) {
        RawTableClient.Response r = RawTableClient.to(server).read(table.getTableName() + "()?"
                + query("$filter", "PartitionKey eq 'none'", "$orderby", "RowKey desc"));

        assertThat(r.status()).isEqualTo(200);
        assertThat(r.rows()).isEmpty();
        assertThat(r.header("x-ms-continuation-NextPartitionKey")).isNull();
    }

}
