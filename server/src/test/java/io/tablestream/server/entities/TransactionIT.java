package io.tablestream.server.entities;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.azure.core.http.rest.Response;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableEntityUpdateMode;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionResponse;
import com.azure.data.tables.models.TableTransactionActionType;
import com.azure.data.tables.models.TableTransactionFailedException;
import com.azure.data.tables.models.TableTransactionResult;
import io.tablestream.server.TableNames;
import io.tablestream.server.RawTableClient;
import io.tablestream.server.TablestreamServerExtension;
import io.tablestream.server.TablestreamServerExtension.RunningServer;
import io.tablestream.testsupport.KafkaExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Entity group transactions through {@code TableClient.submitTransaction}: every action type in one
 * change set, all-or-nothing on failure with the failing action named, and the batch rules (100
 * actions, one PartitionKey, each entity once, an existing table).
 */
@ExtendWith({KafkaExtension.class, TablestreamServerExtension.class})
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TransactionIT {
    private TableServiceClient service;
    private TableClient table;
    private String pk;

    @BeforeAll
    void createTable(TableServiceClient service) {
        this.service = service;
        table = service.createTable(TableNames.unique("Batch"));
    }

    @BeforeEach
    void partitionFor(TestInfo test) {
        pk = test.getTestMethod().orElseThrow().getName();
    }

    private static TableTransactionAction action(TableTransactionActionType type, TableEntity entity) {
        return new TableTransactionAction(type, entity);
    }

    private static TableTransactionAction ifUnchanged(TableTransactionActionType type, TableEntity entity) {
        return new TableTransactionAction(type, entity, true);
    }

    private TableEntity given(String rowKey, Map<String, Object> properties) {
        TableEntity e = new TableEntity(pk, rowKey);
        properties.forEach(e::addProperty);
        table.createEntity(e);
        return table.getEntity(pk, rowKey);
    }

    private Map<String, TableEntity> partition() {
        return table.listEntities(new ListEntitiesOptions().setFilter("PartitionKey eq '" + pk + "'"), null, null)
                .stream().collect(Collectors.toMap(TableEntity::getRowKey, e -> e));
    }

    /** The transaction fails, naming the action at {@code index} and the service's {@code code}. */
    private static TableTransactionFailedException assertTransactionFails(ThrowingCallable call, int index, String code) {
        TableTransactionFailedException e = catchThrowableOfType(TableTransactionFailedException.class, call);
        assertThat(e).as("expected the transaction to fail at %d with %s", index, code).isNotNull();
        assertThat(e.getFailedTransactionActionIndex()).as("failed index of: %s", e.getMessage()).isEqualTo(index);
        assertThat(e.getValue().getErrorCode().toString()).isEqualTo(code);
        return e;
    }

    @Test
    void appliesEveryActionTypeInOneTransaction() {
        given("upsertMerge", Map.of("Kept", "k", "V", 0));
        TableEntity merge = given("updateMerge", Map.of("Kept", "k", "V", 0));
        given("updateReplace", Map.of("Gone", "g", "V", 0));
        TableEntity delete = given("delete", Map.of("V", 0));
        given("deleteAny", Map.of("V", 0));
        List<TableTransactionAction> actions = List.of(
                action(TableTransactionActionType.CREATE, new TableEntity(pk, "create").addProperty("V", 1)),
                action(TableTransactionActionType.UPSERT_MERGE, new TableEntity(pk, "upsertMerge").addProperty("V", 2)),
                action(TableTransactionActionType.UPSERT_REPLACE, new TableEntity(pk, "upsertReplace").addProperty("V", 3)),
                ifUnchanged(TableTransactionActionType.UPDATE_MERGE, merge.addProperty("V", 4)),
                action(TableTransactionActionType.UPDATE_REPLACE, new TableEntity(pk, "updateReplace").addProperty("V", 5)),
                ifUnchanged(TableTransactionActionType.DELETE, delete),
                action(TableTransactionActionType.DELETE, new TableEntity(pk, "deleteAny")));

        Response<TableTransactionResult> response = table.submitTransactionWithResponse(actions, null, null);

        assertThat(response.getStatusCode()).isEqualTo(202);
        List<TableTransactionActionResponse> results = response.getValue().getTransactionActionResponses();
        assertThat(results).hasSize(actions.size());
        assertThat(results).extracting(TableTransactionActionResponse::getStatusCode).containsOnly(204);
        Map<String, TableEntity> stored = partition();
        assertThat(stored.keySet()).containsExactlyInAnyOrder("create", "upsertMerge", "upsertReplace", "updateMerge",
                "updateReplace");
        for (int i = 0; i < 5; i++) {
            assertThat(stored.get(actions.get(i).getEntity().getRowKey()).getProperty("V")).isEqualTo(i + 1);
        }
        assertThat(stored.get("upsertMerge").getProperty("Kept")).isEqualTo("k");
        assertThat(stored.get("updateMerge").getProperty("Kept")).isEqualTo("k");
        assertThat(stored.get("updateReplace").getProperties()).doesNotContainKey("Gone");
        assertThat(stored.values().stream().map(TableEntity::getTimestamp).distinct()).hasSize(1);
    }

    /**
     * Each operation's own response, as the SDK cannot show it (12.5.9 drops the header fields of
     * every sub-response): an insert asked for content answers 201 with the entity, the others 204,
     * each write with the ETag of the version it stored.
     */
    @Test
    void eachOperationOfARawBatchAnswersItsStatusAndETag(RunningServer server) {
        given("merged", Map.of("Kept", "k"));
        given("deleted", Map.of());
        String base = server.endpoint() + "/" + table.getTableName();
        String body = String.join("\r\n",
                "--batch_1", "Content-Type: multipart/mixed; boundary=changeset_1", "",
                "--changeset_1", "Content-Type: application/http", "Content-Transfer-Encoding: binary", "",
                "POST " + base + " HTTP/1.1", "Content-Type: application/json",
                "Accept: application/json;odata=minimalmetadata", "Prefer: return-content", "Content-ID: 1", "",
                "{\"PartitionKey\":\"" + pk + "\",\"RowKey\":\"inserted\",\"V\":1}",
                "--changeset_1", "Content-Type: application/http", "Content-Transfer-Encoding: binary", "",
                "POST " + base + " HTTP/1.1", "Content-Type: application/json", "Prefer: return-no-content", "",
                "{\"PartitionKey\":\"" + pk + "\",\"RowKey\":\"quiet\"}",
                "--changeset_1", "Content-Type: application/http", "Content-Transfer-Encoding: binary", "",
                "MERGE " + base + "(PartitionKey='" + pk + "',RowKey='merged') HTTP/1.1",
                "Content-Type: application/json", "If-Match: *", "", "{\"V\":2}",
                "--changeset_1", "Content-Type: application/http", "Content-Transfer-Encoding: binary", "",
                "DELETE " + base + "(PartitionKey='" + pk + "',RowKey='deleted') HTTP/1.1", "If-Match: *", "", "",
                "--changeset_1--", "--batch_1--", "");

        RawTableClient.Response response = RawTableClient.to(server).send("POST", "$batch", body,
                "Content-Type", "multipart/mixed; boundary=batch_1");

        Map<String, TableEntity> stored = partition();
        assertThat(response.status()).isEqualTo(202);
        assertThat(response.header("Content-Type")).satisfies(
                t -> assertThat(t).startsWith("multipart/mixed; boundary=batchresponse_"));
        List<String> parts = List.of(response.body().split("--changesetresponse_[0-9a-f-]+"));
        assertThat(parts.get(1)).contains("HTTP/1.1 201 Created", "Content-ID: 1",
                "ETag: " + stored.get("inserted").getETag(), "\"RowKey\":\"inserted\"", "\"V\":1",
                "Location: " + base + "(PartitionKey='" + pk + "',RowKey='inserted')");
        assertThat(parts.get(2)).contains("HTTP/1.1 204 No Content", "Preference-Applied: return-no-content",
                "ETag: " + stored.get("quiet").getETag(), "DataServiceId: " + base + "(PartitionKey='" + pk
                        + "',RowKey='quiet')");
        assertThat(parts.get(3)).contains("HTTP/1.1 204 No Content", "ETag: " + stored.get("merged").getETag());
        assertThat(parts.get(4)).contains("HTTP/1.1 204 No Content").doesNotContain("ETag");
        assertThat(stored).containsOnlyKeys("inserted", "quiet", "merged");
        assertThat(stored.get("merged").getProperties()).containsEntry("Kept", "k").containsEntry("V", 2);
    }

    @Test
    void anInsertInATransactionAnswersItsOwnResponse() {
        TableTransactionResult result = table.submitTransaction(List.of(
                action(TableTransactionActionType.CREATE, new TableEntity(pk, "a")),
                action(TableTransactionActionType.CREATE, new TableEntity(pk, "b"))));

        assertThat(result.getTableTransactionActionResponseByRowKey("a").getStatusCode()).isEqualTo(204);
        assertThat(result.getTableTransactionActionResponseByRowKey("b").getStatusCode()).isEqualTo(204);
        assertThat(partition()).containsOnlyKeys("a", "b");
    }

    @Test
    void aFailingActionRollsTheWholeTransactionBack() {
        given("existing", Map.of("V", 0));

        assertTransactionFails(() -> table.submitTransaction(List.of(
                action(TableTransactionActionType.CREATE, new TableEntity(pk, "new")),
                action(TableTransactionActionType.UPSERT_MERGE, new TableEntity(pk, "existing").addProperty("V", 1)),
                action(TableTransactionActionType.UPDATE_MERGE, new TableEntity(pk, "missing").addProperty("V", 2)),
                action(TableTransactionActionType.CREATE, new TableEntity(pk, "after")))), 2, "ResourceNotFound");

        assertThat(partition()).containsOnlyKeys("existing");
        assertThat(partition().get("existing").getProperty("V")).isEqualTo(0);
    }

    @Test
    void insertingAnExistingEntityFailsTheTransactionWithEntityAlreadyExists() {
        given("existing", Map.of("V", 0));

        assertTransactionFails(() -> table.submitTransaction(List.of(
                action(TableTransactionActionType.CREATE, new TableEntity(pk, "new")),
                action(TableTransactionActionType.CREATE, new TableEntity(pk, "existing")))), 1, "EntityAlreadyExists");

        assertThat(partition()).containsOnlyKeys("existing");
    }

    @Test
    void aStaleETagFailsTheTransactionWithUpdateConditionNotSatisfied() {
        TableEntity stale = given("r", Map.of("V", 0));
        table.updateEntity(new TableEntity(pk, "r").addProperty("V", 1), TableEntityUpdateMode.MERGE);

        assertTransactionFails(() -> table.submitTransaction(List.of(
                action(TableTransactionActionType.CREATE, new TableEntity(pk, "new")),
                ifUnchanged(TableTransactionActionType.UPDATE_REPLACE, stale.addProperty("V", 2)))), 1,
                "UpdateConditionNotSatisfied");
        assertTransactionFails(() -> table.submitTransaction(List.of(
                ifUnchanged(TableTransactionActionType.DELETE, stale))), 0, "UpdateConditionNotSatisfied");

        assertThat(partition()).containsOnlyKeys("r");
        assertThat(partition().get("r").getProperty("V")).isEqualTo(1);
    }

    @Test
    void anInvalidEntityFailsTheTransactionAtItsIndex() {
        assertTransactionFails(() -> table.submitTransaction(List.of(
                action(TableTransactionActionType.CREATE, new TableEntity(pk, "ok")),
                action(TableTransactionActionType.CREATE, new TableEntity(pk, "bad").addProperty("1nvalid", 1)))), 1,
                "PropertyNameInvalid");
        assertTransactionFails(() -> table.submitTransaction(List.of(
                action(TableTransactionActionType.CREATE, new TableEntity(pk, "ok")),
                action(TableTransactionActionType.UPSERT_REPLACE, new TableEntity(pk, "a#b")))), 1, "OutOfRangeInput");

        assertThat(partition()).isEmpty();
    }

    @Test
    void acceptsExactlyOneHundredActions() {
        List<TableTransactionAction> actions = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            actions.add(action(TableTransactionActionType.UPSERT_REPLACE,
                    new TableEntity(pk, String.format("r%03d", i)).addProperty("I", i)));
        }

        TableTransactionResult result = table.submitTransaction(actions);

        assertThat(result.getTransactionActionResponses()).hasSize(100);
        assertThat(partition()).hasSize(100);
        assertThat(partition().get("r099").getProperty("I")).isEqualTo(99);
    }

    @Test
    void refusesOneHundredAndOneActionsWithInvalidInput() {
        List<TableTransactionAction> actions = new ArrayList<>();
        for (int i = 0; i < 101; i++) {
            actions.add(action(TableTransactionActionType.CREATE, new TableEntity(pk, "r" + i)));
        }

        TableTransactionFailedException e = assertTransactionFails(() -> table.submitTransaction(actions), 0,
                "InvalidInput");

        assertThat(e.getValue().getErrorMessage()).contains("100");
        assertThat(partition()).isEmpty();
    }

    @Test
    void refusesTwoPartitionKeysWithCommandsInBatchActOnDifferentPartitions() {
        assertTransactionFails(() -> table.submitTransaction(List.of(
                action(TableTransactionActionType.CREATE, new TableEntity(pk, "a")),
                action(TableTransactionActionType.CREATE, new TableEntity(pk, "b")),
                action(TableTransactionActionType.CREATE, new TableEntity(pk + "Other", "c")))), 2,
                "CommandsInBatchActOnDifferentPartitions");

        assertThat(partition()).isEmpty();
    }

    @Test
    void refusesTheSameEntityTwiceWithInvalidDuplicateRow() {
        given("r", Map.of("V", 0));

        assertTransactionFails(() -> table.submitTransaction(List.of(
                action(TableTransactionActionType.CREATE, new TableEntity(pk, "new")),
                action(TableTransactionActionType.UPSERT_MERGE, new TableEntity(pk, "r").addProperty("V", 1)),
                action(TableTransactionActionType.DELETE, new TableEntity(pk, "r")))), 2, "InvalidDuplicateRow");

        assertThat(partition()).containsOnlyKeys("r");
    }

    @Test
    void aTransactionOnAMissingTableFailsWithTableNotFound() {
        TableClient missing = service.getTableClient(TableNames.unique("NoSuchTable"));

        assertTransactionFails(() -> missing.submitTransaction(List.of(
                action(TableTransactionActionType.CREATE, new TableEntity(pk, "a")))), 0, "TableNotFound");
    }

    @Test
    void aTransactionOnADeletedTableFailsWithTableNotFound() {
        String name = TableNames.unique("Deleted");
        TableClient deleted = service.createTable(name);
        service.deleteTable(name);

        assertTransactionFails(() -> deleted.submitTransaction(List.of(
                action(TableTransactionActionType.UPSERT_MERGE, new TableEntity(pk, "a")))), 0, "TableNotFound");
    }
}
