package io.tablestream.processor;

import static io.tablestream.processor.ProcessorIT.header;
import static io.tablestream.testsupport.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.tablestream.core.command.EntityCommand;
import io.tablestream.core.command.EntityOperation;
import io.tablestream.core.command.Outcome;
import io.tablestream.core.command.TableCommand;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.model.EdmInt32;
import io.tablestream.core.model.EntityKey;
import io.tablestream.core.model.StoredEntity;
import io.tablestream.core.model.TableName;
import io.tablestream.testsupport.KafkaCluster;
import io.tablestream.testsupport.KafkaTest;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reads of a partition's active store while its task moves between two instances (a second instance
 * joins, then leaves), with reads going on all along: an instance whose active task became a standby
 * refuses active reads of it (its store stays open, as the standby's, and must not be read as the
 * active one), and once the task comes back its reads see what was written while it was away.
 */
@KafkaTest
class ReadsWhileTasksMoveIT {
    private static final int PARTITIONS = ProcessorIT.PARTITIONS;
    private static final TableName TABLE = TableName.of("moving");
    private static final Duration SETTLE = Duration.ofSeconds(90);

    private static StreamProcessorConfig config(KafkaCluster kafka, String prefix, Path dir, String instance,
                                                String hostPort) {
        return new StreamProcessorConfig(kafka.bootstrapServers(), prefix, PARTITIONS, (short) 1, dir, instance,
                hostPort, 1, 1, Duration.ofMillis(100), Map.of(), Clock.systemUTC());
    }

    @Test
    void anInstanceRefusesActiveReadsOfATaskThatMovedAwayAndReadsItsNewRowsWhenItComesBack(KafkaCluster kafka,
            @TempDir Path a, @TempDir Path b) throws Exception {
        String prefix = kafka.uniqueName("moving");
        try (StreamProcessor first = StreamProcessor.start(config(kafka, prefix, a, "node-a", "127.0.0.1:7401"),
                Duration.ofSeconds(90));
             CommandLogClient log = new CommandLogClient(kafka.bootstrapServers(), first.topics())) {
            long tableId = log.send(TableCommand.create(header(), TABLE, null)).table().tableId();
            first.registry().awaitChange(() -> first.registry().byName("acct", TABLE).isPresent())
                    .get(30, TimeUnit.SECONDS);
            Map<Integer, EntityKey> keys = oneKeyPerPartition(tableId);
            keys.forEach((p, key) -> write(log, first, key, 1));
            keys.forEach((p, key) -> assertThat(value(first, p, key)).isEqualTo(1));

            Reader reader = new Reader(first, keys);
            Thread reads = new Thread(reader, "reads-while-tasks-move");
            reads.start();
            try {
                Set<Integer> moved;
                try (StreamProcessor second = StreamProcessor.start(config(kafka, prefix, b, "node-b", "127.0.0.1:7402"),
                        Duration.ofSeconds(90))) {
                    moved = eventually(() -> settledSplit(first, second), m -> m != null && !m.isEmpty(), SETTLE);
                    for (int p : moved) {
                        assertRefusedUnlessBack(first, p, keys.get(p));
                        write(log, second, keys.get(p), 2);
                        assertRefusedUnlessBack(first, p, keys.get(p));
                    }
                }
                // the second left the group: its tasks are the first's again, promoted from its standbys
                eventually("every partition reads the rows written while it was away", () -> {
                    for (int p : moved) {
                        if (!Optional.of(2).equals(tryValue(first, p, keys.get(p)))) {
                            return false;
                        }
                    }
                    return true;
                }, SETTLE);
            } finally {
                reader.stop.set(true);
                reads.join(TimeUnit.SECONDS.toMillis(30));
            }
            assertThat(reader.unexpected).as("reads failed other than with ServerBusy").isEmpty();
            assertThat(reader.served.get()).isPositive();
        }
    }

    /** One key in each partition of the table. */
    private static Map<Integer, EntityKey> oneKeyPerPartition(long tableId) {
        Map<Integer, EntityKey> keys = new TreeMap<>();
        for (int i = 0; keys.size() < PARTITIONS; i++) {
            keys.putIfAbsent(ProcessorIT.partitionOf(tableId, "pk" + i), EntityKey.of(tableId, "pk" + i, "rk"));
        }
        return keys;
    }

    private static void write(CommandLogClient log, StreamProcessor owner, EntityKey key, int n) {
        Outcome written = log.send(EntityCommand.single(header(), key.tableId(), TABLE, key.partitionKey(),
                EntityOperation.of(EntityOperation.Type.INSERT_OR_REPLACE, key.rowKey(), null,
                        Map.of("N", EdmInt32.of(n)))));
        assertThat(written.succeeded()).isTrue();
        try {
            owner.appliedOffsets().await(written.partition(), written.offset()).get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError("the write was not applied by its owner", e);
        }
    }

    /**
     * The partitions the second instance runs, once both instances run and split the partitions
     * between them; null until then.
     */
    private static Set<Integer> settledSplit(StreamProcessor first, StreamProcessor second) {
        if (!first.isRunning() || !second.isRunning()) {
            return null;
        }
        Set<Integer> mine = first.replicas().active();
        Set<Integer> theirs = second.replicas().active();
        Set<Integer> all = new HashSet<>(mine);
        all.addAll(theirs);
        return all.size() == PARTITIONS && mine.size() + theirs.size() == PARTITIONS ? Set.copyOf(theirs) : null;
    }

    /** An active read of a partition another instance runs is refused, unless the partition came back meanwhile. */
    private static void assertRefusedUnlessBack(StreamProcessor first, int partition, EntityKey key) {
        try {
            first.entities().get(partition, key);
        } catch (TableServiceException e) {
            assertThat(e.errorCode()).isEqualTo(ErrorCode.SERVER_BUSY);
            return;
        }
        assertThat(first.replicas().active()).as("an active read of partition %d was served", partition)
                .contains(partition);
    }

    private static int value(StreamProcessor processor, int partition, EntityKey key) {
        StoredEntity e = processor.entities().get(partition, key).orElseThrow();
        return ((EdmInt32) e.entity().properties().get("N")).value();
    }

    private static Optional<Integer> tryValue(StreamProcessor processor, int partition, EntityKey key) {
        try {
            return Optional.of(value(processor, partition, key));
        } catch (TableServiceException e) {
            return Optional.empty();
        }
    }

    /** Reads every partition's key through the active stores, over and over, until stopped. */
    private static final class Reader implements Runnable {
        private final StreamProcessor processor;
        private final Map<Integer, EntityKey> keys;
        final AtomicBoolean stop = new AtomicBoolean();
        final AtomicLong served = new AtomicLong();
        final ConcurrentLinkedQueue<String> unexpected = new ConcurrentLinkedQueue<>();

        Reader(StreamProcessor processor, Map<Integer, EntityKey> keys) {
            this.processor = processor;
            this.keys = keys;
        }

        @Override
        public void run() {
            while (!stop.get()) {
                keys.forEach((p, key) -> {
                    try {
                        if (processor.entities().get(p, key).isPresent()) {
                            served.incrementAndGet();
                        } else {
                            unexpected.add("partition " + p + ": no row");
                        }
                    } catch (TableServiceException e) {
                        if (e.errorCode() != ErrorCode.SERVER_BUSY) {
                            unexpected.add("partition " + p + ": " + e.errorCode() + " " + e.getMessage());
                        }
                    } catch (RuntimeException e) {
                        unexpected.add("partition " + p + ": " + e);
                    }
                });
            }
        }
    }
}
