package io.tablestream.processor;

import static io.tablestream.testsupport.Eventually.eventually;
import static io.tablestream.processor.ProcessorIT.header;
import static org.assertj.core.api.Assertions.assertThat;

import io.tablestream.core.command.EntityCommand;
import io.tablestream.core.command.EntityOperation.Type;
import io.tablestream.core.command.EntityOperation;
import io.tablestream.core.command.TableCommand;
import io.tablestream.core.model.EdmInt32;
import io.tablestream.core.model.EdmString;
import io.tablestream.core.model.StoredEntity;
import io.tablestream.core.model.TableName;
import io.tablestream.core.storekey.KeyCodec;
import io.tablestream.processor.store.CloseableIterator;
import io.tablestream.testsupport.KafkaCluster;
import io.tablestream.testsupport.KafkaTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Local state deleted: the processor rebuilds it from Kafka with identical content. */
@KafkaTest
class StateRebuildIT {

    @Test
    void rebuildsDeletedLocalStateFromKafkaWithIdenticalContent(KafkaCluster kafka, @TempDir Path dir) throws Exception {
        String prefix = kafka.uniqueName("rebuild");
        Path stateDir = dir.resolve("state");
        long tableId;
        List<StoredEntity> before;
        try (StreamProcessor processor = StreamProcessor.start(ProcessorIT.config(kafka, prefix, stateDir),
                Duration.ofSeconds(90));
             CommandLogClient log = new CommandLogClient(kafka.bootstrapServers(), processor.topics())) {
            tableId = log.send(TableCommand.create(header(), TableName.of("Audit"), null)).table().tableId();
            for (int b = 0; b < 10; b++) {
                List<EntityOperation> ops = new ArrayList<>();
                for (int i = 0; i < 20; i++) {
                    ops.add(EntityOperation.of(Type.INSERT, String.format("r%03d", i), null,
                            Map.of("B", EdmInt32.of(b), "S", EdmString.of("v" + i))));
                }
                log.send(EntityCommand.batch(header(), tableId, TableName.of("Audit"), "p" + b, ops));
            }
            for (int b = 0; b < 10; b += 2) { // some merges and deletes on top
                log.send(EntityCommand.single(header(), tableId, TableName.of("Audit"), "p" + b,
                        EntityOperation.of(Type.MERGE, "r000", "*", Map.of("M", EdmInt32.of(b)))));
                log.send(EntityCommand.single(header(), tableId, TableName.of("Audit"), "p" + b,
                        EntityOperation.delete("r001", "*")));
            }
            before = snapshot(processor, tableId);
        }
        assertThat(before).hasSize(195);

        deleteRecursively(stateDir);

        try (StreamProcessor processor = StreamProcessor.start(ProcessorIT.config(kafka, prefix, stateDir),
                Duration.ofSeconds(90))) {
            List<StoredEntity> after = snapshotWhenRestored(processor, tableId, Duration.ofSeconds(90));
            assertThat(after).containsExactlyElementsOf(before);
            assertThat(processor.registry().byName("acct", TableName.of("AUDIT"))).isPresent();
        }
    }

    private static List<StoredEntity> snapshot(StreamProcessor processor, long tableId) {
        List<StoredEntity> all = new ArrayList<>();
        for (int p = 0; p < processor.commandPartitions(); p++) {
            try (CloseableIterator<StoredEntity> it = processor.entities().scan(p, KeyCodec.table(tableId))) {
                it.forEachRemaining(all::add);
            }
        }
        all.sort(Comparator.comparing((StoredEntity s) -> s.entity().partitionKey()).thenComparing(s -> s.entity().rowKey()));
        return all;
    }

    private static List<StoredEntity> snapshotWhenRestored(StreamProcessor processor, long tableId, Duration timeout)
            throws InterruptedException {
        return eventually(() -> snapshot(processor, tableId), s -> true, timeout); // ServerBusy while restoring
    }

    private static void deleteRecursively(Path root) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
