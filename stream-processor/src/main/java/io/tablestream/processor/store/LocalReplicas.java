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
     * Records the local copy of {@code partition} is behind its changelog's end, as last measured
     * (measured in the background, about every second); empty when this instance holds no copy or
     * has not measured it yet. An active store that runs is 0.
     */
    OptionalLong lag(int partition);

    /** Every measured lag, by partition. */
    Map<Integer, Long> lags();
}
