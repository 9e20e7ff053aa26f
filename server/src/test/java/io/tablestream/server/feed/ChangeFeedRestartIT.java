package io.tablestream.server.feed;

import static io.tablestream.server.RawTableClient.query;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import io.tablestream.server.RawTableClient;
import io.tablestream.server.ServerSettings;
import io.tablestream.server.process.ServerProcess;
import io.tablestream.server.process.ServerProcessLogs;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A change-feed reader keeps its cursor across a {@code kill -9} of the server (a child JVM with
 * the embedded broker): after the restart it reads on from the cursor and sees every change
 * exactly once — those committed before the kill that it had not read yet, the answered writes the
 * restart replays, and the writes after it — and a deleted partition and the table's deletion as
 * one event each, the latter last.
 */
@ExtendWith(ServerProcessLogs.class)
class ChangeFeedRestartIT {
    @TempDir
    Path dataDir;

    private ServerProcess start() {
        ServerProcess p = ServerProcess.builder(dataDir).with(ServerSettings.PARTITIONS, 2).start();
        p.awaitServing(Duration.ofMinutes(3));
        return p;
    }

    @Test
    void aCursorReadsOnAfterAKillWithoutLossOrRepeats() {
        List<Map<String, Object>> seen = new ArrayList<>();
        String cursor;
        try (ServerProcess first = start()) {
            TableClient table = first.client().createTable("Tail");
            RawTableClient client = new RawTableClient(first.port());
            cursor = ChangeFeedHttpIT.changes(client, "Tail", "from=beginning&$top=0").cursor();
            for (int i = 0; i < 20; i++) {
                table.createEntity(new TableEntity("p" + (i % 3), String.format("r%02d", i)));
            }
            ChangeFeedHttpIT.Answer some = ChangeFeedHttpIT.changes(client, "Tail",
                    query("cursor", cursor, "$top", "8", "wait", "5"));
            seen.addAll(some.events());
            cursor = some.cursor();
            assertThat(client.send("DELETE", "Tail(PartitionKey='p1')/$partition", null).status()).isEqualTo(204);
            for (int i = 20; i < 30; i++) { // answered, perhaps not committed when the kill comes
                table.createEntity(new TableEntity("p" + (i % 3), String.format("r%02d", i)));
            }
            first.kill();
        }
        try (ServerProcess second = start()) {
            TableClient table = second.client().getTableClient("Tail");
            for (int i = 30; i < 40; i++) {
                table.createEntity(new TableEntity("p" + (i % 3), String.format("r%02d", i)));
            }
            table.deleteTable();
            RawTableClient client = new RawTableClient(second.port());
            seen.addAll(ChangeFeedDeletionsIT.readToTheEnd(client, "Tail", cursor, 9, ""));
            second.stop();
        }
        assertThat(seen).filteredOn(e -> e.get("Operation").equals("Inserted")).extracting(e -> (String) e.get("RowKey"))
                .containsExactlyInAnyOrderElementsOf(IntStream.range(0, 40).mapToObj(i -> String.format("r%02d", i))
                        .toList());
        assertThat(seen).extracting(e -> (String) e.get("Operation")).hasSize(42)
                .containsOnlyOnce("PartitionDeleted", "TableDeleted").endsWith("TableDeleted");
        List<String> p1 = seen.stream().filter(e -> "p1".equals(e.get("PartitionKey")))
                .map(e -> e.get("Operation") + " " + e.get("RowKey")).toList();
        int deletedAt = p1.indexOf("PartitionDeleted null");
        assertThat(p1.subList(0, deletedAt)).allMatch(s -> s.compareTo("Inserted r20") < 0);
        assertThat(p1.subList(deletedAt + 1, p1.size())).allMatch(s -> s.compareTo("Inserted r20") >= 0);
    }
}
