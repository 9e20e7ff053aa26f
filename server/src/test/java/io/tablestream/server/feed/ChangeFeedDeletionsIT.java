package io.tablestream.server.feed;

import static io.tablestream.server.RawTableClient.query;
import static io.tablestream.server.feed.ChangeFeedHttpIT.changes;
import static io.tablestream.server.feed.ChangeFeedHttpIT.now;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.models.TableEntity;
import io.tablestream.server.RawTableClient;
import io.tablestream.server.TablestreamServerExtension;
import io.tablestream.server.TablestreamServerExtension.RunningServer;
import io.tablestream.server.feed.ChangeFeedHttpIT.Answer;
import io.tablestream.server.queries.TableFixtures;
import io.tablestream.testsupport.KafkaExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A deleted partition and a dropped table in the change feed: one {@code PartitionDeleted} event
 * in the partition's order; one {@code TableDeleted} event after every change of the table, on a
 * table-wide feed and on one PartitionKey's, then {@code 404 TableNotFound} — read in small
 * answers, so a cursor resumes across the deletion without skipping or repeating an event.
 */
@ExtendWith({KafkaExtension.class, TablestreamServerExtension.class})
class ChangeFeedDeletionsIT {

    /** Reads from {@code cursor}, {@code top} events an answer, until an answer is 404 (the feed is over). */
    private static List<Map<String, Object>> readToTheEnd(RunningServer server, String table, String cursor, int top,
                                                          String extra) {
        return readToTheEnd(RawTableClient.to(server), table, cursor, top, extra);
    }

    static List<Map<String, Object>> readToTheEnd(RawTableClient client, String table, String cursor, int top,
                                                  String extra) {
        List<Map<String, Object>> all = new ArrayList<>();
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < deadline) {
            RawTableClient.Response r = client.read(table + "()/$changes?"
                    + query("cursor", cursor, "$top", Integer.toString(top), "wait", "2") + extra);
            if (r.status() == 404) {
                assertThat(r.header("x-ms-error-code")).isEqualTo("TableNotFound");
                assertThat(r.body()).contains("TableDeleted");
                return all;
            }
            assertThat(r.status()).as(r.body()).isEqualTo(200);
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> events = (List<Map<String, Object>>) r.json().get("value");
            assertThat(events.size()).isLessThanOrEqualTo(top);
            all.addAll(events);
            cursor = (String) r.json().get("Cursor");
        }
        throw new AssertionError("the feed did not end: " + all);
    }

    @Test
    void aDeletedPartitionIsOneEventInThePartitionsOrder(RunningServer server, TableServiceClient service) {
        TableClient table = TableFixtures.givenTable(service, "FeedDel");
        String name = table.getTableName();
        String tableWide = now(server, name, "");
        String onePartition = now(server, name, "&PartitionKey=p");
        table.createEntity(new TableEntity("p", "r1"));
        table.createEntity(new TableEntity("q", "r1"));
        RawTableClient.Response deleted = RawTableClient.to(server).send("DELETE", name + "(PartitionKey='p')/$partition",
                null);
        assertThat(deleted.status()).isEqualTo(204);
        table.createEntity(new TableEntity("p", "r2"));

        Answer all = ChangeFeedHttpIT.readExactly(server, name, tableWide, 1, 4);
        List<Map<String, Object>> p = new ArrayList<>();
        all.events().stream().filter(e -> "p".equals(e.get("PartitionKey"))).forEach(p::add);
        assertThat(p).extracting(e -> e.get("Operation") + " " + e.get("RowKey"))
                .containsExactly("Inserted r1", "PartitionDeleted null", "Inserted r2");
        assertThat(p.get(1)).containsEntry("Entity", null).containsEntry("ETag", null);
        assertThat((String) p.get(1).get("Principal")).contains("devstoreaccount1");
        assertThat(p.get(1).get("CommandId")).isNotNull();

        Answer mine = readPartition(server, name, onePartition, 3);
        assertThat(mine.events()).extracting(e -> e.get("Operation"))
                .containsExactly("Inserted", "PartitionDeleted", "Inserted");
    }

    private static Answer readPartition(RunningServer server, String table, String cursor, int count) {
        List<Map<String, Object>> all = new ArrayList<>();
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (all.size() < count && System.nanoTime() < deadline) {
            Answer a = changes(server, table, query("cursor", cursor, "wait", "2", "PartitionKey", "p"));
            all.addAll(a.events());
            cursor = a.cursor();
        }
        assertThat(all).hasSize(count);
        return new Answer(all, cursor);
    }

    @Test
    void aDroppedTableIsOneTableDeletedEventAfterAllItsChangesThenNotFound(RunningServer server,
                                                                          TableServiceClient service) {
        TableClient table = TableFixtures.givenTable(service, "FeedDel");
        String name = table.getTableName();
        String tableWide = now(server, name, "");
        String onePartition = now(server, name, "&PartitionKey=p3");
        for (int i = 0; i < 24; i++) {
            table.createEntity(new TableEntity("p" + (i % 8), "r" + i)); // over several partitions of the log
        }
        table.deleteTable();
        // the name taken again: the old cursors still read the old table to its end
        TableClient again = service.createTable(name);
        String newTable = now(server, name, "");
        again.createEntity(new TableEntity("p3", "new"));

        List<Map<String, Object>> all = readToTheEnd(server, name, tableWide, 5, "");
        assertThat(all).hasSize(25);
        assertThat(all.subList(0, 24)).extracting(e -> e.get("Operation")).containsOnly("Inserted");
        assertThat(all.subList(0, 24)).extracting(e -> e.get("RowKey")).doesNotHaveDuplicates().doesNotContain("new");
        Map<String, Object> last = all.get(24);
        assertThat(last).containsEntry("Operation", "TableDeleted").containsEntry("PartitionKey", null)
                .containsEntry("RowKey", null).containsEntry("Entity", null);
        assertThat((String) last.get("Principal")).contains("devstoreaccount1");
        assertThat(last.get("CommandId")).isNotNull();

        List<Map<String, Object>> p3 = readToTheEnd(server, name, onePartition, 100, "&PartitionKey=p3");
        assertThat(p3).extracting(e -> e.get("Operation") + " " + e.get("RowKey"))
                .containsExactly("Inserted r3", "Inserted r11", "Inserted r19", "TableDeleted null");

        // the new table's feed is its own
        assertThat(ChangeFeedHttpIT.readExactly(server, name, newTable, 10, 1).events())
                .extracting(e -> e.get("RowKey")).containsExactly("new");
    }
}
