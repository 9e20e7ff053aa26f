package io.tablestream.server.queries;

import static io.tablestream.server.RawTableClient.query;
import static io.tablestream.server.queries.TableFixtures.keysOf;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.TableEntity;
import io.tablestream.server.IndexRequests;
import io.tablestream.server.RawTableClient;
import io.tablestream.server.ServiceErrors;
import io.tablestream.server.TablestreamServerExtension;
import io.tablestream.server.TablestreamServerExtension.RunningServer;
import io.tablestream.testsupport.KafkaExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code startswith} in {@code $filter} (an extension), through the official SDK's filter string
 * and over raw HTTP: a prefix of PartitionKey or RowKey is read as a key range (a query of a prefix
 * examines only its range: one page, however many rows lie outside it, where this server's row
 * budget is 2,000), of a String property it is a predicate, or a range of a declared index. The
 * data: PartitionKeys {@code k00..k24} of 100 rows {@code r000..r099} (2,500 rows outside every
 * prefix queried by key), and {@code m1}, {@code m2}, {@code mx} of 10 rows each; {@code Name} is
 * {@code ana-<i>} for every seventh entity, {@code bob-<i>} otherwise; {@code Email} mirrors it.
 */
@ExtendWith({KafkaExtension.class, TablestreamServerExtension.class})
class PrefixQueryIT {
    private static TableClient table;
    private static List<TableEntity> all;

    @BeforeAll
    static void givenKeysWithAndWithoutThePrefixes(TableServiceClient service) {
        table = TableFixtures.givenTable(service, "Prefix");
        all = new ArrayList<>();
        for (int p = 0; p < 25; p++) {
            for (int r = 0; r < 100; r++) {
                all.add(entity(String.format("k%02d", p), String.format("r%03d", r)));
            }
        }
        for (String pk : List.of("m1", "m2", "mx")) {
            for (int r = 0; r < 10; r++) {
                all.add(entity(pk, String.format("r%03d", r)));
            }
        }
        TableFixtures.insertAll(table, all);
    }

    private static TableEntity entity(String pk, String rk) {
        int i = Math.abs((pk + rk).hashCode());
        String name = (i % 7 == 0 ? "ana-" : "bob-") + i;
        return new TableEntity(pk, rk).addProperty("Name", name).addProperty("Email", name + "@example.com")
                .addProperty("Size", i % 100);
    }

    private static List<String> expected(Predicate<TableEntity> matches) {
        return keysOf(all.stream().filter(matches).sorted(TableFixtures.KEY_ORDER).toList());
    }

    private static List<String> throughSdk(String filter) {
        return keysOf(table.listEntities(new ListEntitiesOptions().setFilter(filter), null, null).stream()
                .collect(Collectors.toList()));
    }

    private static String name(TableEntity e) {
        return (String) e.getProperty("Name");
    }

