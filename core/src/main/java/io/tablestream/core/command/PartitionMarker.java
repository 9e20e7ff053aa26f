package io.tablestream.core.command;

import java.util.Objects;

/**
 * A point in one partition of the command log, written there by the processor task that owns the
 * partition. Not a client's write: it has no outcome and changes no entity. It does two things
 * when the task reaches it:
 * <ul>
 *   <li>the partition's clock moves to the marker's time (if that is later): how expiry proceeds
 *       in a partition that receives no command, at a point fixed in the log, so a replay decides
 *       every later command the same;</li>
 *   <li>the task incarnation that wrote it knows it has applied every command written before it.
 *       A task writes one when it starts (or restarts after a failure): commands before it may
 *       have been answered already, and the task serves no reads until it has applied them.</li>
 * </ul>
 *
 * @param header its id is the task incarnation that wrote it; its time is the marker's time
 * @param partition the partition it was written to
 */
public record PartitionMarker(CommandHeader header, int partition) implements Command {
    /** The account a marker's header names: none, markers belong to no account. */
    public static final String NO_ACCOUNT = "";

    public PartitionMarker {
        Objects.requireNonNull(header, "header");
        if (partition < 0) {
            throw new IllegalArgumentException("partition must not be negative");
        }
    }

    public static PartitionMarker of(String incarnation, int partition, long atMillis) {
        return new PartitionMarker(new CommandHeader(incarnation, NO_ACCOUNT, atMillis, null, null), partition);
    }

    /** The incarnation of the task that wrote it. */
    public String incarnation() {
        return header.id();
    }
}
