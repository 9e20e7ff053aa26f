package io.tablestream.core.command;

import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.TableName;
import java.util.Objects;

/** One partition's share of a job, as its {@link JobStep}s carry it. */
public sealed interface JobWork {
    /** The table whose rows the work walks. */
    long tableId();

    TableName table();

    /**
     * Copy the partition's entities of table {@code tableId} into table {@code targetId}, as they
     * were at {@code asOf} (from the entity history), or, when {@code asOf} is null, as they were
     * when the work reached the partition (the current rows, each copied before a later change
     * replaces it).
     */
    record CopyRows(long tableId, TableName table, long targetId, TableName target, EdmDateTime asOf)
            implements JobWork {
        public CopyRows {
            Objects.requireNonNull(table, "table");
            Objects.requireNonNull(target, "target");
        }
    }

    /**
     * Delete the partition's entities of table {@code tableId} that match {@code filter} and were
     * written at or before {@code acceptedAt} (the job's acceptance, to the millisecond): what
     * matched when the job was accepted, and not written again since.
     */
    record DeleteRows(long tableId, TableName table, String filter, EdmDateTime acceptedAt) implements JobWork {
        public DeleteRows {
            Objects.requireNonNull(table, "table");
            Objects.requireNonNull(filter, "filter");
            Objects.requireNonNull(acceptedAt, "acceptedAt");
        }
    }
}
