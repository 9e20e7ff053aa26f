package io.tablestream.core.command;

import java.util.Objects;

/**
 * Not a client's write: a notice the processor writes to one partition of the command log, telling
 * its task to do the next bounded batch of a job's work there ({@code work}), or, as a fence
 * ({@code work} null), to report that everything written to the partition before it has been
 * applied. Keyed by the partition's number, like a {@link PartitionMarker}. The coordinator writes
 * each partition's first step (and the fences); a partition's task writes its next step to the end
 * of its own partition, in the transaction of the batch it just did, so a job's work goes through
 * the log in bounded steps, survives a crash (the step is redone) and is done once.
 *
 * @param seq the step's number in its partition, from 0; a step the partition does not expect is ignored
 */
public record JobStep(CommandHeader header, String jobId, int partition, long seq, JobWork work) implements Command {
    public JobStep {
        Objects.requireNonNull(header, "header");
        Objects.requireNonNull(jobId, "jobId");
        if (partition < 0 || seq < 0) {
            throw new IllegalArgumentException("partition and seq must not be negative");
        }
    }

    /** Whether this is a fence rather than work. */
    public boolean fence() {
        return work == null;
    }
}
