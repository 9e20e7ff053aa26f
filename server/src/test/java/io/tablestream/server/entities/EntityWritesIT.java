package io.tablestream.server.entities;

import static io.tablestream.server.ServiceErrors.assertServiceError;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.core.http.rest.Response;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableEntityUpdateMode;
import io.tablestream.server.RawTableClient;
import io.tablestream.server.TableNames;
import io.tablestream.server.TablestreamServerExtension;
import io.tablestream.server.TablestreamServerExtension.RunningServer;
import io.tablestream.testsupport.KafkaExtension;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every single-entity write of the official SDK — create, update (replace and merge, with and
 * without ETag), upsert, delete — and Get Entity, with the statuses, error codes and ETags Azure gives.
 * One table for the class; each test writes its own PartitionKey.
 */
@ExtendWith({KafkaExtension.class, TablestreamServerExtension.class})
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EntityWritesIT {
    private TableClient table;
    private String endpoint;
    private RawTableClient http;
    private String pk;

    @BeforeAll
    void createTable(RunningServer server) {
        table = server.client().createTable(TableNames.unique("Writes"));
        endpoint = server.endpoint();
        http = RawTableClient.to(server);
    }

    @org.junit.jupiter.api.BeforeEach
    void partitionFor(TestInfo test) {
        pk = test.getTestMethod().orElseThrow().getName() + "-" + test.getDisplayName().hashCode();
    }

    private TableEntity givenEntity(String rowKey, Map<String, Object> properties) {
        TableEntity e = new TableEntity(pk, rowKey);
        properties.forEach(e::addProperty);
        table.createEntity(e);
        return table.getEntity(pk, rowKey);
    }

    /**
     * The ETag of a write's response as the SDK shows it: its ETag scrubbing drops the closing quote
     * of {@code W/"datetime'…'"}, so it is the body's {@code odata.etag} less its last character.
     */
    private static String etagOf(Response<?> response) {
        String etag = response.getHeaders().getValue("ETag");
        assertThat(etag).startsWith("W/\"datetime'").endsWith("Z'");
        return etag + "\"";
    }

    /** The entity's own properties, without keys, Timestamp and OData control information. */
    private static Map<String, Object> customProperties(TableEntity entity) {
        Map<String, Object> custom = new java.util.HashMap<>(entity.getProperties());
        custom.keySet().removeIf(k -> k.startsWith("odata.") || k.endsWith("@odata.type")
                || Set.of("PartitionKey", "RowKey", "Timestamp").contains(k));
        return custom;
    }

    private Response<Void> update(TableEntity entity, TableEntityUpdateMode mode, boolean ifUnchanged) {
        return table.updateEntityWithResponse(entity, mode, ifUnchanged, null, null);
    }

    private Response<Void> upsert(TableEntity entity, TableEntityUpdateMode mode) {
        return table.upsertEntityWithResponse(entity, mode, null, null);
    }

    // ------------------------------------------------------------------ insert and get

    @Test
    void createsAnEntityAnsweringNoContentWithItsETagAndUrl() {
        Response<Void> response = table.createEntityWithResponse(
                new TableEntity(pk, "r").addProperty("Name", "one").addProperty("N", 1), null, null);

        TableEntity got = table.getEntity(pk, "r");
        String url = endpoint + "/" + table.getTableName() + "(PartitionKey='" + pk + "',RowKey='r')";
        assertThat(response.getStatusCode()).isEqualTo(204);
        assertThat(response.getHeaders().getValue("Preference-Applied")).isEqualTo("return-no-content");
        assertThat(response.getHeaders().getValue("Location")).isEqualTo(url);
        assertThat(response.getHeaders().getValue("DataServiceId")).isEqualTo(url);
        assertThat(etagOf(response)).isEqualTo(got.getETag());
        assertThat(response.getHeaders().getValue("x-ms-session-token")).matches("[0-9]+:[0-9]+");
        assertThat(got.getPartitionKey()).isEqualTo(pk);
        assertThat(got.getRowKey()).isEqualTo("r");
        assertThat(got.getTimestamp()).isNotNull();
        assertThat(got.getProperties()).containsEntry("Name", "one").containsEntry("N", 1);
    }

    @Test
    void getEntityAnswersItsETagHeaderAndBody() {
        givenEntity("r", Map.of("A", "a"));

        Response<TableEntity> response = table.getEntityWithResponse(pk, "r", null, null, null);

        assertThat(response.getStatusCode()).isEqualTo(200);
        assertThat(etagOf(response)).isEqualTo(response.getValue().getETag());
        assertThat(response.getHeaders().getValue("Content-Type")).startsWith("application/json;odata=fullmetadata");
    }

    @Test
    void getEntityWithSelectReturnsOnlyTheChosenProperties() {
        givenEntity("r", Map.of("A", "a", "B", 2, "C", true));

        TableEntity got = table.getEntityWithResponse(pk, "r", List.of("A", "C", "Absent"), null, null).getValue();

        assertThat(got.getProperties()).containsEntry("A", "a").containsEntry("C", true).doesNotContainKey("B");
        assertThat(got.getProperties().get("Absent")).isNull();
        assertThat(got.getETag()).isNotNull();
    }

    @Test
    void getEntityOfAMissingEntityIsResourceNotFound() {
        assertServiceError(() -> table.getEntity(pk, "nobody"), 404, "ResourceNotFound");
    }

    @Test
    void insertingAnExistingEntityIsEntityAlreadyExists() {
        TableEntity before = givenEntity("r", Map.of("V", 1));

        assertServiceError(() -> table.createEntity(new TableEntity(pk, "r").addProperty("V", 2)), 409,
                "EntityAlreadyExists");
        assertThat(table.getEntity(pk, "r").getETag()).isEqualTo(before.getETag());
        assertThat(table.getEntity(pk, "r").getProperty("V")).isEqualTo(1);
    }

    @Test
    void nullPropertiesAreNotStored() {
        table.createEntity(new TableEntity(pk, "r").addProperty("Kept", "k").addProperty("Gone", null));

        assertThat(table.getEntity(pk, "r").getProperties()).containsKey("Kept").doesNotContainKey("Gone");
    }

    // ------------------------------------------------------------------ update: replace and merge

    @Test
    void replaceWithoutETagReplacesEveryProperty() {
        givenEntity("r", Map.of("A", "a", "B", "b"));

        Response<Void> response = table.updateEntityWithResponse(new TableEntity(pk, "r").addProperty("C", "c"),
                TableEntityUpdateMode.REPLACE, false, null, null);

        TableEntity got = table.getEntity(pk, "r");
        assertThat(response.getStatusCode()).isEqualTo(204);
        assertThat(etagOf(response)).isEqualTo(got.getETag());
        assertThat(got.getProperties()).containsEntry("C", "c").doesNotContainKeys("A", "B");
    }

    @Test
    void mergeWithoutETagKeepsOtherProperties() {
        givenEntity("r", Map.of("A", "a", "B", "b"));

        Response<Void> response = table.updateEntityWithResponse(new TableEntity(pk, "r").addProperty("B", "b2")
                .addProperty("C", 3), TableEntityUpdateMode.MERGE, false, null, null);

        TableEntity got = table.getEntity(pk, "r");
        assertThat(response.getStatusCode()).isEqualTo(204);
        assertThat(etagOf(response)).isEqualTo(got.getETag());
        assertThat(got.getProperties()).containsEntry("A", "a").containsEntry("B", "b2").containsEntry("C", 3);
    }

    @ParameterizedTest
    @EnumSource(TableEntityUpdateMode.class)
    void updateWithTheCurrentETagSucceeds(TableEntityUpdateMode mode) {
        TableEntity current = givenEntity("r", Map.of("A", "a"));

        Response<Void> response = table.updateEntityWithResponse(current.addProperty("B", "b"), mode, true, null, null);

        assertThat(response.getStatusCode()).isEqualTo(204);
        assertThat(table.getEntity(pk, "r").getProperties()).containsEntry("A", "a").containsEntry("B", "b");
    }

    @ParameterizedTest
    @EnumSource(TableEntityUpdateMode.class)
    void updateWithAStaleETagIsUpdateConditionNotSatisfied(TableEntityUpdateMode mode) {
        TableEntity stale = givenEntity("r", Map.of("A", "a"));
        table.updateEntity(new TableEntity(pk, "r").addProperty("A", "changed"), TableEntityUpdateMode.MERGE);

        assertServiceError(() -> update(stale.addProperty("A", "lost"), mode, true), 412,
                "UpdateConditionNotSatisfied");
        assertThat(table.getEntity(pk, "r").getProperty("A")).isEqualTo("changed");
    }

    @ParameterizedTest
    @EnumSource(TableEntityUpdateMode.class)
    void updateOfAMissingEntityIsResourceNotFound(TableEntityUpdateMode mode) {
        assertServiceError(() -> table.updateEntity(new TableEntity(pk, "nobody").addProperty("A", 1), mode),
                404, "ResourceNotFound");
        TableEntity withETag = new TableEntity(pk, "nobody").addProperty("odata.etag",
                "W/\"datetime'2024-01-01T00%3A00%3A00.0000000Z'\"");
        assertServiceError(() -> update(withETag, mode, true), 404, "ResourceNotFound");
        assertServiceError(() -> table.getEntity(pk, "nobody"), 404, "ResourceNotFound");
    }

    @Test
    void mergeOfNoPropertiesKeepsTheEntityAndGivesANewETag() {
        TableEntity before = givenEntity("r", Map.of("A", "a", "N", 7L));

        Response<Void> response = table.updateEntityWithResponse(new TableEntity(pk, "r"),
                TableEntityUpdateMode.MERGE, false, null, null);

        TableEntity after = table.getEntity(pk, "r");
        assertThat(response.getStatusCode()).isEqualTo(204);
        assertThat(after.getProperties()).containsEntry("A", "a").containsEntry("N", 7L);
        assertThat(after.getETag()).isNotEqualTo(before.getETag()).isEqualTo(etagOf(response));
        assertThat(after.getTimestamp()).isAfter(before.getTimestamp());
    }

    @Test
    void replaceWithNoPropertiesLeavesOnlyTheKeys() {
        givenEntity("r", Map.of("A", "a"));

        table.updateEntity(new TableEntity(pk, "r"), TableEntityUpdateMode.REPLACE);

        assertThat(customProperties(table.getEntity(pk, "r"))).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"MERGE", "PATCH"})
    void aMergeOfAnEmptyObjectKeepsEveryPropertyWithOrWithoutIfMatch(String method) {
        TableEntity before = givenEntity("r", Map.of("A", "a"));
        String path = table.getTableName() + "(PartitionKey='" + pk + "',RowKey='r')";

        RawTableClient.Response merge = http.send(method, path, "{}", "If-Match", "*");
        RawTableClient.Response upsert = http.send(method, path, "{}");
        RawTableClient.Response insertOrMerge = http.send(method, table.getTableName() + "(PartitionKey='" + pk
                + "',RowKey='new')", "{}");

        assertThat(merge.status()).isEqualTo(204);
        assertThat(upsert.status()).isEqualTo(204);
        assertThat(insertOrMerge.status()).isEqualTo(204);
        TableEntity after = table.getEntity(pk, "r");
        assertThat(customProperties(after)).isEqualTo(Map.of("A", "a"));
        assertThat(after.getETag()).isNotEqualTo(before.getETag());
        assertThat(customProperties(table.getEntity(pk, "new"))).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"MERGE", "PUT", "POST"})
    void aWriteWithoutABodyIsInvalidInput(String method) {
        givenEntity("r", Map.of("A", "a"));
        String path = method.equals("POST") ? table.getTableName()
                : table.getTableName() + "(PartitionKey='" + pk + "',RowKey='r')";

        RawTableClient.Response response = http.send(method, path, "", "If-Match", "*");

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.header("x-ms-error-code")).isEqualTo("InvalidInput");
        assertThat(customProperties(table.getEntity(pk, "r"))).isEqualTo(Map.of("A", "a"));
    }

    // ------------------------------------------------------------------ upsert

    @ParameterizedTest
    @EnumSource(TableEntityUpdateMode.class)
    void upsertCreatesAMissingEntity(TableEntityUpdateMode mode) {
        Response<Void> response = table.upsertEntityWithResponse(new TableEntity(pk, "r").addProperty("A", "a"),
                mode, null, null);

        TableEntity got = table.getEntity(pk, "r");
        assertThat(response.getStatusCode()).isEqualTo(204);
        assertThat(etagOf(response)).isEqualTo(got.getETag());
        assertThat(got.getProperties()).containsEntry("A", "a");
    }

    @Test
    void upsertMergeOfAnExistingEntityKeepsOtherProperties() {
        givenEntity("r", Map.of("A", "a", "B", "b"));

        upsert(new TableEntity(pk, "r").addProperty("B", "b2"), TableEntityUpdateMode.MERGE);

        assertThat(table.getEntity(pk, "r").getProperties()).containsEntry("A", "a").containsEntry("B", "b2");
    }

    @Test
    void upsertReplaceOfAnExistingEntityDropsOtherProperties() {
        givenEntity("r", Map.of("A", "a", "B", "b"));

        upsert(new TableEntity(pk, "r").addProperty("B", "b2"), TableEntityUpdateMode.REPLACE);

        assertThat(table.getEntity(pk, "r").getProperties()).containsEntry("B", "b2").doesNotContainKey("A");
    }

    @Test
    void upsertIgnoresAnETagItIsGiven() {
        givenEntity("r", Map.of("A", "a"));
        TableEntity stale = new TableEntity(pk, "r").addProperty("odata.etag",
                "W/\"datetime'2024-01-01T00%3A00%3A00.0000000Z'\"").addProperty("A", "upserted");

        upsert(stale, TableEntityUpdateMode.REPLACE);

        assertThat(table.getEntity(pk, "r").getProperty("A")).isEqualTo("upserted");
    }

    // ------------------------------------------------------------------ delete

    @Test
    void deletesWithoutETag() {
        givenEntity("r", Map.of("A", "a"));

        Response<Void> response = table.deleteEntityWithResponse(new TableEntity(pk, "r"), false, null, null);

        assertThat(response.getStatusCode()).isEqualTo(204);
        assertServiceError(() -> table.getEntity(pk, "r"), 404, "ResourceNotFound");
    }

    @Test
    void deletesWithTheCurrentETag() {
        TableEntity current = givenEntity("r", Map.of("A", "a"));

        Response<Void> response = table.deleteEntityWithResponse(current, true, null, null);

        assertThat(response.getStatusCode()).isEqualTo(204);
        assertServiceError(() -> table.getEntity(pk, "r"), 404, "ResourceNotFound");
    }

    @Test
    void deleteWithAStaleETagIsUpdateConditionNotSatisfied() {
        TableEntity stale = givenEntity("r", Map.of("A", "a"));
        table.updateEntity(new TableEntity(pk, "r").addProperty("A", "b"), TableEntityUpdateMode.MERGE);

        assertServiceError(() -> table.deleteEntityWithResponse(stale, true, null, null), 412,
                "UpdateConditionNotSatisfied");
        assertThat(table.getEntity(pk, "r").getProperty("A")).isEqualTo("b");
    }

    @Test
    void deletingAMissingEntityIsA404TheSdkSwallows() {
        Response<Void> byKeys = table.deleteEntityWithResponse(new TableEntity(pk, "nobody"), false, null, null);

        assertThat(byKeys.getStatusCode()).isEqualTo(404);
        assertThat(byKeys.getHeaders().getValue("x-ms-error-code")).isEqualTo("ResourceNotFound");
        table.deleteEntity(pk, "nobody"); // no exception: the SDK swallows the 404
    }

    @Test
    void anEntityCanBeCreatedAgainAfterDelete() {
        givenEntity("r", Map.of("Old", "x"));
        table.deleteEntity(pk, "r");

        table.createEntity(new TableEntity(pk, "r").addProperty("New", "y"));

        assertThat(table.getEntity(pk, "r").getProperties()).containsEntry("New", "y").doesNotContainKey("Old");
    }

    // ------------------------------------------------------------------ ETags

    /** Chains conditional writes on the ETag each write answers, as the SDK shows it (see {@link #etagOf}). */
    @Test
    void everyWriteGivesANewETagThatTheNextConditionalWriteUses() {
        Set<String> etags = new HashSet<>();
        String etag = table.createEntityWithResponse(new TableEntity(pk, "r").addProperty("V", 0), null, null)
                .getHeaders().getValue("ETag");
        etags.add(etag);
        for (int v = 1; v <= 6; v++) {
            TableEntity next = new TableEntity(pk, "r").addProperty("V", v).addProperty("odata.etag", etag);
            String previous = etag;
            TableEntityUpdateMode mode = v % 2 == 0 ? TableEntityUpdateMode.REPLACE : TableEntityUpdateMode.MERGE;

            etag = table.updateEntityWithResponse(next, mode, true, null, null).getHeaders().getValue("ETag");

            assertThat(etags.add(etag)).as("ETag of write %d is new", v).isTrue();
            TableEntity stale = new TableEntity(pk, "r").addProperty("V", -1).addProperty("odata.etag", previous);
            assertServiceError(() -> update(stale, TableEntityUpdateMode.MERGE, true), 412,
                    "UpdateConditionNotSatisfied");
        }
        etag = table.upsertEntityWithResponse(new TableEntity(pk, "r").addProperty("V", 7), TableEntityUpdateMode.MERGE,
                null, null).getHeaders().getValue("ETag");
        assertThat(etags.add(etag)).isTrue();
        TableEntity last = table.getEntity(pk, "r");
        assertThat(last.getETag()).isEqualTo(etag + "\"");
        assertThat(last.getProperty("V")).isEqualTo(7);
        assertThat(table.deleteEntityWithResponse(last, true, null, null).getStatusCode()).isEqualTo(204);
    }

    @ParameterizedTest
    @ValueSource(strings = {"it's", "a b", "100%", "plus+sign", "amp&eq=", "ünïcödé", "emoji\uD83D\uDE00", "(paren)",
            "semi;colon", "comma,", "dollar$", "at@", "tilde~", "star*", "'", "''"})
    void keysWithUrlSignificantCharactersWorkForEveryOperation(String key) {
        Response<Void> created = table.createEntityWithResponse(new TableEntity(key, key).addProperty("V", 1), null, null);
        table.updateEntity(new TableEntity(key, key).addProperty("W", 2), TableEntityUpdateMode.MERGE);
        upsert(new TableEntity(key, key).addProperty("X", 3), TableEntityUpdateMode.MERGE);

        TableEntity got = table.getEntity(key, key);

        assertThat(created.getStatusCode()).isEqualTo(204);
        assertThat(got.getPartitionKey()).isEqualTo(key);
        assertThat(got.getRowKey()).isEqualTo(key);
        assertThat(got.getProperties()).containsEntry("V", 1).containsEntry("W", 2).containsEntry("X", 3);
        assertThat(table.deleteEntityWithResponse(got, true, null, null).getStatusCode()).isEqualTo(204);
        assertServiceError(() -> table.getEntity(key, key), 404, "ResourceNotFound");
    }
}
