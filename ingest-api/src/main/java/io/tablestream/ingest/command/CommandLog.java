package io.tablestream.ingest.command;

import io.tablestream.core.command.Command;
import io.tablestream.core.command.CommandKey;
import io.tablestream.core.command.Outcome;
import io.tablestream.core.command.SessionToken;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;

/**
 * The command log as the write side sees it: append a command, and, for a sync write, learn its
 * outcome. Both complete without blocking the caller's thread.
 */
public interface CommandLog {
    /**
     * Appends {@code command}; completes once the log has it durably (acks=all) with its position.
     * Fails with a TableServiceException (ServerBusy when the log is unreachable in time).
     */
    CompletableFuture<SessionToken.Position> append(Command command);

    /**
     * Appends {@code command} (whose header must name this instance in replyTo) and completes with
     * its outcome, or fails with ServerBusy when none arrives within {@code timeout}.
     */
    CompletableFuture<Outcome> appendAndAwait(Command command, Duration timeout);

    /**
     * As {@link #appendAndAwait(Command, Duration)}, and {@code appended} learns when the log has the
     * command durably (or refused it), before the outcome. A log that cannot tell never calls it.
     */
    default CompletableFuture<Outcome> appendAndAwait(Command command, Duration timeout,
                                                      BiConsumer<SessionToken.Position, Throwable> appended) {
        return appendAndAwait(command, timeout);
    }

    /** The id outcomes for this instance are keyed by: put it in the replyTo of sync commands. */
    String instanceId();

    /**
     * The partition of the log a command keyed {@code key} goes to (where {@link #append} puts it):
     * commands meant to share a partition are grouped by it.
     */
    int partitionOf(CommandKey key);
}
