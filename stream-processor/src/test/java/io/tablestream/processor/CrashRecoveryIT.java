package io.tablestream.processor;

import static io.tablestream.testsupport.Eventually.eventually;
import static io.tablestream.processor.ProcessorIT.header;
import static org.assertj.core.api.Assertions.assertThat;

import io.tablestream.core.command.ChangeEvent;
import io.tablestream.core.command.EntityCommand;
import io.tablestream.core.command.EntityOperation;
import io.tablestream.core.command.Outcome;
import io.tablestream.core.command.TableCommand;
import io.tablestream.core.model.EdmInt32;
import io.tablestream.core.model.EntityKey;
import io.tablestream.core.model.TableName;
import io.tablestream.testsupport.KafkaCluster;
import io.tablestream.testsupport.KafkaTest;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A processor killed in the middle of a batch (changes applied to its store, nothing committed)
 * applies the batch exactly once after a restart: one outcome, one change event per entity, every
 * entity stored once.
 */
@KafkaTest
class CrashRecoveryIT {

    @Test
    void appliesABatchExactlyOnceAfterAProcessDiesInItsMiddle(KafkaCluster kafka, @TempDir Path dir) throws Exception {
        String prefix = kafka.uniqueName("crash");
        Topics topics = Topics.withPrefix(prefix);
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.io.tmpdir=" + dir, // RocksDB's unpacked library: a halted JVM leaves it behind
                "-cp", System.getProperty("java.class.path"), HaltingProcessorMain.class.getName(),
                kafka.bootstrapServers(), prefix, dir.toString(), Integer.toString(ProcessorIT.PARTITIONS), "5")
                .redirectErrorStream(true).start();
        List<String> childOutput = new ArrayList<>();
        BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        Thread reader = new Thread(() -> out.lines().forEach(line -> {
            synchronized (childOutput) {
                childOutput.add(line);
            }
        }));
        reader.start();
        eventually("the child running", () -> {
            assertThat(child.isAlive()).as("child died before running: %s", childOutput).isTrue();
            return contains(childOutput, "RUNNING");
        }, Duration.ofSeconds(120));

        EntityCommand batch;
        long tableId;
        try (CommandLogClient log = new CommandLogClient(kafka.bootstrapServers(), topics)) {
            tableId = log.send(TableCommand.create(header(), TableName.of("Ledger"), null)).table().tableId();
            List<EntityOperation> ops = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                ops.add(EntityOperation.of(EntityOperation.Type.INSERT, "r" + i, null, Map.of("I", EdmInt32.of(i))));
            }
            batch = EntityCommand.batch(header(), tableId, TableName.of("Ledger"), "p", ops);
            log.produce(batch);
        }
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).as("child halted: %s", childOutput).isTrue();
        assertThat(child.exitValue()).isEqualTo(137);
        assertThat(contains(childOutput, "HALTING after 5 changes")).isTrue();

        try (StreamProcessor processor = StreamProcessor.start(
                ProcessorIT.config(kafka, prefix, dir), Duration.ofSeconds(120));
             CommandLogClient log = new CommandLogClient(kafka.bootstrapServers(), processor.topics())) {
            Outcome outcome = log.awaitOutcome(batch.id(), Duration.ofSeconds(90));

            assertThat(outcome.succeeded()).isTrue();
            assertThat(outcome.results()).hasSize(10);
            Map<String, Outcome> all = log.allOutcomes(Duration.ofSeconds(2)); // throws on a second outcome
            assertThat(all).containsKey(batch.id());
            List<ChangeEvent> changes = log.allChanges(kafka.bootstrapServers(), Duration.ofSeconds(3));
            assertThat(changes).filteredOn(c -> batch.id().equals(c.commandId())).hasSize(10)
                    .extracting(c -> c.change().rowKey()).doesNotHaveDuplicates();
            int partition = ProcessorIT.partitionOf(tableId, "p");
            processor.appliedOffsets().await(outcome.partition(), outcome.offset()).get(10, TimeUnit.SECONDS);
            for (int i = 0; i < 10; i++) {
                assertThat(processor.entities().get(partition, EntityKey.of(tableId, "p", "r" + i)))
                        .as("r%d", i).isPresent();
            }
        } finally {
            child.destroyForcibly();
        }
    }

    private static boolean contains(List<String> lines, String text) {
        synchronized (lines) {
            return lines.stream().anyMatch(l -> l.contains(text));
        }
    }
}
