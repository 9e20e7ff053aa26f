package io.tablestream.server.queries;

import static io.tablestream.server.queries.TableFixtures.keysOf;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.TableEntity;
import io.tablestream.server.ServiceErrors;
import io.tablestream.server.TablestreamServerExtension;
import io.tablestream.testsupport.KafkaExtension;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.IntPredicate;
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
 * Query Entities through the official SDK: {@code $filter} on keys and on properties of every Edm
 * type, {@code $select}, {@code $top}, and results in (PartitionKey, RowKey) order across every
 * Kafka partition. The data set: 8 PartitionKeys {@code a..h} of 5 rows {@code r0..r4}; entity
 * {@code i} (0..39, in key order) has properties derived from {@code i}, so each filter's expected
 * result is computed from the same rule.
 */
@ExtendWith({KafkaExtension.class, TablestreamServerExtension.class})
class QueryEntitiesIT {
    private static final int PARTITIONS = 8;
    private static final int ROWS = 5;
    private static final OffsetDateTime EPOCH = OffsetDateTime.of(2024, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC);

    private static TableClient table;
    private static List<TableEntity> all;

    @BeforeAll
    static void givenTypedEntities(TableServiceClient service) {
        table = TableFixtures.givenTable(service, "Query");
        all = new ArrayList<>();
        for (int i = 0; i < PARTITIONS * ROWS; i++) {
            all.add(entity(i));
        }
        List<TableEntity> shuffled = new ArrayList<>(all);
        java.util.Collections.shuffle(shuffled, new java.util.Random(7));
        TableFixtures.insertAll(table, shuffled);
    }

    private static String pk(int i) {
        return String.valueOf((char) ('a' + i / ROWS));
    }

    private static String rk(int i) {
        return "r" + (i % ROWS);
    }

    private static TableEntity entity(int i) {
        TableEntity e = new TableEntity(pk(i), rk(i))
                .addProperty("Name", "n" + i)
                .addProperty("Count", i)
                .addProperty("Big", 10_000_000_000L + i)
                .addProperty("Ratio", i / 4.0)
                .addProperty("Flag", i % 2 == 0)
                .addProperty("When", EPOCH.plusDays(i))
                .addProperty("Id", new UUID(0, i))
                .addProperty("Blob", new byte[] {(byte) i, 1});
        if (i % 5 == 0) {
            e.addProperty("Sometimes", "here");
        }
        return e;
    }

