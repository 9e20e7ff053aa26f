package io.tablestream.processor;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablestream.core.command.CommandHeader;
import io.tablestream.core.command.CommandKey;
import io.tablestream.core.command.EntityCommand;
import io.tablestream.core.command.EntityOperation;
import io.tablestream.core.command.Outcome;
import io.tablestream.core.command.TableCommand;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.model.EdmInt32;
import io.tablestream.core.model.EntityKey;
import io.tablestream.core.model.StoredEntity;
import io.tablestream.core.model.TableName;
import io.tablestream.core.storekey.KeyCodec;
import io.tablestream.processor.store.CloseableIterator;
import io.tablestream.testsupport.KafkaCluster;
import io.tablestream.testsupport.KafkaTest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The processor on a real broker: commands in, outcomes and changes out, state readable through interactive queries. */
@KafkaTest
class ProcessorIT {
    static final int PARTITIONS = 4;

    static CommandHeader header() {
        return new CommandHeader(UUID.randomUUID().toString(), "acct", System.currentTimeMillis(), null, "it");
    }

    static int partitionOf(long tableId, String pk) {
        return io.tablestream.schemas.LogPartitioner.partitionOf(CommandKey.forEntity("acct", tableId, pk), PARTITIONS);
    }

    static StreamProcessorConfig config(KafkaCluster kafka, String prefix, Path stateDir) {
        return TestProcessorConfig.of(kafka.bootstrapServers(), prefix, stateDir).withPartitions(PARTITIONS);
    }

    @Test
    void appliesCommandsAndServesTheStateThroughInteractiveQueries(KafkaCluster kafka, @TempDir Path dir) throws Exception {
        String prefix = kafka.uniqueName("proc");
        try (StreamProcessor processor = StreamProcessor.start(config(kafka, prefix, dir), Duration.ofSeconds(90));
             CommandLogClient log = new CommandLogClient(kafka.bootstrapServers(), processor.topics())) {
            Outcome created = log.send(TableCommand.create(header(), TableName.of("Orders"), null));
            long tableId = created.table().tableId();
            processor.registry().awaitChange(() -> processor.registry().byName("acct", TableName.of("orders")).isPresent())
                    .get(30, TimeUnit.SECONDS);

            List<Outcome> inserts = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                inserts.add(log.send(EntityCommand.single(header(), tableId, TableName.of("Orders"), "pk" + (i % 5),
                        EntityOperation.of(EntityOperation.Type.INSERT, "rk" + i, null, Map.of("N", EdmInt32.of(i))))));
            }
            List<EntityOperation> batch = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                batch.add(EntityOperation.of(EntityOperation.Type.INSERT_OR_MERGE, "b" + i, null, Map.of()));
            }
            Outcome batched = log.send(EntityCommand.batch(header(), tableId, TableName.of("Orders"), "batch", batch));
            Outcome duplicate = log.send(EntityCommand.single(header(), tableId, TableName.of("Orders"), "pk0",
                    EntityOperation.of(EntityOperation.Type.INSERT, "rk0", null, Map.of())));

            assertThat(inserts).allSatisfy(o -> assertThat(o.succeeded()).isTrue());
            assertThat(batched.results()).hasSize(10);
            assertThat(duplicate.failure().code()).isEqualTo(ErrorCode.ENTITY_ALREADY_EXISTS);

            // a sync answer comes after the owning store applied the command
            Outcome last = inserts.get(19);
            processor.appliedOffsets().await(last.partition(), last.offset()).get(10, TimeUnit.SECONDS);
            StoredEntity rk19 = processor.entities().get(partitionOf(tableId, "pk4"), EntityKey.of(tableId, "pk4", "rk19"))
                    .orElseThrow();
            assertThat(rk19.entity().properties()).containsEntry("N", EdmInt32.of(19));
            assertThat(rk19.entity().timestamp()).isEqualTo(last.results().get(0).timestamp());

            int total = 0;
            for (int p : processor.replicas().active()) {
                try (CloseableIterator<StoredEntity> it = processor.entities().scan(p, KeyCodec.table(tableId))) {
                    while (it.hasNext()) {
                        it.next();
                        total++;
                    }
                }
            }
            assertThat(processor.replicas().active()).hasSize(PARTITIONS);
            assertThat(total).isEqualTo(30);
            assertThat(log.allChanges(kafka.bootstrapServers(), Duration.ofSeconds(2))).hasSize(30);
        }
    }
}
