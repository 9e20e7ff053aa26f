package io.tablestream.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablestream.core.command.CommandKey;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.junit.jupiter.api.Test;

class LogPartitionerTest {

    @Test
    void agreesWithKafkasDefaultPartitionerForKeyedRecords() {
        Random random = new Random(42);
        for (int i = 0; i < 10_000; i++) {
            StringBuilder key = new StringBuilder("acct/").append(random.nextLong()).append('/');
            int length = random.nextInt(40);
            for (int c = 0; c < length; c++) {
                key.append((char) (random.nextBoolean() ? 'a' + random.nextInt(26) : 0x80 + random.nextInt(0xD000)));
            }
            int partitions = 1 + random.nextInt(64);
            assertThat(LogPartitioner.partitionOf(key.toString(), partitions))
                    .isEqualTo(BuiltInPartitioner.partitionForKey(key.toString().getBytes(StandardCharsets.UTF_8),
                            partitions));
        }
    }

    @Test
    void spreadsPartitionKeysOfOneTableOverEveryPartition() {
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            seen.add(LogPartitioner.partitionOf(CommandKey.forEntity("devstoreaccount1", 7L, "pk" + i), 8));
        }
        assertThat(seen).hasSize(8);
    }

    @Test
    void refusesATopicWithoutPartitions() {
        assertThatThrownBy(() -> LogPartitioner.partitionOf("k", 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