    static Stream<Arguments> prefixes() {
        return Stream.of(
                Arguments.of("startswith(PartitionKey,'m')", (Predicate<TableEntity>) e -> e.getPartitionKey().startsWith("m")),
                Arguments.of("startswith(RowKey,'r09')", (Predicate<TableEntity>) e -> e.getRowKey().startsWith("r09")),
                Arguments.of("PartitionKey eq 'k03' and startswith(RowKey,'r01')",
                        (Predicate<TableEntity>) e -> e.getPartitionKey().equals("k03") && e.getRowKey().startsWith("r01")),
                Arguments.of("startswith(PartitionKey,'m') and RowKey ge 'r005'",
                        (Predicate<TableEntity>) e -> e.getPartitionKey().startsWith("m") && e.getRowKey().compareTo("r005") >= 0),
                Arguments.of("startswith(PartitionKey,'m') or startswith(PartitionKey,'k00')",
                        (Predicate<TableEntity>) e -> e.getPartitionKey().startsWith("m") || e.getPartitionKey().startsWith("k00")),
                Arguments.of("not startswith(PartitionKey,'k')", (Predicate<TableEntity>) e -> !e.getPartitionKey().startsWith("k")),
                Arguments.of("startswith(PartitionKey,'k1') and startswith(Name,'ana')",
                        (Predicate<TableEntity>) e -> e.getPartitionKey().startsWith("k1") && name(e).startsWith("ana")),
                Arguments.of("startswith(Name,'ana') eq true and Size lt 50",
                        (Predicate<TableEntity>) e -> name(e).startsWith("ana") && (int) e.getProperty("Size") < 50),
                Arguments.of("startswith(Size,'1')", (Predicate<TableEntity>) e -> false),
                Arguments.of("startswith(PartitionKey,'')", (Predicate<TableEntity>) e -> true));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("prefixes")
    void theSdksFilterStringReturnsExactlyTheMatchesInKeyOrder(String filter, Predicate<TableEntity> matches) {
        assertThat(throughSdk(filter)).containsExactlyElementsOf(expected(matches));
    }

    @Test
    void aKeyPrefixIsReadAsItsRangeInOnePageLikeTheExplicitRange(RunningServer server) {
        RawTableClient http = RawTableClient.to(server);
        for (String filter : List.of("startswith(PartitionKey,'m')", "PartitionKey ge 'm' and PartitionKey lt 'n'")) {
            RawTableClient.Response r = http.read(table.getTableName() + "()?" + query("$filter", filter));

            assertThat(r.status()).as(r.body()).isEqualTo(200);
            assertThat(r.rows()).as(filter).hasSize(30);
            assertThat(r.header("x-ms-continuation-NextPartitionKey"))
                    .as("%s examines only its range, not the 2,500 rows outside it", filter).isNull();
        }
    }

    @Test
    void continuationsWalkAPrefixExactlyOnce(RunningServer server) {
        RawTableClient http = RawTableClient.to(server);
        List<String> keys = new ArrayList<>();
        String next = "";
        int pages = 0;
        do {
            RawTableClient.Response r = http.read(table.getTableName() + "()?"
                    + query("$filter", "startswith(PartitionKey,'m')", "$top", "7") + next);
            assertThat(r.status()).as(r.body()).isEqualTo(200);
            r.rows().forEach(m -> keys.add(m.get("PartitionKey") + "/" + m.get("RowKey")));
            String pk = r.header("x-ms-continuation-NextPartitionKey");
            next = pk == null ? null : "&" + query("NextPartitionKey", pk, "NextRowKey",
                    r.header("x-ms-continuation-NextRowKey"));
            pages++;
        } while (next != null && pages < 20);

        assertThat(keys).containsExactlyElementsOf(expected(e -> e.getPartitionKey().startsWith("m")));
        assertThat(pages).isEqualTo(5);
    }

    @Test
    void aPrefixOfAnIndexedPropertyReadsTheIndex(RunningServer server) {
        IndexRequests indexes = new IndexRequests(RawTableClient.to(server));
        assertThat(indexes.create(table.getTableName(), "ByEmail", "Email").status()).isEqualTo(201);
        indexes.awaitReady(table.getTableName(), "ByEmail", Duration.ofSeconds(60));

        IndexRequests.Result result = indexes.query(table.getTableName(), "startswith(Email,'ana-1')");

        assertThat(result.index()).isEqualTo("ByEmail");
        assertThat(result.keys()).containsExactlyElementsOf(expected(e -> name(e).startsWith("ana-1")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"startswith(Timestamp,'2026')", "startswith(RowKey,1)", "startswith('r',RowKey)",
            "startswith(RowKey,'r') eq 1", "startswith(RowKey)"})
    void anIllTypedOrMalformedPrefixIsInvalidInput(String filter) {
        ServiceErrors.assertHttpError(400, "InvalidInput", () -> throughSdk(filter));
    }

    @ParameterizedTest
    @ValueSource(strings = {"endswith(RowKey,'1')", "substringof('ana',Name)", "tolower(Name) eq 'ana'"})
    void theOtherFunctionsAreNotImplementedAsTheTableServiceAnswers(String filter, RunningServer server) {
        ServiceErrors.assertHttpError(501, "NotImplemented", () -> throughSdk(filter));
        RawTableClient.Response r = RawTableClient.to(server).read(table.getTableName() + "()?" + query("$filter", filter));
        assertThat(r.status()).isEqualTo(501);
        assertThat(r.errorCode()).isEqualTo("NotImplemented");
    }
}
