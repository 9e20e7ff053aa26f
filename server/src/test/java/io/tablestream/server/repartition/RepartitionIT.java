package io.tablestream.server.repartition;

import static io.tablestream.server.RawTableClient.query;
import static io.tablestream.server.ServiceErrors.assertServiceError;
import static io.tablestream.testsupport.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.TableAccessPolicy;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableEntityUpdateMode;
import com.azure.data.tables.models.TableSignedIdentifier;
import io.tablestream.core.model.EmulatorAccount;
import io.tablestream.processor.Repartition;
import io.tablestream.server.IndexRequests;
import io.tablestream.server.RawTableClient;
import io.tablestream.server.RepartitionCommand;
import io.tablestream.server.ServerConfig;
import io.tablestream.server.ServerSettings;
import io.tablestream.server.TablestreamServer;
import io.tablestream.server.TablestreamServerExtension;
import io.tablestream.server.queries.TableFixtures;
import java.nio.file.Path;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stopped single node grows from 4 to 16 partitions ({@code repartition --partitions 16}) and
 * serves, through the official SDK and the extensions, exactly what it served before: every entity
 * with its ETag and Timestamp, entity histories, an index (Ready in every partition, the same
 * answers), the table settings (default TTL, history retention) and access policies, a partition
 * deletion, and the change feed (an old cursor reads on). Writes after it land on the new
 * partitions, and an old ETag still guards an update.
 *
 * <p>A deleted partition's rows are hidden at once and removed by the background sweep; before the
 * stop no sweep runs, so its rows (and their index entries, which {@code Entries} counts) are still
 * stored when the repartition moves them: they stay hidden after it, and their new owner sweeps them.
 */
class RepartitionIT {
    private static final int BEFORE = 4;
    private static final int AFTER = 16;
    private static final String ACCOUNT = "devstoreaccount1";
    /** No sweep before the stop (the test takes seconds); one every 200 ms after the repartition. */
    private static final int SWEEP_BEFORE_MS = 600_000;
    private static final int SWEEP_AFTER_MS = 200;

    @TempDir
    Path dataDir;

    private ServerConfig config(int sweepIntervalMs) {
        return ServerConfig.of(Map.of(
                ServerSettings.PORT, 0,
                ServerSettings.DATA_DIR, dataDir,
                ServerSettings.KAFKA_BOOTSTRAP_SERVERS, "",
                ServerSettings.PARTITIONS, BEFORE,
                ServerSettings.SWEEP_INTERVAL_MS, sweepIntervalMs));
    }

    private static TableServiceClient sdk(TablestreamServer server) {
        return new TableServiceClientBuilder().connectionString("DefaultEndpointsProtocol=http;AccountName=" + ACCOUNT
                + ";AccountKey=" + EmulatorAccount.KEY + ";TableEndpoint=http://127.0.0.1:"
                + server.port() + "/" + ACCOUNT + ";").buildClient();
    }

    /** Everything the test reads back, before and after. */
    private record Snapshot(Map<String, String> entities, Map<String, String> plain, Map<String, Object> histories,
                            List<String> red, String redIndex, List<String> policies, String settings) {
    }

