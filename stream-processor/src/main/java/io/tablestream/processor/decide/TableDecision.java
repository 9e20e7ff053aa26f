package io.tablestream.processor.decide;

import io.tablestream.core.command.Outcome;
import io.tablestream.core.model.TableRecord;

/**
 * What a table command does: a failure, or the registry record to publish (ACTIVE for a create
 * and a set ACL, DELETED for a delete).
 */
public record TableDecision(Outcome.Failure failure, TableRecord record) {
    public boolean succeeded() {
        return failure == null;
    }
}
