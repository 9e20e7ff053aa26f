package io.tablestream.server.restart;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.core.http.rest.Response;
import com.azure.core.util.Context;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableEntityUpdateMode;
import com.azure.data.tables.models.TableItem;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A server of its own, with the embedded broker in a temporary data directory, stopped and started
 * again on the same directory: every table, entity and ETag comes back, and writing goes on.
 */
class RestartDurabilityIT {
    private static final Logger LOG = LoggerFactory.getLogger(RestartDurabilityIT.class);
    /** Generous: a clean stop takes seconds; this only catches a stop that hangs. */
    private static final Duration PROMPT_STOP = Duration.ofSeconds(45);

    @TempDir
    Path dataDir;

    @Test
    void bringsBackEveryTableEntityAndETagAfterARestartAndKeepsWriting() {
        Map<String, Map<String, Map<String, Object>>> before;
        TableEntity updatedBefore;
        try (OwnServer first = OwnServer.start(dataDir)) {
            LOG.info("First start took {} ms", first.startedIn().toMillis());
            TableServiceClient service = first.client();
            for (String name : List.of("Alpha", "Beta", "Gamma")) {
                populate(service.createTable(name));
            }
            service.createTable("Doomed").createEntity(new TableEntity("p", "r"));
            service.deleteTable("Doomed");
            before = snapshot(service);
            updatedBefore = service.getTableClient("Alpha").getEntity("p0", "r3");
            Duration stop = first.stop();
            LOG.info("First stop took {} ms", stop.toMillis());
            assertThat(stop).isLessThan(PROMPT_STOP);
        }

        Map<String, Map<String, Map<String, Object>>> afterWritingAgain;
        try (OwnServer second = OwnServer.start(dataDir)) {
            LOG.info("Restart took {} ms", second.startedIn().toMillis());
            TableServiceClient service = second.client();

            assertThat(snapshot(service)).isEqualTo(before);
            assertThat(service.listTables().stream().map(TableItem::getName)).containsExactlyInAnyOrder(
                    "Alpha", "Beta", "Gamma");

            TableClient alpha = service.getTableClient("Alpha");
            Response<Void> conditional = alpha.updateEntityWithResponse(updatedBefore.addProperty("After", "restart"),
                    TableEntityUpdateMode.MERGE, true, null, Context.NONE);
            assertThat(conditional.getStatusCode()).isEqualTo(204);
            alpha.createEntity(new TableEntity("p9", "new").addProperty("N", 99));
            populate(service.createTable("Delta"));
            afterWritingAgain = snapshot(service);
            Duration stop = second.stop();
            LOG.info("Second stop took {} ms", stop.toMillis());
            assertThat(stop).isLessThan(PROMPT_STOP);
        }

        try (OwnServer third = OwnServer.start(dataDir)) {
            LOG.info("Second restart took {} ms", third.startedIn().toMillis());
            assertThat(snapshot(third.client())).isEqualTo(afterWritingAgain);
            assertThat(afterWritingAgain.get("Alpha").get("p0/r3")).containsEntry("After", "restart");
            third.stop();
        }
    }

    /** Inserts, replaces, merges, upserts, deletes and a transaction, over every property type. */
    private static void populate(TableClient table) {
        for (int i = 0; i < 24; i++) {
            table.createEntity(new TableEntity("p" + i % 3, "r" + i)
                    .addProperty("Text", "row " + i + " ü ✓")
                    .addProperty("Int", i)
                    .addProperty("Long", 1L << 40 | i)
                    .addProperty("Double", i / 3.0)
                    .addProperty("Flag", i % 2 == 0)
                    .addProperty("When", OffsetDateTime.of(2020, 1, 1 + i, 12, 0, 0, 123456000, ZoneOffset.UTC))
                    .addProperty("Id", UUID.nameUUIDFromBytes(("id" + i).getBytes(StandardCharsets.UTF_8)))
                    .addProperty("Bytes", ("bytes" + i).getBytes(StandardCharsets.UTF_8)));
        }
        for (int i = 0; i < 4; i++) {
            table.updateEntity(new TableEntity("p" + i % 3, "r" + i).addProperty("Replaced", true),
                    TableEntityUpdateMode.REPLACE);
            table.updateEntity(new TableEntity("p" + (i + 4) % 3, "r" + (i + 4)).addProperty("Merged", i),
                    TableEntityUpdateMode.MERGE);
            table.upsertEntity(new TableEntity("up", "u" + i).addProperty("N", i));
            table.deleteEntity("p" + (i + 8) % 3, "r" + (i + 8));
        }
        List<TableTransactionAction> tx = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            tx.add(new TableTransactionAction(TableTransactionActionType.CREATE,
                    new TableEntity("tx", "t" + i).addProperty("N", i)));
        }
        table.submitTransaction(tx);
    }

    /** Every table's entities: properties (binary as base64), Timestamp and ETag, by "pk/rk". */
    static Map<String, Map<String, Map<String, Object>>> snapshot(TableServiceClient service) {
        Map<String, Map<String, Map<String, Object>>> tables = new TreeMap<>();
        for (TableItem item : service.listTables()) {
            TableClient table = service.getTableClient(item.getName());
            Map<String, Map<String, Object>> entities = new TreeMap<>();
            for (TableEntity e : table.listEntities()) {
                Map<String, Object> props = new TreeMap<>();
                e.getProperties().forEach((k, v) -> {
                    if (!k.startsWith("odata.")) { // odata.id and editLink name the server's port
                        props.put(k, v instanceof byte[] b ? "base64:" + Base64.getEncoder().encodeToString(b) : v);
                    }
                });
                props.put("odata.etag", e.getETag());
                entities.put(e.getPartitionKey() + "/" + e.getRowKey(), props);
            }
            tables.put(item.getName(), entities);
        }
        LOG.info("Snapshot: {}", tables.entrySet().stream().map(t -> t.getKey() + "=" + t.getValue().size())
                .collect(Collectors.joining(", ")));
        return tables;
    }
}
