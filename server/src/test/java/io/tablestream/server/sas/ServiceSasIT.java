package io.tablestream.server.sas;

import static io.tablestream.server.queries.TableFixtures.keysOf;
import static io.tablestream.server.sas.SasClients.OK;
import static io.tablestream.server.sas.SasClients.outcome;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableEntityUpdateMode;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionType;
import com.azure.data.tables.sas.TableSasPermission;
import com.azure.data.tables.sas.TableSasSignatureValues;
import io.tablestream.server.TablestreamServerExtension;
import io.tablestream.server.TablestreamServerExtension.RunningServer;
import io.tablestream.server.queries.TableFixtures;
import io.tablestream.testsupport.KafkaExtension;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Service SAS from {@code TableClient.generateSas}, used by an SDK client built with
 * {@code sasToken}: each permission allows exactly its operations, the time window, the key range
 * ({@code spk srk epk erk}) on point reads, writes and queries, and the table it names.
 * The data: PartitionKeys {@code a..e}, RowKeys {@code r0..r4}.
 */
@ExtendWith({KafkaExtension.class, TablestreamServerExtension.class})
class ServiceSasIT {
    private static final AtomicInteger ROW = new AtomicInteger();
    private static final String MISMATCH = "403 AuthorizationPermissionMismatch";

    private static RunningServer server;
    private static TableClient table;
    private static List<TableEntity> all;

    @BeforeAll
    static void givenATable(RunningServer running) {
        server = running;
        table = TableFixtures.givenTable(server.client(), "Sas");
        all = new ArrayList<>();
        for (char pk = 'a'; pk <= 'e'; pk++) {
            for (int r = 0; r < 5; r++) {
                all.add(new TableEntity(String.valueOf(pk), "r" + r).addProperty("V", pk + "" + r));
            }
        }
        TableFixtures.insertAll(table, all);
    }

    private static OffsetDateTime now() {
        return OffsetDateTime.now(ZoneOffset.UTC);
    }

    private static TableClient clientWith(String tableName, String sas) {
        return SasClients.tableClient(server, tableName, sas);
    }

    private static TableClient sasClient(TableSasSignatureValues values) {
        return clientWith(table.getTableName(), table.generateSas(values));
    }

    private static TableSasSignatureValues permissions(String letters) {
        return new TableSasSignatureValues(now().plusHours(1), TableSasPermission.parse(letters));
    }

    private static String freshRow() {
        return "w" + ROW.incrementAndGet();
    }

    private static Map<String, String> tryEveryOperation(TableClient sas) {
        Map<String, Consumer<TableClient>> operations = new LinkedHashMap<>();
        operations.put("get", c -> c.getEntity("a", "r1"));
        operations.put("query", c -> c.listEntities().stream().count());
        operations.put("insert", c -> c.createEntity(new TableEntity("x", freshRow())));
        operations.put("replace", c -> c.updateEntity(new TableEntity("a", "r2").addProperty("V", "a2"),
                TableEntityUpdateMode.REPLACE));
        operations.put("merge", c -> c.updateEntity(new TableEntity("a", "r2").addProperty("V", "a2"),
                TableEntityUpdateMode.MERGE));
        operations.put("upsert", c -> c.upsertEntity(new TableEntity("x", freshRow())));
        operations.put("delete", c -> {
            String row = freshRow();
            table.createEntity(new TableEntity("x", row));
            c.deleteEntity("x", row);
        });
        operations.put("batch insert", c -> c.submitTransaction(List.of(new TableTransactionAction(
                TableTransactionActionType.CREATE, new TableEntity("x", freshRow())))));
        Map<String, String> outcomes = new LinkedHashMap<>();
        operations.forEach((name, op) -> outcomes.put(name, outcome(() -> op.accept(sas))));
        return outcomes;
    }

    private static Map<String, String> expectedFor(String letters) {
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("get", letters.contains("r") ? OK : MISMATCH);
        expected.put("query", letters.contains("r") ? OK : MISMATCH);
        expected.put("insert", letters.contains("a") ? OK : MISMATCH);
        expected.put("replace", letters.contains("u") ? OK : MISMATCH);
        expected.put("merge", letters.contains("u") ? OK : MISMATCH);
        expected.put("upsert", letters.contains("a") && letters.contains("u") ? OK : MISMATCH);
        expected.put("delete", letters.contains("d") ? OK : MISMATCH);
        expected.put("batch insert", letters.contains("a") ? OK : "batch AuthorizationPermissionMismatch");
        return expected;
    }

    @ParameterizedTest
    @ValueSource(strings = {"r", "a", "u", "d", "au", "raud"})
    void eachPermissionAllowsExactlyItsOperations(String letters) {
        Map<String, String> outcomes = tryEveryOperation(sasClient(permissions(letters)));

        assertThat(outcomes).isEqualTo(expectedFor(letters));
    }

