package io.tablestream.core.command;

import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.TableName;
import java.util.Objects;

/**
 * What a job (a long-running operation, an extension) is asked to do, as its {@link JobCommand}
 * carries it.
 */
public sealed interface JobSpec {
    /** The kind of a job, as its status names it. */
    enum Kind { RESTORE, DELETE_ENTITIES }

    /** The table the job reads (a restore's source, a deletion's table). */
    long tableId();

    TableName table();

    Kind kind();

    /**
     * Restore a table to a point in time: create {@code target} with the source's settings (default
     * TTL, history retention, secondary indexes), holding the entities the source held at
     * {@code asOf} (null: as of the job's acceptance).
     */
    record Restore(long tableId, TableName table, TableName target, EdmDateTime asOf) implements JobSpec {
        public Restore {
            Objects.requireNonNull(table, "table");
            Objects.requireNonNull(target, "target");
        }

        @Override
        public Kind kind() {
            return Kind.RESTORE;
        }
    }

    /** Delete every entity of the table that matched {@code filter} (an OData {@code $filter}) when the job was accepted. */
    record DeleteEntities(long tableId, TableName table, String filter) implements JobSpec {
        public DeleteEntities {
            Objects.requireNonNull(table, "table");
            Objects.requireNonNull(filter, "filter");
        }

        @Override
        public Kind kind() {
            return Kind.DELETE_ENTITIES;
        }
    }
}
