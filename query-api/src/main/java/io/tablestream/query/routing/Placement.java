package io.tablestream.query.routing;

import java.util.List;

/**
 * Where one partition can be read now: its copies in the order to try them — the active first,
 * then the standbys (this instance's before others'). Empty while no instance holds a usable copy.
 */
public record Placement(int partition, List<Replica> replicas) {
    public Placement {
        replicas = List.copyOf(replicas);
    }

    /** The same placement without standbys: for reads that must see every applied write (session tokens). */
    public Placement activeOnly() {
        return new Placement(partition, replicas.stream().filter(r -> !r.standby()).toList());
    }
}
