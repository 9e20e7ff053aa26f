package io.tablestream.server.feed;

import static io.tablestream.server.RawTableClient.query;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableEntityUpdateMode;
import com.azure.data.tables.sas.TableSasPermission;
import com.azure.data.tables.sas.TableSasSignatureValues;
import io.tablestream.server.RawTableClient;
import io.tablestream.server.TablestreamServerExtension;
import io.tablestream.server.TablestreamServerExtension.RunningServer;
import io.tablestream.server.queries.TableFixtures;
import io.tablestream.testsupport.KafkaExtension;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The change feed over HTTP ({@code GET <table>()/$changes}): events with their operation, keys,
 * version, ETag, Timestamp and principal; cursors that resume exactly; long polls answered by the
 * next write; one PartitionKey's feed; authorization as Query Entities.
 */
@ExtendWith({KafkaExtension.class, TablestreamServerExtension.class})
class ChangeFeedHttpIT {

    /** One answer of the feed. */
    record Answer(List<Map<String, Object>> events, String cursor) {
    }

    static Answer changes(RunningServer server, String table, String options) {
        return changes(RawTableClient.to(server), table, options);
    }

    @SuppressWarnings("unchecked")
    static Answer changes(RawTableClient client, String table, String options) {
        RawTableClient.Response r = client.read(table + "()/$changes?" + options);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        Map<String, Object> body = r.json();
        String cursor = (String) body.get("Cursor");
        assertThat(r.header("x-ms-continuation-NextCursor")).isEqualTo(cursor);
        return new Answer((List<Map<String, Object>>) body.get("value"), cursor);
    }

    /**
     * Reads the feed from {@code cursor} in answers of at most {@code top} events, waiting for changes
     * not yet committed (a write is answered before its transaction commits; the feed shows committed
     * changes only), until it has {@code count} events; then checks that a further second brings none.
     */
    static Answer readExactly(RunningServer server, String table, String cursor, int top, int count) {
        return readExactly(RawTableClient.to(server), table, cursor, top, count);
    }

    static Answer readExactly(RawTableClient server, String table, String cursor, int top, int count) {
        List<Map<String, Object>> all = new ArrayList<>();
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (all.size() < count && System.nanoTime() < deadline) {
            Answer a = changes(server, table, query("cursor", cursor, "$top", Integer.toString(top), "wait", "5"));
            assertThat(a.events().size()).isLessThanOrEqualTo(top);
            cursor = a.cursor();
            all.addAll(a.events());
        }
        Answer more = changes(server, table, query("cursor", cursor, "wait", "1"));
        assertThat(more.events()).as("events after the %d expected", count).isEmpty();
        assertThat(all).hasSize(count);
        return new Answer(all, more.cursor());
    }

    /** The cursor at the end of the feed of {@code table} (or of one PartitionKey's, with {@code extra}). */
    static String now(RunningServer server, String table, String extra) {
        return changes(server, table, "from=now&$top=0" + extra).cursor();
    }

    /** The cursor at the beginning of the feed of {@code table}. */
    static String beginning(RunningServer server, String table, String extra) {
        return changes(server, table, "from=beginning&$top=0" + extra).cursor();
    }

