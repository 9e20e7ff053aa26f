package io.tablestream.query.routing;

import io.tablestream.core.command.CommandKey;
import io.tablestream.processor.store.StoreReplica;
import java.net.URI;
import java.util.List;
import java.util.Optional;

/**
 * The one place that decides where data lives and whether it is here: which partition of the
 * command log owns a key (the log's partition function), which instances hold copies of each
 * partition (active or standby, as Kafka Streams assigned them), whether this instance may serve
 * a partition, and the address of another instance. Nowhere else builds inter-node addresses.
 */
public interface KeyLocator {
    /** The partition that owns {@code key}. */
    int partitionOf(CommandKey key);

    /** How many partitions there are. */
    int partitions();

    /** Where the partition owning {@code key} can be read. */
    Placement locate(CommandKey key);

    /** Where each partition can be read, by partition number (0 to {@link #partitions()} − 1). */
    List<Placement> locateAll();

    /**
     * Which local copy of {@code partition} a read may use here: the active store when this instance
     * runs it, else — when {@code standbyAllowed} — a standby whose lag is within the bound; empty
     * when this instance may not serve the partition.
     */
    Optional<StoreReplica> localCopy(int partition, boolean standbyAllowed);

    /** The address of the resource at {@code rawPath} (still percent-encoded) with {@code rawQuery} (or null) on {@code instance}. */
    URI uriOf(Instance instance, String rawPath, String rawQuery);
}
