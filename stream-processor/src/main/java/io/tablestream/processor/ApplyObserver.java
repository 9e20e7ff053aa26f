package io.tablestream.processor;

import io.tablestream.core.command.EntityChange;

/**
 * Told of every entity change a task applies, on the stream thread, inside the task's transaction
 * (for metrics and for fault-injection tests). Must be fast and must not block.
 */
@FunctionalInterface
public interface ApplyObserver {
    ApplyObserver NONE = change -> { };

    void applied(EntityChange change);
}
