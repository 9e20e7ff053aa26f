package io.tablestream.server.entities;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.models.TableEntity;
import io.tablestream.server.RawTableClient;
import io.tablestream.server.TablestreamServerExtension;
import io.tablestream.server.TransactionRequests;
import io.tablestream.testsupport.KafkaExtension;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Cross-partition transactions (an extension): accepted at once, applied part by part, with a status. */
@ExtendWith({KafkaExtension.class, TablestreamServerExtension.class})
class CrossPartitionTransactionIT {
    private static String uniqueName(String prefix) {
        return prefix + System.nanoTime() % 1_000_000_000L;
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> parts(Map<String, Object> status) {
        return (List<Map<String, Object>>) status.get("Parts");
    }

    @Test
    void movesAnEntityBetweenTablesAndPartitionsInOneRequest(TablestreamServerExtension.RunningServer server) {
        TableServiceClient service = server.client();
        String current = uniqueName("Current");
        String archive = uniqueName("Archive");
        TableClient currentTable = service.createTable(current);
        TableClient archiveTable = service.createTable(archive);
        currentTable.createEntity(new TableEntity("sales", "456").addProperty("Name", "Ana"));
        TransactionRequests tx = new TransactionRequests(RawTableClient.to(server));

        RawTableClient.Response accepted = tx.submit(List.of(
                tx.delete(current, "sales", "456", "*"),
                tx.insert(archive, "2024", "456", "\"Name\":\"Ana\"")));

        assertThat(accepted.status()).as(accepted.toString()).isEqualTo(202);
        String id = (String) accepted.json().get("TransactionId");
        assertThat(accepted.header("Location")).endsWith("/$transactions('" + id + "')");
        Map<String, Object> status = tx.awaitDone(id, accepted.header("x-ms-session-token"), Duration.ofSeconds(30));
        assertThat(status.get("State")).isEqualTo("Applied");
        assertThat(parts(status)).extracting(p -> p.get("Table"), p -> p.get("PartitionKey"), p -> p.get("State"),
                        p -> p.get("Reports"))
                .containsExactly(org.assertj.core.groups.Tuple.tuple(current, "sales", "Applied", 1),
                        org.assertj.core.groups.Tuple.tuple(archive, "2024", "Applied", 1));
        assertThat(currentTable.listEntities().stream().count()).isZero();
        assertThat(archiveTable.getEntity("2024", "456").getProperty("Name")).isEqualTo("Ana");
    }

    @Test
    void aPartWhosePreconditionFailsIsReportedAndTheOthersAreApplied(TablestreamServerExtension.RunningServer server) {
        TableServiceClient service = server.client();
        String name = uniqueName("Parts");
        TableClient table = service.createTable(name);
        table.createEntity(new TableEntity("b", "taken"));
        TransactionRequests tx = new TransactionRequests(RawTableClient.to(server));

        RawTableClient.Response accepted = tx.submit(List.of(
                tx.insert(name, "a", "1", ""),
                tx.insert(name, "b", "new", ""),
                tx.insert(name, "b", "taken", ""),
                tx.insert(name, "c", "1", "")));
        Map<String, Object> status = tx.awaitDone((String) accepted.json().get("TransactionId"),
                accepted.header("x-ms-session-token"), Duration.ofSeconds(30));

        assertThat(status.get("State")).isEqualTo("PartiallyApplied");
        List<Map<String, Object>> parts = parts(status);
        assertThat(parts).extracting(p -> p.get("PartitionKey")).containsExactly("a", "b", "c");
        assertThat(parts).extracting(p -> p.get("State")).containsExactly("Applied", "Failed", "Applied");
        @SuppressWarnings("unchecked")
        Map<String, Object> error = (Map<String, Object>) parts.get(1).get("Error");
        assertThat(error.get("Code")).isEqualTo("EntityAlreadyExists");
        assertThat(error.get("OperationIndex")).isEqualTo(1);
        // the failed part is all or none: its other insert did not happen
        assertThat(table.listEntities().stream().map(e -> e.getPartitionKey() + "/" + e.getRowKey()).toList())
                .containsExactly("a/1", "b/taken", "c/1");
    }

    @Test
    void refusesARequestItCannotApplyAndAnswersUnknownIds(TablestreamServerExtension.RunningServer server) {
        TransactionRequests tx = new TransactionRequests(RawTableClient.to(server));
        RawTableClient.Response missing = tx.submit(List.of(tx.insert("NoSuchTable7", "a", "1", "")));
        assertThat(missing.status()).isEqualTo(404);
        assertThat(missing.errorCode()).isEqualTo("TableNotFound");
        RawTableClient.Response unknown = tx.status("00000000-0000-0000-0000-000000000000", null);
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.errorCode()).isEqualTo("TransactionNotFound");
        RawTableClient raw = RawTableClient.to(server);
        assertThat(raw.send("GET", "$transactions", null).status()).isEqualTo(405);
    }
}
