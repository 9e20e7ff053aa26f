package io.tablestream.query.http;

import io.tablestream.core.command.SessionToken;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.processor.store.AppliedOffsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Read-your-writes for a read carrying {@code x-ms-session-token}: completes once every position
 * of the token that this instance hosts has been applied, or fails with ServerBusy (503) after
 * the bound. Positions of partitions hosted elsewhere are the owner's to wait for. A position at or
 * past the end of the command log names no write ever answered: it fails at once with
 * InvalidHeaderValue (400) rather than after the bound.
 */
final class SessionWait {
    private final AppliedOffsets applied;
    private final CommandLogEnds ends;
    private final Duration timeout;

    SessionWait(AppliedOffsets applied, CommandLogEnds ends, Duration timeout) {
        this.applied = applied;
        this.ends = ends;
        this.timeout = timeout;
    }

    /**
     * @param partitions how many partitions the command log has: a token naming another one was not
     *                   issued by this service (400 InvalidHeaderValue)
     */
    CompletableFuture<Void> until(String header, int partitions, Set<Integer> localPartitions) {
        if (header == null || header.isBlank()) {
            return CompletableFuture.completedFuture(null);
        }
        List<SessionToken.Position> positions = SessionToken.parse(header).positions();
        List<CompletableFuture<Void>> written = new ArrayList<>();
        for (SessionToken.Position p : positions) {
            if (p.partition() >= partitions) {
                throw TableServiceException.of(ErrorCode.INVALID_HEADER_VALUE,
                        "x-ms-session-token names partition " + p.partition() + "; the command log has " + partitions
                                + ".");
            }
            written.add(ends.endBeyond(p.partition(), p.offset()).handle((end, unknown) -> {
                if (unknown == null && end <= p.offset()) {
                    throw TableServiceException.of(ErrorCode.INVALID_HEADER_VALUE, "x-ms-session-token names offset "
                            + p.offset() + " of partition " + p.partition() + ", but the command log there ends at "
                            + end + ": no write was answered with this token.");
                }
                return null; // inside the log, or its end cannot be learned now: wait for it
            }));
        }
        CompletableFuture<Void> checked = CompletableFuture.allOf(written.toArray(CompletableFuture[]::new));
        return checked.thenCompose(v -> {
            List<CompletableFuture<Void>> waits = new ArrayList<>();
            for (SessionToken.Position p : positions) {
                if (localPartitions.contains(p.partition())) {
                    // bounded on its own too, so that a waiter is dropped however the read ends
                    waits.add(applied.await(p.partition(), p.offset()).orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS));
                }
            }
            return CompletableFuture.allOf(waits.toArray(CompletableFuture[]::new));
        }).orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS).exceptionally(e -> {
            Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
            if (cause instanceof TimeoutException) {
                throw TableServiceException.of(ErrorCode.SERVER_BUSY,
                        "The writes named by x-ms-session-token are not applied yet; retry shortly.");
            }
            throw cause instanceof RuntimeException r ? r : new IllegalStateException(cause);
        });
    }
}
