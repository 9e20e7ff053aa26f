package io.tablestream.query.routing;

import io.tablestream.core.command.CommandKey;
import java.util.Set;

/**
 * The one place that decides where an entity key lives: which partition of the command log (and
 * so which store) owns it, and whether that store is on this instance. Reads of a partition this
 * instance does not host are routed to the host Kafka Streams names; nowhere else builds
 * inter-node addresses.
 */
public interface KeyLocator {
    /** The partition that owns {@code key} (the command log's default partitioner). */
    int partitionOf(CommandKey key);

    /** How many partitions there are. */
    int partitions();

    /** The partitions whose stores this instance serves now. */
    Set<Integer> localPartitions();
}