    @Test
    void eventsFromTheBeginningCarryOperationKeysVersionETagTimestampAndPrincipal(RunningServer server,
                                                                                  TableServiceClient service) {
        TableClient table = TableFixtures.givenTable(service, "Feed");
        String etag1 = table.createEntityWithResponse(new TableEntity("p", "r").addProperty("V", 1), null, null)
                .getHeaders().getValue("ETag");
        table.updateEntity(new TableEntity("p", "r").addProperty("W", 2), TableEntityUpdateMode.MERGE);
        table.upsertEntityWithResponse(new TableEntity("p", "r").addProperty("X", 3), TableEntityUpdateMode.REPLACE,
                null, null);
        table.deleteEntity("p", "r");

        Answer a = readExactly(server, table.getTableName(), beginning(server, table.getTableName(), ""), 100, 4);

        assertThat(a.events()).extracting(e -> e.get("Operation"))
                .containsExactly("Inserted", "Merged", "Replaced", "Deleted");
        Map<String, Object> inserted = a.events().get(0);
        assertThat(inserted).containsEntry("PartitionKey", "p").containsEntry("RowKey", "r");
        assertThat(tagTime((String) inserted.get("ETag"))).isEqualTo(tagTime(etag1));
        assertThat((String) inserted.get("Principal")).contains("devstoreaccount1");
        assertThat(inserted.get("CommandId")).isNotNull();
        @SuppressWarnings("unchecked")
        Map<String, Object> version = (Map<String, Object>) a.events().get(1).get("Entity");
        assertThat(version).containsEntry("V", 1).containsEntry("W", 2)
                .containsEntry("Timestamp", a.events().get(1).get("Timestamp"));
        assertThat(a.events().get(3)).containsEntry("Entity", null).containsEntry("ETag", null);
        assertThat(a.events()).extracting(e -> (String) e.get("Timestamp"))
                .isSorted().doesNotHaveDuplicates();

        // nothing more after the cursor, and an answer without wait comes at once
        assertThat(changes(server, table.getTableName(), query("cursor", a.cursor())).events()).isEmpty();
    }

    @Test
    void aCursorResumesWithoutSkippingOrRepeatingAndKeepsEachPartitionsOrder(RunningServer server,
                                                                              TableServiceClient service) {
        TableClient table = TableFixtures.givenTable(service, "Feed");
        String start = now(server, table.getTableName(), "");
        for (int i = 0; i < 60; i++) {
            table.createEntity(new TableEntity("p" + (i % 5), String.format("r%03d", i)).addProperty("N", i));
        }
        TableClient other = TableFixtures.givenTable(service, "Other");
        other.createEntity(new TableEntity("p0", "noise"));

        Answer read = readExactly(server, table.getTableName(), start, 7, 60);

        assertThat(read.events()).extracting(e -> e.get("RowKey")).doesNotHaveDuplicates()
                .doesNotContain("noise");
        Map<String, List<String>> byPartition = new HashMap<>();
        read.events().forEach(e -> byPartition.computeIfAbsent((String) e.get("PartitionKey"), k -> new ArrayList<>())
                .add((String) e.get("RowKey")));
        assertThat(byPartition).hasSize(5).allSatisfy((pk, rks) -> assertThat(rks).isSorted().hasSize(12));

        table.createEntity(new TableEntity("p9", "later"));
        assertThat(readExactly(server, table.getTableName(), read.cursor(), 7, 1).events())
                .extracting(e -> e.get("RowKey")).containsExactly("later");
    }

    @Test
    void onePartitionKeysFeedHasThatPartitionOnly(RunningServer server, TableServiceClient service) {
        TableClient table = TableFixtures.givenTable(service, "Feed");
        for (int i = 0; i < 20; i++) {
            table.createEntity(new TableEntity("p" + (i % 4), "r" + i));
        }
        String start = beginning(server, table.getTableName(), "&PartitionKey=p2");
        Answer a = changes(server, table.getTableName(), query("cursor", start, "PartitionKey", "p2", "wait", "5"));
        while (a.events().size() < 5) {
            Answer more = changes(server, table.getTableName(), query("cursor", a.cursor(), "PartitionKey", "p2",
                    "wait", "5"));
            List<Map<String, Object>> events = new ArrayList<>(a.events());
            events.addAll(more.events());
            a = new Answer(events, more.cursor());
        }
        assertThat(a.events()).extracting(e -> e.get("RowKey")).containsExactly("r2", "r6", "r10", "r14", "r18");

        // a cursor of one PartitionKey's feed is refused without it
        RawTableClient.Response wrong = RawTableClient.to(server)
                .read(table.getTableName() + "()/$changes?" + query("cursor", a.cursor()));
        assertThat(wrong.status()).isEqualTo(400);
        assertThat(wrong.errorCode()).isEqualTo("InvalidQueryParameterValue");
    }

