package io.tablestream.core.command;

import java.util.Objects;

/**
 * A job submitted by a client (an extension: a long-running operation such as a restore or a
 * delete by filter). Keyed by the account ({@link CommandKey#forAccount}), so one task coordinates
 * every job of an account and keeps their statuses, which {@code GET /<account>/$jobs} reads. The
 * job's id is the command's id.
 *
 * <p>The coordinator records the job and hands each partition of the log its share as
 * {@link JobStep}s; each partition's task does its share a bounded batch per step, writing its
 * next step to the end of its own partition, and reports to the coordinator ({@link JobReport}).
 */
public record JobCommand(CommandHeader header, JobSpec spec) implements Command {
    public JobCommand {
        Objects.requireNonNull(header, "header");
        Objects.requireNonNull(spec, "spec");
    }

    /** The job's id: the id of the command that submitted it. */
    public String jobId() {
        return header.id();
    }
}
