package io.tablestream.server.entities;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableEntityUpdateMode;
import com.azure.data.tables.models.TableServiceException;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionType;
import com.azure.data.tables.models.TableTransactionFailedException;
import io.tablestream.core.command.ChangeEvent;
import io.tablestream.core.command.CommandKey;
import io.tablestream.core.command.EntityChange;
import io.tablestream.core.model.EdmInt32;
import io.tablestream.core.model.EdmString;
import io.tablestream.core.model.TableName;
import io.tablestream.processor.TopicDescriptor;
import io.tablestream.server.RawTableClient;
import io.tablestream.server.TableNames;
import io.tablestream.server.TablestreamServerExtension;
import io.tablestream.server.TablestreamServerExtension.RunningServer;
import io.tablestream.testsupport.KafkaExtension;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The data lands in Kafka: after writes through the SDK, the {@code <prefix>.changes} topic, read as a
 * read_committed consumer would, holds exactly one change event per applied change — in the order the
 * writes were applied, keyed like their commands, carrying the versions the SDK reads back — and none
 * for a write the service refused.
 */
@ExtendWith({KafkaExtension.class, TablestreamServerExtension.class})
class ChangeFeedIT {
    private static final String ACCOUNT = "devstoreaccount1";

    /** One change event as a test compares it: type, RowKey, and the new version's ETag (null when removed). */
    private record Change(EntityChange.Type type, String rowKey, String etag) {
        static Change of(ChangeEvent e) {
            EntityChange c = e.change();
            return new Change(c.type(), c.rowKey(), c.newVersion() == null ? null
                    : c.newVersion().entity().etag().value());
        }
    }

