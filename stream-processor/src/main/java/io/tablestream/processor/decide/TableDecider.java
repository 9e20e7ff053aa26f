package io.tablestream.processor.decide;

import io.tablestream.core.command.Outcome;
import io.tablestream.core.command.TableCommand;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.IndexDefinition;
import io.tablestream.core.model.TableRecord;
import io.tablestream.core.rules.Limits;
import java.util.ArrayList;
import java.util.List;

/**
 * Decides table commands for one name (case-insensitive): create gives a new id and fails with
 * TableAlreadyExists on an active name; delete retires the id and fails with TableNotFound on a
 * missing one; set ACL replaces the stored access policies of the active table and fails with
 * TableNotFound on a missing one. Pure: the caller supplies the active record for the name (or
 * null) and the id a create would get. The command must already have passed
 * {@link io.tablestream.core.rules.CommandRules}.
 *
 * <p>Creating a secondary index gives it the id a create would give a table (the command's
 * position); creating one whose name the table has fails with IndexAlreadyExists, dropping a
 * missing one with IndexNotFound.
 *
 * <p>A table may be created with secondary indexes (a restore's target takes its source's): they keep
 * the ids they come with, which are unique within the new table, since its own later indexes get
 * ids of later positions in the log.
 *
 * <p>Deleting a missing table is {@code ResourceNotFound}, as the service answers it (operations on a
 * missing table's entities are {@code TableNotFound}).
 */
public final class TableDecider {
    private TableDecider() {
    }

    public static TableDecision decide(TableCommand command, TableRecord active, long newTableId, EdmDateTime now) {
        return switch (command.operation()) {
            case CREATE -> active != null
                    ? new TableDecision(failure(ErrorCode.TABLE_ALREADY_EXISTS), null)
                    : new TableDecision(null, TableRecord.active(command.account(), command.tableName(), newTableId,
                            now, command.defaultTtlSeconds(), command.historyRetentionSeconds())
                            .withIndexes(command.indexes()));
            case DELETE -> active == null
                    ? new TableDecision(failure(ErrorCode.RESOURCE_NOT_FOUND), null)
                    : new TableDecision(null, active.deleted(now));
            case SET_ACL -> active == null
                    ? new TableDecision(failure(ErrorCode.TABLE_NOT_FOUND), null)
                    : new TableDecision(null, active.withAccessPolicies(command.accessPolicies()));
            case CREATE_INDEX -> createIndex(command.index(), active, newTableId);
            case DROP_INDEX -> dropIndex(command.index().name(), active);
        };
    }

    /** The new index gets the command's position as its id, as a new table does. */
    private static TableDecision createIndex(IndexDefinition index, TableRecord active, long newId) {
        if (active == null) {
            return new TableDecision(failure(ErrorCode.TABLE_NOT_FOUND), null);
        }
        if (active.index(index.name()).isPresent()) {
            return new TableDecision(failure(ErrorCode.INDEX_ALREADY_EXISTS), null);
        }
        if (active.indexes().size() >= Limits.MAX_INDEXES) {
            return new TableDecision(failure(ErrorCode.TOO_MANY_INDEXES), null);
        }
        List<IndexDefinition> indexes = new ArrayList<>(active.indexes());
        indexes.add(index.withId(newId));
        return new TableDecision(null, active.withIndexes(indexes));
    }

    private static TableDecision dropIndex(String name, TableRecord active) {
        if (active == null) {
            return new TableDecision(failure(ErrorCode.TABLE_NOT_FOUND), null);
        }
        if (active.index(name).isEmpty()) {
            return new TableDecision(failure(ErrorCode.INDEX_NOT_FOUND), null);
        }
        List<IndexDefinition> indexes = new ArrayList<>(active.indexes());
        indexes.removeIf(i -> i.named(name));
        return new TableDecision(null, active.withIndexes(indexes));
    }

    private static Outcome.Failure failure(ErrorCode code) {
        return new Outcome.Failure(code, code.defaultMessage(), null);
    }
}