    @Test
    void growsFromFourToSixteenPartitionsKeepingEveryEntityHistoryIndexSettingAndTheFeed() {
        String name = "Growth";
        String plainName = "Plain";
        Snapshot before;
        String feedCursor;
        TablestreamServer server = TablestreamServer.start(config(SWEEP_BEFORE_MS));
        try {
            assertThat(server.processor().commandPartitions()).isEqualTo(BEFORE);
            RawTableClient raw = new RawTableClient(server.port());
            TableServiceClient service = sdk(server);
            assertThat(raw.send("POST", "Tables", "{\"TableName\":\"" + name
                    + "\",\"TTLInSeconds\":86400,\"HistoryRetentionInSeconds\":86400}").status()).isEqualTo(201);
            IndexRequests indexes = new IndexRequests(raw);
            assertThat(indexes.create(name, "ByColor", "Color").status()).isEqualTo(201);
            TableClient table = service.getTableClient(name);
            table.setAccessPolicies(List.of(new TableSignedIdentifier("readers").setAccessPolicy(new TableAccessPolicy()
                    .setStartsOn(OffsetDateTime.of(2026, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC))
                    .setExpiresOn(OffsetDateTime.of(2036, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC)).setPermissions("r"))));
            List<TableEntity> rows = new ArrayList<>();
            for (int p = 0; p < 40; p++) {
                for (int r = 0; r < 10; r++) {
                    rows.add(new TableEntity("pk" + p, "rk" + r).addProperty("Color", r % 3 == 0 ? "red" : "blue")
                            .addProperty("N", p * 10 + r));
                }
            }
            TableFixtures.insertAll(table, rows);
            for (int p = 0; p < 40; p += 4) {
                table.updateEntity(new TableEntity("pk" + p, "rk1").addProperty("Color", "red"),
                        TableEntityUpdateMode.MERGE);
                table.deleteEntity("pk" + p, "rk2");
            }
            assertThat(raw.send("DELETE", name + "(PartitionKey='pk39')/$partition", null).status()).isEqualTo(204);
            TableClient plain = service.createTable(plainName);
            TableFixtures.insertAll(plain, List.of(new TableEntity("a", "1").addProperty("X", 1L),
                    new TableEntity("b", "2").addProperty("X", 2.5)));
            indexes.awaitReady(name, "ByColor", Duration.ofSeconds(30));
            before = snapshot(server);
            feedCursor = drainFeed(raw, name, changes(raw, name, "from=beginning&$top=0").cursor()).cursor();
            // pk39's ten rows, deleted but not swept yet, still have their index entries
            assertThat(indexEntries(raw, name)).isEqualTo(before.entities().size() + 10);
        } finally {
            server.close();
        }

        List<String> said = new ArrayList<>();
        Repartition.Result result = RepartitionCommand.run(config(SWEEP_BEFORE_MS), AFTER, said::add);
        assertThat(result.from()).isEqualTo(BEFORE);
        assertThat(result.to()).isEqualTo(AFTER);
        assertThat(result.moved().get("entities")).isPositive();
        assertThat(said).anyMatch(line -> line.contains("now has " + AFTER + " partitions"));

        server = TablestreamServer.start(config(SWEEP_AFTER_MS));
        try {
            assertThat(server.processor().commandPartitions()).isEqualTo(AFTER);
            RawTableClient raw = new RawTableClient(server.port());
            Snapshot after = snapshot(server);
            assertThat(after).isEqualTo(before);
            Map<String, Object> index = indexStatus(raw, name);
            @SuppressWarnings("unchecked")
            Map<String, Map<String, Object>> partitions = (Map<String, Map<String, Object>>) index.get("Partitions");
            assertThat(partitions).hasSize(AFTER);
            assertThat(partitions.values()).allSatisfy(p -> assertThat(p.get("State")).isEqualTo("Ready"));
            // the moved rows of pk39 go with their entries once their new owner's sweep removes them
            eventually(() -> indexEntries(raw, name), n -> n == before.entities().size(), Duration.ofSeconds(30));

            // the old cursor reads on: nothing new, then the next changes
            assertThat(changes(raw, name, query("cursor", feedCursor)).events()).isEmpty();
            TableClient table = sdk(server).getTableClient(name);
            List<String> updated = new ArrayList<>();
            for (int p = 0; p < 16; p += 4) {
                // three in four keys move to another partition from 4 to 16: each keeps its ETag and clock
                String pk = "pk" + p;
                String etag = before.entities().get(pk + "/rk0").split("\\|")[0];
                TableEntity change = new TableEntity(pk, "rk0").addProperty("Color", "green")
                        .addProperty("odata.etag", etag);
                assertThat(table.updateEntityWithResponse(change, TableEntityUpdateMode.MERGE, true, null, null)
                        .getStatusCode()).isEqualTo(204);
                TableEntity stale = new TableEntity(pk, "rk0").addProperty("odata.etag", etag);
                assertServiceError(() -> table.updateEntityWithResponse(stale, TableEntityUpdateMode.MERGE, true, null,
                        null), 412, "UpdateConditionNotSatisfied");
                assertThat(table.getEntity(pk, "rk0").getTimestamp()).isAfter(OffsetDateTime.parse(
                        before.entities().get(pk + "/rk0").split("\\|")[1]));
                assertThat(history(raw, name, pk, "rk0")).hasSize(2);
                updated.add(pk);
            }
            assertThat(drainFeed(raw, name, feedCursor).events()).extracting(e -> e.get("PartitionKey"))
                    .containsExactlyInAnyOrderElementsOf(updated);
            // new writes reach the new partitions too
            List<TableEntity> fresh = new ArrayList<>();
            for (int p = 0; p < 16; p++) {
                fresh.add(new TableEntity("new" + p, "r").addProperty("Color", "red"));
            }
            fresh.forEach(table::createEntity);
            assertThat(table.listEntities(new ListEntitiesOptions()
                    .setFilter("PartitionKey ge 'new' and PartitionKey lt 'nex'"), null, null).stream().count())
                    .isEqualTo(16);
        } finally {
            server.close();
        }
    }