    @Test
    void everyAppliedWriteIsOneChangeEventInOrderAndRefusedWritesAreNone(RunningServer server) {
        TableClient table = server.client().createTable(TableNames.unique("Feed"));
        String pk = "device-1";
        List<Change> expected = new ArrayList<>();

        table.createEntity(new TableEntity(pk, "r1").addProperty("V", 1));
        expected.add(new Change(EntityChange.Type.INSERTED, "r1", etag(table, pk, "r1")));
        table.upsertEntity(new TableEntity(pk, "r2").addProperty("V", 2));
        expected.add(new Change(EntityChange.Type.INSERTED, "r2", etag(table, pk, "r2")));
        table.updateEntity(new TableEntity(pk, "r1").addProperty("W", "merged"), TableEntityUpdateMode.MERGE);
        expected.add(new Change(EntityChange.Type.MERGED, "r1", etag(table, pk, "r1")));
        TableEntity r1 = table.getEntity(pk, "r1");
        table.updateEntityWithResponse(r1.addProperty("V", 10), TableEntityUpdateMode.REPLACE, true, null, null);
        expected.add(new Change(EntityChange.Type.REPLACED, "r1", etag(table, pk, "r1")));
        table.upsertEntityWithResponse(new TableEntity(pk, "r2").addProperty("V", 20), TableEntityUpdateMode.REPLACE,
                null, null);
        expected.add(new Change(EntityChange.Type.REPLACED, "r2", etag(table, pk, "r2")));
        table.upsertEntity(new TableEntity(pk, "r2").addProperty("X", 3)); // insert-or-merge of an existing one
        expected.add(new Change(EntityChange.Type.MERGED, "r2", etag(table, pk, "r2")));

        // refused: none of these may leave a trace in the feed
        assertThatThrownBy(() -> table.createEntity(new TableEntity(pk, "r1"))).isInstanceOf(TableServiceException.class);
        assertThatThrownBy(() -> table.updateEntityWithResponse(r1, TableEntityUpdateMode.MERGE, true, null, null))
                .isInstanceOf(TableServiceException.class);
        assertThatThrownBy(() -> table.updateEntity(new TableEntity(pk, "nobody"))).isInstanceOf(TableServiceException.class);
        assertThatThrownBy(() -> table.submitTransaction(List.of(
                new TableTransactionAction(TableTransactionActionType.CREATE, new TableEntity(pk, "r5")),
                new TableTransactionAction(TableTransactionActionType.CREATE, new TableEntity(pk, "r1")))))
                .isInstanceOf(TableTransactionFailedException.class);
        table.deleteEntity(pk, "nobody"); // a 404 the SDK swallows

        table.deleteEntity(pk, "r2");
        expected.add(new Change(EntityChange.Type.DELETED, "r2", null));
        table.submitTransaction(List.of(
                new TableTransactionAction(TableTransactionActionType.CREATE, new TableEntity(pk, "r3")),
                new TableTransactionAction(TableTransactionActionType.UPSERT_MERGE, new TableEntity(pk, "r4")),
                new TableTransactionAction(TableTransactionActionType.DELETE, new TableEntity(pk, "r1"))));
        expected.add(new Change(EntityChange.Type.INSERTED, "r3", etag(table, pk, "r3")));
        expected.add(new Change(EntityChange.Type.INSERTED, "r4", etag(table, pk, "r4")));
        expected.add(new Change(EntityChange.Type.DELETED, "r1", null));
        RawTableClient.to(server).send("PUT", table.getTableName() + "(PartitionKey='" + pk + "',RowKey='async')",
                "{\"V\":1}", "Prefer", "respond-async");
        table.upsertEntity(new TableEntity(pk, "last")); // written after everything above, on the same partition
        expected.add(new Change(EntityChange.Type.INSERTED, "async", etag(table, pk, "async")));
        expected.add(new Change(EntityChange.Type.INSERTED, "last", etag(table, pk, "last")));

        List<ConsumerRecord<String, ChangeEvent>> records = readChangesUntil(server, table.getTableName(), "last");

        long tableId = server.server().processor().registry().byName(ACCOUNT, TableName.of(table.getTableName()))
                .orElseThrow().tableId();
        List<ChangeEvent> events = records.stream().map(ConsumerRecord::value).collect(Collectors.toList());
        assertThat(events).extracting(Change::of).containsExactlyElementsOf(expected);
        assertThat(records).extracting(ConsumerRecord::key)
                .containsOnly(CommandKey.forEntity(ACCOUNT, tableId, pk).value());
        assertThat(records).extracting(ConsumerRecord::partition).containsOnly(records.get(0).partition());
        assertThat(events).allSatisfy(e -> {
            assertThat(e.account()).isEqualTo(ACCOUNT);
            assertThat(e.tableName().value()).isEqualTo(table.getTableName());
            assertThat(e.change().tableId()).isEqualTo(tableId);
            assertThat(e.change().partitionKey()).isEqualTo(pk);
            assertThat(e.commandId()).isNotBlank();
            if (e.change().newVersion() != null) {
                assertThat(e.change().newVersion().entity().timestamp()).isEqualTo(e.changedAt());
            }
        });
        assertThat(events.get(2).change().newVersion().entity().properties())
                .isEqualTo(Map.of("V", EdmInt32.of(1), "W", EdmString.of("merged")));
        assertThat(events.get(3).change().newVersion().entity().properties())
                .isEqualTo(Map.of("V", EdmInt32.of(10), "W", EdmString.of("merged")));
        assertThat(events.subList(7, 10)).extracting(ChangeEvent::commandId).containsOnly(events.get(7).commandId());
        assertThat(events.subList(7, 10)).extracting(ChangeEvent::changedAt).containsOnly(events.get(7).changedAt());
        assertThat(events.subList(0, 7)).extracting(ChangeEvent::commandId).doesNotHaveDuplicates();
    }

    private static String etag(TableClient table, String pk, String rk) {
        return table.getEntity(pk, rk).getETag();
    }

    /**
     * The change events of {@code tableName}, read from the beginning of every partition of the
     * changes topic with isolation read_committed, up to and including the first event for
     * {@code lastRowKey}.
     */
    private static List<ConsumerRecord<String, ChangeEvent>> readChangesUntil(RunningServer server, String tableName,
                                                                              String lastRowKey) {
        TopicDescriptor<String, ChangeEvent> changes = server.server().processor().topics().changes();
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, server.kafka().bootstrapServers());
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        List<ConsumerRecord<String, ChangeEvent>> found = new ArrayList<>();
        try (KafkaConsumer<String, ChangeEvent> consumer = new KafkaConsumer<>(props, new StringDeserializer(),
                changes.valueSerde().deserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(changes.name()).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition())).collect(Collectors.toList());
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Instant deadline = Instant.now().plusSeconds(30);
            while (Instant.now().isBefore(deadline)) {
                for (ConsumerRecord<String, ChangeEvent> record : consumer.poll(Duration.ofMillis(200))) {
                    if (record.value().tableName().value().equals(tableName)) {
                        found.add(record);
                        if (record.value().change().rowKey().equals(lastRowKey)) {
                            return found;
                        }
                    }
                }
            }
        }
        throw new AssertionError("No change event for " + lastRowKey + " within 30 s; found " + found.size() + ": "
                + found.stream().map(r -> Change.of(r.value())).collect(Collectors.toList()));
    }
}
