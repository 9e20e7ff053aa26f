package io.tablestream.core.command;

import java.util.Objects;

/**
 * Not a client's write: what one partition did for a job, written by its task into the job's
 * coordinator's partition (keyed like the {@link JobCommand}) in the same Kafka transaction as
 * the work it reports.
 *
 * @param partition the partition that reports
 * @param entities entities processed since its previous report
 * @param tableId for {@link Kind#TABLE_CREATED}, the new table's id; else 0
 * @param failure why the partition's share failed (DONE), or why a write or the table's creation
 *     failed; null otherwise
 */
public record JobReport(CommandHeader header, String jobId, Kind kind, int partition, long entities, long tableId,
                        Outcome.Failure failure) implements Command {
    public enum Kind {
        /** A restore's target table was created (or, with a failure, could not be). */
        TABLE_CREATED,
        /** A batch was done; more follow. */
        PROGRESS,
        /** The partition's share is done (or failed). */
        DONE,
        /** A fence was reached: every write to the partition before it is applied. */
        FENCED,
        /** A write a job sent to the partition failed. */
        WRITE_FAILED
    }

    public JobReport {
        Objects.requireNonNull(header, "header");
        Objects.requireNonNull(jobId, "jobId");
        Objects.requireNonNull(kind, "kind");
    }
}