    private Snapshot snapshot(TablestreamServer server) {
        TableServiceClient service = sdk(server);
        RawTableClient raw = new RawTableClient(server.port());
        Map<String, String> entities = entities(service.getTableClient("Growth"));
        Map<String, String> plain = entities(service.getTableClient("Plain"));
        Map<String, Object> histories = new LinkedHashMap<>();
        for (int p = 0; p < 40; p += 8) {
            for (String rk : List.of("rk0", "rk1", "rk2")) {
                histories.put("pk" + p + "/" + rk, history(raw, "Growth", "pk" + p, rk));
            }
        }
        IndexRequests.Result red = new IndexRequests(raw).query("Growth", "Color eq 'red'");
        List<String> policies = service.getTableClient("Growth").getAccessPolicies().getIdentifiers().stream()
                .map(i -> i.getId() + "|" + i.getAccessPolicy().getStartsOn() + "|" + i.getAccessPolicy().getExpiresOn()
                        + "|" + i.getAccessPolicy().getPermissions()).toList();
        String settings = raw.read("Tables('Growth')", "Accept", "application/json;odata=nometadata").body();
        return new Snapshot(entities, plain, histories, red.keys(), red.index(), policies, settings);
    }

    /** Each entity as key → ETag|Timestamp|properties (but its odata.id, which names the server's port). */
    private static Map<String, String> entities(TableClient table) {
        Map<String, String> out = new TreeMap<>();
        for (TableEntity e : table.listEntities()) {
            Map<String, Object> properties = new TreeMap<>(e.getProperties());
            properties.remove("odata.id");
            out.put(e.getPartitionKey() + "/" + e.getRowKey(), e.getETag() + "|" + e.getTimestamp() + "|" + properties);
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> history(RawTableClient raw, String table, String pk, String rk) {
        RawTableClient.Response r = raw.read(table + "(PartitionKey='" + pk + "',RowKey='" + rk + "')/$history");
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return (List<Map<String, Object>>) r.json().get("value");
    }

    /** The index's {@code Entries}, summed over the partitions. */
    @SuppressWarnings("unchecked")
    private static int indexEntries(RawTableClient raw, String table) {
        return ((Map<String, Map<String, Object>>) indexStatus(raw, table).get("Partitions")).values().stream()
                .mapToInt(p -> (Integer) p.get("Entries")).sum();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> indexStatus(RawTableClient raw, String table) {
        RawTableClient.Response r = new IndexRequests(raw).list(table);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return ((List<Map<String, Object>>) r.json().get("value")).get(0);
    }

    private record Feed(List<Map<String, Object>> events, String cursor) {
    }

    @SuppressWarnings("unchecked")
    private static Feed changes(RawTableClient raw, String table, String options) {
        RawTableClient.Response r = raw.read(table + "()/$changes?" + options);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return new Feed((List<Map<String, Object>>) r.json().get("value"), (String) r.json().get("Cursor"));
    }

    /** Reads the feed from {@code cursor} until an answer that waited a second brings nothing more (bounded). */
    private static Feed drainFeed(RawTableClient raw, String table, String cursor) {
        List<Map<String, Object>> all = new ArrayList<>();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline) {
            Feed f = changes(raw, table, query("cursor", cursor, "$top", "1000", "wait", "1"));
            cursor = f.cursor();
            if (f.events().isEmpty()) {
                return new Feed(all, cursor);
            }
            all.addAll(f.events());
        }
        throw new AssertionError("the feed did not end within 30 s");
    }
}
