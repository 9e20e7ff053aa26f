package io.tablestream.processor.store;

import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The copies of partition stores this instance holds: the active ones (it applies their commands)
 * and the standby ones (it follows their changelogs), and how far behind each copy is.
 */
public interface LocalReplicas {
    /** Partitions whose active store is queryable here now. */
    Set<Integer> active();

    /** Partitions of which this instance keeps a standby replica (not one that is becoming active). */
    Set<Integer> standby();

    /**
     * How far behind the local copy of {@code partition} is, as last measured in the background
     * (every 250 ms): for a standby, the client writes on the command log it has not applied; for
     * an active store, the records it is behind its changelog's end (0 once it runs). Empty when
     * this instance holds no copy, or has not measured it (a standby not warm yet).
     */
    OptionalLong lag(int partition);

    /** Every measured lag, by partition. */
    Map<Integer, Long> lags();

    /**
     * Whether the copies here may serve reads at all: false while this instance may have lost them
     * to others without knowing it (cut off from the Kafka cluster for longer than the group keeps a
     * silent member's partitions, and not confirmed by the group since). Always true on a single node.
     */
    boolean current();
}
