package io.tablestream.schemas;

import io.tablestream.core.command.CommandKey;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.utils.Utils;

/**
 * The partition function of the log, in one place: a record keyed {@code k} belongs on partition
 * {@code positive(murmur2(utf8(k))) mod partitions} — what Kafka's default partitioner does with a
 * keyed record, so a Kafka-native producer using the default partitioner agrees with it. The command
 * producer, the processor's misroute check, the outcome reply partitions and the read router all
 * use this function; a command's partition decides the one task (and store) that owns its key.
 */
public final class LogPartitioner {
    private LogPartitioner() {
    }

    /** The partition of a record keyed {@code key} on a topic of {@code partitions} partitions. */
    public static int partitionOf(String key, int partitions) {
        if (partitions < 1) {
            throw new IllegalArgumentException("a topic has at least one partition: " + partitions);
        }
        return Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % partitions;
    }

    /** The partition of the commands (and stores) that own {@code key}. */
    public static int partitionOf(CommandKey key, int partitions) {
        return partitionOf(key.value(), partitions);
    }
}
