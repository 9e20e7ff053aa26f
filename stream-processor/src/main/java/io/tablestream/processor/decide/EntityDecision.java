package io.tablestream.processor.decide;

import io.tablestream.core.command.EntityChange;
import io.tablestream.core.command.Outcome;
import java.util.List;

/**
 * What an entity command does: either it fails as a whole (no change at all), or it applies and
 * yields one result per operation and the changes to apply, in operation order.
 */
public record EntityDecision(Outcome.Failure failure, List<Outcome.OperationResult> results,
                             List<EntityChange> changes) {
    public EntityDecision {
        results = List.copyOf(results);
        changes = List.copyOf(changes);
    }

    static EntityDecision failed(Outcome.Failure failure) {
        return new EntityDecision(failure, List.of(), List.of());
    }

    static EntityDecision applied(List<Outcome.OperationResult> results, List<EntityChange> changes) {
        return new EntityDecision(null, results, changes);
    }

    public boolean succeeded() {
        return failure == null;
    }
}