    @Test
    void aServiceSasCannotCreateDeleteOrListTables() {
        String sas = table.generateSas(permissions("raud"));
        TableServiceClient service = SasClients.serviceClient(server, sas);

        // the service answers 403 for every operation a table's SAS does not cover
        assertThat(outcome(() -> service.createTable(TableFixtures.uniqueName("Nope")))).startsWith("403 ");
        assertThat(outcome(() -> service.listTables().stream().count())).startsWith("403 ");
        assertThat(outcome(() -> clientWith(table.getTableName(), sas).deleteTable())).startsWith("403 ");
        assertThat(table.listEntities(new ListEntitiesOptions().setTop(1), null, null).iterator().hasNext()).isTrue();
    }

    @Test
    void anExpiredSasIsRefused() {
        TableClient expired = sasClient(new TableSasSignatureValues(now().minusMinutes(1), TableSasPermission.parse("r")));

        assertThat(outcome(() -> expired.getEntity("a", "r1"))).isEqualTo("403 AuthenticationFailed");
        assertThat(outcome(() -> expired.listEntities().stream().count())).isEqualTo("403 AuthenticationFailed");
    }

    @Test
    void aSasNotValidYetIsRefusedAndOneAlreadyStartedIsAccepted() {
        TableClient future = sasClient(permissions("r").setStartTime(now().plusMinutes(10)));
        TableClient started = sasClient(permissions("r").setStartTime(now().minusMinutes(10)));

        assertThat(outcome(() -> future.getEntity("a", "r1"))).isEqualTo("403 AuthenticationFailed");
        assertThat(started.getEntity("a", "r1").getProperty("V")).isEqualTo("a1");
    }

    @Test
    void aSasForAnotherTableIsRefused(TableServiceClient service) {
        TableClient other = TableFixtures.givenTable(service, "SasOther");
        other.createEntity(new TableEntity("a", "r1"));
        String sasForOther = other.generateSas(permissions("raud"));
        TableClient misused = clientWith(table.getTableName(), sasForOther);

        assertThat(outcome(() -> misused.getEntity("a", "r1"))).startsWith("403 ");
        assertThat(outcome(() -> misused.listEntities().stream().count())).startsWith("403 ");
        assertThat(outcome(() -> misused.createEntity(new TableEntity("y", freshRow())))).startsWith("403 ");
        assertThat(clientWith(other.getTableName(), sasForOther).getEntity("a", "r1")).isNotNull();
    }

    // ------------------------------------------------------------ key ranges

    /** spk=b srk=r2 epk=d erk=r1: from (b, r2) to (d, r1), both inclusive. */
    private static TableSasSignatureValues bTwoToDOne(String letters) {
        return permissions(letters).setStartPartitionKey("b").setStartRowKey("r2")
                .setEndPartitionKey("d").setEndRowKey("r1");
    }

    private static boolean inBTwoToDOne(String pk, String rk) {
        return (pk.compareTo("b") > 0 || (pk.equals("b") && rk.compareTo("r2") >= 0))
                && (pk.compareTo("d") < 0 || (pk.equals("d") && rk.compareTo("r1") <= 0));
    }

    private static List<String> expectedIn(String filterPk, String filterRk) {
        return keysOf(all.stream()
                .filter(e -> inBTwoToDOne(e.getPartitionKey(), e.getRowKey()))
                .filter(e -> filterPk == null || e.getPartitionKey().equals(filterPk))
                .filter(e -> filterRk == null || e.getRowKey().equals(filterRk))
                .collect(Collectors.toList()));
    }

    @Test
    void pointReadsOutsideTheKeyRangeAreRefused() {
        TableClient ranged = sasClient(bTwoToDOne("r"));
        Map<String, String> outcomes = new LinkedHashMap<>();
        for (TableEntity e : all) {
            outcomes.put(e.getPartitionKey() + "/" + e.getRowKey(),
                    outcome(() -> ranged.getEntity(e.getPartitionKey(), e.getRowKey())));
        }

        Map<String, String> expected = new LinkedHashMap<>();
        for (TableEntity e : all) {
            expected.put(e.getPartitionKey() + "/" + e.getRowKey(),
                    inBTwoToDOne(e.getPartitionKey(), e.getRowKey()) ? OK : "403 AuthorizationFailure");
        }
        assertThat(outcomes).isEqualTo(expected);
    }

    @Test
    void writesOutsideTheKeyRangeAreRefused() {
        TableClient ranged = sasClient(bTwoToDOne("raud"));
        String row = freshRow();

        assertThat(outcome(() -> ranged.createEntity(new TableEntity("c", row)))).isEqualTo(OK);
        assertThat(outcome(() -> ranged.createEntity(new TableEntity("b", "r1" + row)))).isEqualTo("403 AuthorizationFailure");
        assertThat(outcome(() -> ranged.createEntity(new TableEntity("d", "r2" + row)))).isEqualTo("403 AuthorizationFailure");
        assertThat(outcome(() -> ranged.upsertEntity(new TableEntity("a", row)))).isEqualTo("403 AuthorizationFailure");
        assertThat(outcome(() -> ranged.updateEntity(new TableEntity("e", "r0"), TableEntityUpdateMode.MERGE)))
                .isEqualTo("403 AuthorizationFailure");
        assertThat(outcome(() -> ranged.deleteEntity("a", "r0"))).isEqualTo("403 AuthorizationFailure");
        assertThat(outcome(() -> ranged.deleteEntity("c", row))).isEqualTo(OK);
        assertThat(table.getEntity("a", "r0")).isNotNull();
    }

