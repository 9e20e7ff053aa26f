package io.tablestream.ingest.command;

import io.tablestream.core.command.Command;
import io.tablestream.core.command.CommandHeader;
import io.tablestream.core.command.CommandKey;
import io.tablestream.core.command.Outcome;
import io.tablestream.core.command.SessionToken;
import io.tablestream.core.error.TableServiceException;
import java.time.Clock;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * Turns an accepted request into a command on the log: gives it an id and a header, appends it,
 * and — for a sync write — waits (bounded, without blocking a thread) for its outcome, failing with
 * the outcome's error when the processor rejected it.
 */
public final class CommandSubmitter {
    private final CommandLog log;
    private final Clock clock;
    private final Duration timeout;

    public CommandSubmitter(CommandLog log, Clock clock, Duration timeout) {
        this.log = log;
        this.clock = clock;
        this.timeout = timeout;
    }

    /** A header for a command of {@code account} issued by {@code principal}; {@code awaited} sets replyTo. */
    public CommandHeader header(String account, String principal, boolean awaited) {
        return new CommandHeader(UUID.randomUUID().toString(), account, clock.millis(),
                awaited ? log.instanceId() : null, principal);
    }

    /** The partition of the log a command keyed {@code key} goes to. */
    public int partitionOf(CommandKey key) {
        return log.partitionOf(key);
    }

    /** Appends and completes with the applied outcome; a rejection completes exceptionally with its error. */
    public CompletableFuture<Outcome> submit(Command command) {
        return log.appendAndAwait(command, timeout).thenApply(outcome -> {
            if (!outcome.succeeded()) {
                throw failureOf(outcome);
            }
            return outcome;
        });
    }

    /** Appends without waiting for the outcome; completes once the log has the command. */
    public CompletableFuture<SessionToken.Position> submitAsync(Command command) {
        return log.append(command);
    }

    /** A rejected outcome as the error the client sees, attributed to its operation within a batch. */
    public static TableServiceException failureOf(Outcome outcome) {
        Outcome.Failure f = outcome.failure();
        TableServiceException e = TableServiceException.of(f.code(), f.message());
        return f.operationIndex() == null ? e : e.atIndex(f.operationIndex());
    }
}