    @Test
    void aLongPollIsAnsweredByTheNextWrite(RunningServer server, TableServiceClient service) throws Exception {
        TableClient table = TableFixtures.givenTable(service, "Feed");
        String cursor = now(server, table.getTableName(), "");
        int rounds = 40;
        long[] delays = new long[rounds];
        for (int i = 0; i < rounds; i++) {
            String at = cursor;
            CompletableFuture<Answer> poll = CompletableFuture.supplyAsync(() ->
                    changes(server, table.getTableName(), query("cursor", at, "wait", "20")));
            Thread.sleep(30); // the poll is waiting
            assertThat(poll).isNotDone();
            table.createEntity(new TableEntity("p", "r" + i));
            long answered = System.nanoTime();
            Answer a = poll.get();
            delays[i] = System.nanoTime() - answered;
            assertThat(a.events()).extracting(e -> e.get("RowKey")).containsExactly("r" + i);
            cursor = a.cursor();
        }
        Arrays.sort(delays);
        System.out.printf("change feed: write answered -> long poll answered, %d rounds: p50 %.1f ms, p90 %.1f ms,"
                        + " max %.1f ms (load average %s)%n", rounds, delays[rounds / 2] / 1e6,
                delays[rounds * 9 / 10] / 1e6, delays[rounds - 1] / 1e6,
                java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }

    @Test
    void aLongPollWithNothingNewAnswersEmptyAfterItsWait(RunningServer server, TableServiceClient service) {
        TableClient table = TableFixtures.givenTable(service, "Feed");
        String cursor = now(server, table.getTableName(), "");
        long begin = System.nanoTime();
        Answer a = changes(server, table.getTableName(), query("cursor", cursor, "wait", "1"));
        long tookMs = (System.nanoTime() - begin) / 1_000_000;
        assertThat(a.events()).isEmpty();
        assertThat(a.cursor()).isNotBlank();
        assertThat(tookMs).isBetween(900L, 10_000L);
    }

    @Test
    void aTimeStartsAtTheChangesWrittenFromThen(RunningServer server, TableServiceClient service) throws Exception {
        TableClient table = TableFixtures.givenTable(service, "Feed");
        table.createEntity(new TableEntity("p", "before"));
        Thread.sleep(50);
        String now = OffsetDateTime.now().toInstant().toString();
        Thread.sleep(50);
        table.createEntity(new TableEntity("p", "after"));
        String cursor = changes(server, table.getTableName(), query("from", now, "$top", "0")).cursor();
        assertThat(readExactly(server, table.getTableName(), cursor, 100, 1).events())
                .extracting(e -> e.get("RowKey")).containsExactly("after");
    }

    @Test
    void aSasWithReadCoversTheFeedAndItsKeyRangeFiltersIt(RunningServer server, TableServiceClient service) {
        TableClient table = TableFixtures.givenTable(service, "Feed");
        table.createEntity(new TableEntity("a", "r"));
        table.createEntity(new TableEntity("b", "r"));
        String feed = table.getTableName() + "()/$changes?" + query("cursor", beginning(server, table.getTableName(), ""),
                "wait", "5") + "&";
        readExactly(server, table.getTableName(), beginning(server, table.getTableName(), ""), 100, 2);
        String read = table.generateSas(new TableSasSignatureValues(OffsetDateTime.now().plusHours(1),
                TableSasPermission.parse("r")).setStartPartitionKey("b").setStartRowKey("a")
                .setEndPartitionKey("b").setEndRowKey("z"));
        RawTableClient.Response ok = RawTableClient.to(server).get(feed + read).unsigned().send();
        assertThat(ok.status()).as(ok.body()).isEqualTo(200);
        assertThat(ok.rows()).extracting(e -> e.get("PartitionKey")).containsExactly("b");

        String add = table.generateSas(new TableSasSignatureValues(OffsetDateTime.now().plusHours(1),
                TableSasPermission.parse("a")));
        RawTableClient.Response refused = RawTableClient.to(server).get(feed + add).unsigned().send();
        assertThat(refused.status()).isEqualTo(403);
        assertThat(RawTableClient.to(server).get(feed).unsigned().send().status()).isEqualTo(403);
    }

    @Test
    void badOptionsAreClearErrors(RunningServer server, TableServiceClient service) {
        TableClient table = TableFixtures.givenTable(service, "Feed");
        TableClient other = TableFixtures.givenTable(service, "Feed");
        String otherCursor = now(server, other.getTableName(), "");
        String cursor = now(server, table.getTableName(), "");
        for (String options : List.of("", "from=beginning&" + query("cursor", cursor), "from=yesterday",
                query("cursor", "not-a-cursor"), query("cursor", otherCursor), "from=now&$top=1001",
                "from=now&$top=x", "from=now&wait=21", "from=now&wait=-1")) {
            RawTableClient.Response r = RawTableClient.to(server).read(table.getTableName() + "()/$changes?" + options);
            assertThat(r.status()).as(options + ": " + r.body()).isEqualTo(400);
            assertThat(r.errorCode()).as(options).isEqualTo("InvalidQueryParameterValue");
        }
        assertThat(RawTableClient.to(server).read("NoSuchTable()/$changes?from=now").status()).isEqualTo(404);
        assertThat(RawTableClient.to(server).send("POST", table.getTableName() + "()/$changes", "{}").status())
                .isEqualTo(405);
    }

    @Test
    void anEventStreamSendsEachPageAsAMessageWhoseIdResumesTheFeed(RunningServer server, TableServiceClient service)
            throws Exception {
        TableClient table = TableFixtures.givenTable(service, "Feed");
        String feed = table.getTableName() + "()/$changes?";
        // the stream starts at a cursor taken before the writes (from=now would race them)
        String start = now(server, table.getTableName(), "");
        CompletableFuture<RawTableClient.Response> stream = RawTableClient.to(server)
                .get(feed + query("cursor", start, "wait", "4")).accept("text/event-stream").sendAsync();
        table.createEntity(new TableEntity("p", "r1"));
        table.createEntity(new TableEntity("p", "r2"));
        RawTableClient.Response r = stream.get();
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        assertThat(r.header("Content-Type")).startsWith("text/event-stream");
        List<String> ids = new ArrayList<>();
        List<Object> rows = new ArrayList<>();
        for (String message : r.body().split("\n\n")) {
            String id = null;
            for (String line : message.split("\n")) {
                if (line.startsWith("id: ")) {
                    id = line.substring(4);
                } else if (line.startsWith("data: ")) {
                    Map<String, Object> page = new RawTableClient.Response(200, Map.of(),
                            line.substring(6).getBytes(java.nio.charset.StandardCharsets.UTF_8)).json();
                    assertThat(page.get("Cursor")).isEqualTo(id);
                    ((List<?>) page.get("value")).forEach(e -> rows.add(((Map<?, ?>) e).get("RowKey")));
                }
            }
            if (id != null) {
                ids.add(id);
            }
        }
        assertThat(ids.size()).isGreaterThanOrEqualTo(2); // the start, then the changes
        assertThat(rows).containsExactly("r1", "r2");

        // an EventSource reconnects with the last id: the stream goes on from there
        table.createEntity(new TableEntity("p", "r3"));
        RawTableClient.Response again = RawTableClient.to(server).get(feed + "wait=3")
                .accept("text/event-stream").header("Last-Event-ID", ids.get(ids.size() - 1)).send();
        assertThat(again.status()).as(again.body()).isEqualTo(200);
        assertThat(again.body()).contains("\"RowKey\":\"r3\"").doesNotContain("\"r2\"");
    }

    private static String tagTime(String etag) {
        if (etag == null) {
            return null;
        }
        int start = etag.indexOf('\'');
        return etag.substring(start + 1, etag.indexOf('\'', start + 1));
    }
}
