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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Read-your-writes for a read carrying {@code x-ms-session-token}: completes once every position
 * of the token that this instance hosts has been applied, or fails with ServerBusy (503) after
 * the bound. Positions of partitions hosted elsewhere are the owner's to wait for.
 */
final class SessionWait {
    private final AppliedOffsets applied;
    private final Duration timeout;

    SessionWait(AppliedOffsets applied, Duration timeout) {
        this.applied = applied;
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
        List<CompletableFuture<Void>> waits = new ArrayList<>();
        for (SessionToken.Position p : SessionToken.parse(header).positions()) {
            if (p.partition() >= partitions) {
                throw TableServiceException.of(ErrorCode.INVALID_HEADER_VALUE,
                        "x-ms-session-token names partition " + p.partition() + "; the command log has " + partitions
                                + ".");
            }
            if (localPartitions.contains(p.partition())) {
                waits.add(applied.await(p.partition(), p.offset()));
            }
        }
        if (waits.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        return CompletableFuture.allOf(waits.toArray(CompletableFuture[]::new))
                .orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS)
                .exceptionally(e -> {
                    if (e instanceof TimeoutException) {
                        throw TableServiceException.of(ErrorCode.SERVER_BUSY,
                                "The writes named by x-ms-session-token are not applied yet; retry shortly.");
                    }
                    throw e instanceof RuntimeException r ? r : new IllegalStateException(e);
                });
    }
}
