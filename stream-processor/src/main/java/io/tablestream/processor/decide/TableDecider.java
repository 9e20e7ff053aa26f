package io.tablestream.processor.decide;

import io.tablestream.core.command.Outcome;
import io.tablestream.core.command.TableCommand;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.TableRecord;

/**
 * Decides table commands for one name (case-insensitive): create gives a new id and fails with
 * TableAlreadyExists on an active name; delete retires the id and fails with TableNotFound on a
 * missing one; set ACL replaces the stored access policies of the active table and fails with
 * TableNotFound on a missing one. Pure: the caller supplies the active record for the name (or
 * null) and the id a create would get. The command must already have passed
 * {@link io.tablestream.core.rules.CommandRules}.
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
                            now, command.defaultTtlSeconds(), command.historyRetentionSeconds()));
            case DELETE -> active == null
                    ? new TableDecision(failure(ErrorCode.RESOURCE_NOT_FOUND), null)
                    : new TableDecision(null, active.deleted(now));
            case SET_ACL -> active == null
                    ? new TableDecision(failure(ErrorCode.TABLE_NOT_FOUND), null)
                    : new TableDecision(null, active.withAccessPolicies(command.accessPolicies()));
        };
    }

    private static Outcome.Failure failure(ErrorCode code) {
        return new Outcome.Failure(code, code.defaultMessage(), null);
    }
}
