package io.tablestream.server.indexes;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionType;
import io.tablestream.server.IndexRequests;
import io.tablestream.server.RawTableClient;
import io.tablestream.server.TablestreamServerExtension;
import io.tablestream.testsupport.KafkaExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Secondary indexes over HTTP: declared, built over existing rows, used by queries, dropped. */
@ExtendWith({KafkaExtension.class, TablestreamServerExtension.class})
class SecondaryIndexIT {
    private static String uniqueName(String prefix) {
        return prefix + System.nanoTime() % 1_000_000_000L;
    }

    private static void insertPeople(TableClient table, int count) {
        for (int p = 0; p < 10; p++) {
            List<TableTransactionAction> batch = new ArrayList<>();
            for (int i = p; i < count; i += 10) {
                batch.add(new TableTransactionAction(TableTransactionActionType.CREATE,
                        new TableEntity("dept" + p, String.format("emp%04d", i))
                                .addProperty("Email", "user" + (i % 50) + "@example.com")
                                .addProperty("Age", 20 + i % 40)));
            }
            for (int from = 0; from < batch.size(); from += 100) {
                table.submitTransaction(batch.subList(from, Math.min(batch.size(), from + 100)));
            }
        }
    }

    private static List<String> keysOf(TableClient table, String filter) {
        return table.listEntities(new ListEntitiesOptions().setFilter(filter), null, null).stream()
                .map(e -> e.getPartitionKey() + "/" + e.getRowKey()).toList();
    }

    @Test
    void anIndexBuiltOverExistingRowsAnswersEqAndRangeQueriesInKeyOrder(TablestreamServerExtension.RunningServer server) {
        TableServiceClient service = server.client();
        String name = uniqueName("People");
        TableClient table = service.createTable(name);
        insertPeople(table, 1_000);
        List<String> byEmailScan = keysOf(table, "Email eq 'user7@example.com'");
        List<String> byAgeScan = keysOf(table, "Age ge 25 and Age lt 28 and RowKey ne 'emp0005'");
        IndexRequests indexes = new IndexRequests(RawTableClient.to(server));

        RawTableClient.Response created = indexes.create(name, "ByEmail", "Email");
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        assertThat(indexes.create(name, "ByAge", "Age").status()).isEqualTo(201);
        indexes.awaitReady(name, "ByEmail", Duration.ofSeconds(30));
        indexes.awaitReady(name, "ByAge", Duration.ofSeconds(30));

        IndexRequests.Result byEmail = indexes.query(name, "Email eq 'user7@example.com'");
        assertThat(byEmail.index()).isEqualTo("ByEmail");
        assertThat(byEmail.keys()).hasSize(20).isEqualTo(byEmailScan)
                .isSortedAccordingTo(Comparator.naturalOrder());
        IndexRequests.Result byAge = indexes.query(name, "Age ge 25 and Age lt 28 and RowKey ne 'emp0005'");
        assertThat(byAge.index()).isEqualTo("ByAge");
        assertThat(byAge.keys()).hasSize(74).isEqualTo(byAgeScan);
        // the SDK sees the same answers, and a type that never matches finds nothing
        assertThat(keysOf(table, "Email eq 'user7@example.com'")).isEqualTo(byEmailScan);
        assertThat(indexes.query(name, "Age eq 25L").rows()).isEmpty();
    }

    @Test
    void writesAfterTheIndexExistsAreIndexedAndAnAsyncWritesSessionTokenIsWaitedFor(
            TablestreamServerExtension.RunningServer server) {
        TableServiceClient service = server.client();
        String name = uniqueName("Later");
        TableClient table = service.createTable(name);
        RawTableClient raw = RawTableClient.to(server);
        IndexRequests indexes = new IndexRequests(raw);
        assertThat(indexes.create(name, "ByEmail", "Email").status()).isEqualTo(201);
        indexes.awaitReady(name, "ByEmail", Duration.ofSeconds(30));

        table.createEntity(new TableEntity("a", "1").addProperty("Email", "x@example.com"));
        table.createEntity(new TableEntity("b", "1").addProperty("Email", "y@example.com"));
        table.upsertEntity(new TableEntity("a", "1").addProperty("Email", "y@example.com"));
        assertThat(indexes.query(name, "Email eq 'x@example.com'").rows()).isEmpty();
        assertThat(indexes.query(name, "Email eq 'y@example.com'").keys()).containsExactly("a/1", "b/1");
        table.deleteEntity("b", "1");
        assertThat(indexes.query(name, "Email eq 'y@example.com'").keys()).containsExactly("a/1");

        RawTableClient.Response accepted = raw.send("POST", name, "{\"PartitionKey\":\"c\",\"RowKey\":\"9\","
                + "\"Email\":\"z@example.com\"}", "Prefer", "respond-async");
        assertThat(accepted.status()).as(accepted.toString()).isEqualTo(202);
        String token = accepted.header("x-ms-session-token");
        assertThat(indexes.query(name, "Email eq 'z@example.com'", "x-ms-session-token", token).keys())
                .containsExactly("c/9");
    }

    @Test
    void indexesAreListedRefusedWhenInvalidAndDropped(TablestreamServerExtension.RunningServer server) {
        TableServiceClient service = server.client();
        String name = uniqueName("Drop");
        service.createTable(name).createEntity(new TableEntity("p", "r").addProperty("Email", "e"));
        IndexRequests indexes = new IndexRequests(RawTableClient.to(server));

        assertThat(indexes.create(name, "ByEmail", "Email").status()).isEqualTo(201);
        RawTableClient.Response again = indexes.create(name, "byemail", "Other");
        assertThat(again.status()).isEqualTo(409);
        assertThat(again.errorCode()).isEqualTo("IndexAlreadyExists");
        assertThat(indexes.create(name, "Bad-Name", "Email").errorCode()).isEqualTo("InvalidInput");
        assertThat(indexes.create(name, "ByKey", "PartitionKey").errorCode()).isEqualTo("InvalidInput");
        assertThat(indexes.create("NoSuchTable1", "ByEmail", "Email").errorCode()).isEqualTo("TableNotFound");
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> listed = (List<Map<String, Object>>) indexes.list(name).json().get("value");
        assertThat(listed).extracting(m -> m.get("Name")).containsExactly("ByEmail");

        assertThat(indexes.drop(name, "ByEmail").status()).isEqualTo(204);
        assertThat(indexes.drop(name, "ByEmail").errorCode()).isEqualTo("IndexNotFound");
        IndexRequests.Result after = indexes.query(name, "Email eq 'e'");
        assertThat(after.index()).isNull();
        assertThat(after.keys()).containsExactly("p/r");
        // a plain Azure request is answered as before: an unknown comp is still refused
        assertThat(RawTableClient.to(server).read(name + "?comp=other").status()).isEqualTo(400);
    }
}