    private static List<String> expected(IntPredicate matches) {
        List<TableEntity> out = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            if (matches.test(i)) {
                out.add(all.get(i));
            }
        }
        return keysOf(out);
    }

    private static List<TableEntity> query(ListEntitiesOptions options) {
        return table.listEntities(options, null, null).stream().collect(Collectors.toList());
    }

    private static List<String> filtered(String filter) {
        return keysOf(query(new ListEntitiesOptions().setFilter(filter)));
    }

    static Stream<Arguments> filters() {
        return Stream.of(
                Arguments.of("PartitionKey eq 'c'", (IntPredicate) i -> pk(i).equals("c")),
                Arguments.of("PartitionKey eq 'c' and RowKey eq 'r3'", (IntPredicate) i -> i == 13),
                Arguments.of("PartitionKey eq 'c' and RowKey ge 'r1' and RowKey lt 'r4'",
                        (IntPredicate) i -> pk(i).equals("c") && i % ROWS >= 1 && i % ROWS < 4),
                Arguments.of("PartitionKey ge 'b' and PartitionKey lt 'e'",
                        (IntPredicate) i -> pk(i).compareTo("b") >= 0 && pk(i).compareTo("e") < 0),
                Arguments.of("PartitionKey gt 'f' or PartitionKey lt 'b'",
                        (IntPredicate) i -> pk(i).compareTo("f") > 0 || pk(i).compareTo("b") < 0),
                Arguments.of("RowKey eq 'r2'", (IntPredicate) i -> i % ROWS == 2),
                Arguments.of("PartitionKey ne 'a' and RowKey le 'r0'", (IntPredicate) i -> i >= ROWS && i % ROWS == 0),
                Arguments.of("Name eq 'n17'", (IntPredicate) i -> i == 17),
                Arguments.of("Name ge 'n35'", (IntPredicate) i -> ("n" + i).compareTo("n35") >= 0),
                Arguments.of("Count ge 30", (IntPredicate) i -> i >= 30),
                Arguments.of("Count lt 3 or Count eq 39", (IntPredicate) i -> i < 3 || i == 39),
                Arguments.of("Big gt 10000000035L", (IntPredicate) i -> i > 35),
                Arguments.of("Ratio le 1.5", (IntPredicate) i -> i / 4.0 <= 1.5),
                Arguments.of("Ratio eq 2.0", (IntPredicate) i -> i == 8),
                Arguments.of("Flag eq true", (IntPredicate) i -> i % 2 == 0),
                Arguments.of("Flag", (IntPredicate) i -> i % 2 == 0),
                Arguments.of("not Flag and Count lt 10", (IntPredicate) i -> i % 2 == 1 && i < 10),
                Arguments.of("When lt datetime'2024-01-05T00:00:00Z'", (IntPredicate) i -> i < 4),
                Arguments.of("When ge datetime'2024-02-08T00:00:00.0000000Z'", (IntPredicate) i -> i >= 38),
                Arguments.of("Id eq guid'00000000-0000-0000-0000-000000000007'", (IntPredicate) i -> i == 7),
                Arguments.of("Blob eq X'0a01'", (IntPredicate) i -> i == 10),
                Arguments.of("Blob eq binary'1501'", (IntPredicate) i -> i == 21),
                Arguments.of("Sometimes eq 'here'", (IntPredicate) i -> i % 5 == 0),
                Arguments.of("Sometimes ne 'there'", (IntPredicate) i -> i % 5 == 0),
                Arguments.of("not (Count ge 5)", (IntPredicate) i -> i < 5),
                Arguments.of("Timestamp ge datetime'2020-01-01T00:00:00Z' and Count lt 4", (IntPredicate) i -> i < 4),
                Arguments.of("Timestamp lt datetime'2020-01-01T00:00:00Z'", (IntPredicate) i -> false),
                Arguments.of("(Count ge 10 and Count lt 12) or (PartitionKey eq 'h' and Flag)",
                        (IntPredicate) i -> (i >= 10 && i < 12) || (pk(i).equals("h") && i % 2 == 0)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("filters")
    void returnsExactlyTheMatchesInKeyOrder(String filter, IntPredicate matches) {
        assertThat(filtered(filter)).containsExactlyElementsOf(expected(matches));
    }

    @Test
    void returnsEveryEntityInKeyOrderAcrossAllPartitions() {
        List<TableEntity> entities = query(new ListEntitiesOptions());

        assertThat(keysOf(entities)).containsExactlyElementsOf(keysOf(all));
    }

    @Test
    void readsBackEveryEdmTypeAsStored() {
        TableEntity e = query(new ListEntitiesOptions().setFilter("PartitionKey eq 'c' and RowKey eq 'r3'")).get(0);
        TableEntity stored = entity(13);

        assertThat(e.getProperty("Name")).isEqualTo(stored.getProperty("Name"));
        assertThat(e.getProperty("Count")).isEqualTo(13);
        assertThat(e.getProperty("Big")).isEqualTo(10_000_000_013L);
        assertThat(e.getProperty("Ratio")).isEqualTo(3.25);
        assertThat(e.getProperty("Flag")).isEqualTo(false);
        assertThat(e.getProperty("When")).isEqualTo(EPOCH.plusDays(13));
        assertThat(e.getProperty("Id")).isEqualTo(new UUID(0, 13));
        assertThat(e.getProperty("Blob")).isEqualTo(new byte[] {13, 1});
        assertThat(e.getProperties()).doesNotContainKey("Sometimes");
    }

    @Test
    void findsNothingWhenNothingMatches() {
        assertThat(filtered("Name eq 'nobody'")).isEmpty();
        assertThat(filtered("PartitionKey eq 'zz'")).isEmpty();
        assertThat(filtered("PartitionKey eq 'a' and PartitionKey eq 'b'")).isEmpty();
        assertThat(filtered("Count eq 'thirteen'")).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"Name eq", "Count gt 5 and", "(PartitionKey eq 'a'", "Name eq 'unterminated",
            "Count eq 99999999999", "Name Eq 'n1'", "PartitionKey eq null"})
    void rejectsABadFilterWithInvalidInput(String filter) {
        ServiceErrors.assertHttpError(400, "InvalidInput", () -> filtered(filter));
    }

    @Test
    void selectsTheNamedPropertiesAndNullForOnesAnEntityLacks() {
        List<TableEntity> rows = query(new ListEntitiesOptions().setFilter("PartitionKey eq 'b'")
                .setSelect(List.of("PartitionKey", "RowKey", "Count", "Sometimes")));

        assertThat(keysOf(rows)).containsExactly("b/r0", "b/r1", "b/r2", "b/r3", "b/r4");
        assertThat(rows.get(0).getProperties()).containsEntry("Count", 5).containsEntry("Sometimes", "here")
                .doesNotContainKeys("Name", "Big", "Flag");
        assertThat(rows.get(1).getProperties()).containsEntry("Count", 6).containsKey("Sometimes")
                .doesNotContainKey("Name");
        assertThat(rows.get(1).getProperty("Sometimes")).isNull();
    }

    @Test
    void selectWithoutTheKeysReturnsOnlyTheNamedProperties() {
        List<TableEntity> rows = query(new ListEntitiesOptions().setFilter("Count eq 7").setSelect(List.of("Name")));

        assertThat(rows).hasSize(1);
        assertThat(rows.get(0).getProperty("Name")).isEqualTo("n7");
        assertThat(rows.get(0).getPartitionKey()).isNull();
        assertThat(rows.get(0).getProperties()).doesNotContainKeys("Count", "RowKey");
    }

    @Test
    void topLimitsEachPageAndTheSdkFollowsTheContinuation() {
        List<List<String>> pages = new ArrayList<>();
        table.listEntities(new ListEntitiesOptions().setTop(7).setFilter("Count ge 3"), null, null)
                .iterableByPage().forEach(page -> pages.add(keysOf(page.getElements())));

        assertThat(pages).allSatisfy(p -> assertThat(p).hasSizeLessThanOrEqualTo(7));
        assertThat(pages.get(0)).hasSize(7);
        assertThat(pages.stream().flatMap(List::stream)).containsExactlyElementsOf(expected(i -> i >= 3));
    }

    @Test
    void pointQueryThroughListEntitiesReturnsTheOneEntity() {
        List<TableEntity> rows = query(new ListEntitiesOptions().setFilter("PartitionKey eq 'e' and RowKey eq 'r1'"));

        assertThat(keysOf(rows)).containsExactly("e/r1");
        assertThat(rows.get(0).getProperty("Count")).isEqualTo(21);
        assertThat(rows.get(0).getETag()).startsWith("W/\"datetime'");
    }

    @Test
    void keysWithQuotesAndNonAsciiAreFoundWithEscapedLiterals(TableServiceClient service) {
        TableClient odd = TableFixtures.givenTable(service, "Odd");
        odd.createEntity(new TableEntity("o'brien", "ü-1").addProperty("V", 1));
        odd.createEntity(new TableEntity("o'brien", "z 2").addProperty("V", 2));
        odd.createEntity(new TableEntity("plain", "x").addProperty("V", 3));

        List<TableEntity> rows = odd.listEntities(new ListEntitiesOptions()
                .setFilter("PartitionKey eq 'o''brien' and RowKey gt 'z 2'"), null, null).stream().collect(Collectors.toList());

        assertThat(keysOf(rows)).containsExactly("o'brien/ü-1");
        assertThat(keysOf(odd.listEntities())).containsExactly("o'brien/z 2", "o'brien/ü-1", "plain/x");
    }
}