    @Test
    void aBatchWithAnOperationOutsideTheKeyRangeAppliesNothing() {
        TableClient ranged = sasClient(bTwoToDOne("raud"));
        String inside = freshRow();
        String outside = "r1" + freshRow();

        String result = outcome(() -> ranged.submitTransaction(List.of(
                new TableTransactionAction(TableTransactionActionType.CREATE, new TableEntity("b", "r3" + inside)),
                new TableTransactionAction(TableTransactionActionType.CREATE, new TableEntity("b", outside)))));

        assertThat(result).isEqualTo("batch AuthorizationFailure");
        assertThat(outcome(() -> table.getEntity("b", "r3" + inside))).isEqualTo("404 ResourceNotFound");
    }

    @Test
    void queriesReturnOnlyRowsInsideTheKeyRange() {
        TableClient ranged = sasClient(bTwoToDOne("r"));

        assertThat(keysOf(ranged.listEntities())).containsExactlyElementsOf(expectedIn(null, null));
        assertThat(keysOf(ranged.listEntities(new ListEntitiesOptions().setFilter("PartitionKey eq 'b'"), null, null)))
                .containsExactlyElementsOf(expectedIn("b", null));
        assertThat(keysOf(ranged.listEntities(new ListEntitiesOptions().setFilter("PartitionKey eq 'a'"), null, null)))
                .isEmpty();
        assertThat(keysOf(ranged.listEntities(new ListEntitiesOptions().setFilter("RowKey eq 'r0'"), null, null)))
                .containsExactlyElementsOf(expectedIn(null, "r0"));
        assertThat(keysOf(ranged.listEntities(new ListEntitiesOptions()
                .setFilter("PartitionKey eq 'd' and RowKey ge 'r1'"), null, null)))
                .containsExactly("d/r1");
        assertThat(keysOf(ranged.listEntities(new ListEntitiesOptions()
                .setFilter("PartitionKey ge 'a' and RowKey eq 'r4'"), null, null)))
                .containsExactly("b/r4", "c/r4");
    }

    @Test
    void queriesPagedWithTopStayInsideTheKeyRange() {
        TableClient ranged = sasClient(bTwoToDOne("r"));
        List<List<String>> pages = new ArrayList<>();
        ranged.listEntities(new ListEntitiesOptions().setTop(2), null, null).iterableByPage()
                .forEach(p -> pages.add(keysOf(p.getElements())));

        assertThat(pages.stream().flatMap(List::stream)).containsExactlyElementsOf(expectedIn(null, null));
        assertThat(pages).allSatisfy(p -> assertThat(p).hasSizeLessThanOrEqualTo(2));
    }

    @Test
    void aRangeWithinOnePartitionNarrowsItsRows() {
        TableClient ranged = sasClient(permissions("r").setStartPartitionKey("c").setStartRowKey("r1")
                .setEndPartitionKey("c").setEndRowKey("r3"));

        assertThat(keysOf(ranged.listEntities())).containsExactly("c/r1", "c/r2", "c/r3");
        assertThat(keysOf(ranged.listEntities(new ListEntitiesOptions().setFilter("RowKey ge 'r2'"), null, null)))
                .containsExactly("c/r2", "c/r3");
        assertThat(outcome(() -> ranged.getEntity("c", "r4"))).isEqualTo("403 AuthorizationFailure");
    }

    @Test
    void aRangeWithOnlyAStartReachesEveryLaterKey() {
        TableClient ranged = sasClient(permissions("r").setStartPartitionKey("d").setStartRowKey("r3"));

        assertThat(keysOf(ranged.listEntities(new ListEntitiesOptions().setFilter("PartitionKey le 'e'"), null, null)))
                .containsExactly("d/r3", "d/r4", "e/r0", "e/r1", "e/r2", "e/r3", "e/r4");
        assertThat(outcome(() -> ranged.getEntity("d", "r2"))).isEqualTo("403 AuthorizationFailure");
    }

    @Test
    void aRangeWithOnlyAnEndReachesEveryEarlierKey() {
        TableClient ranged = sasClient(permissions("r").setEndPartitionKey("b").setEndRowKey("r1"));

        assertThat(keysOf(ranged.listEntities()))
                .containsExactly("a/r0", "a/r1", "a/r2", "a/r3", "a/r4", "b/r0", "b/r1");
        assertThat(outcome(() -> ranged.getEntity("b", "r2"))).isEqualTo("403 AuthorizationFailure");
    }
}
