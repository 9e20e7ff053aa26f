package io.tablestream.ingest.kafka;

import io.tablestream.core.command.Outcome;
import io.tablestream.schemas.LogCodecs;
import io.tablestream.schemas.LogFormatException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The sync writes of this instance waiting for their outcomes, by command id, and which outcome read
 * from the outcomes topic is whose: only one keyed by this instance's id, and only when a request
 * still waits for its command (checked on the command id alone, before anything else is decoded: most
 * outcomes were handed over in-process already, and several instances may share a reply partition).
 * An outcome may come twice (handed over and read; or decided again on a replay, identical): the first
 * completes the request, the second finds nobody waiting. Thread-safe.
 */
final class PendingOutcomes {
    private final String instanceId;
    private final Map<String, CompletableFuture<Outcome>> pending = new ConcurrentHashMap<>();

    PendingOutcomes(String instanceId) {
        this.instanceId = instanceId;
    }

    /** The outcome of {@code commandId}; register before appending the command. Forgotten once complete, however. */
    CompletableFuture<Outcome> expect(String commandId) {
        CompletableFuture<Outcome> future = new CompletableFuture<>();
        pending.put(commandId, future);
        future.whenComplete((o, e) -> pending.remove(commandId, future));
        return future;
    }

    /** Whether a request waits for {@code commandId}. */
    boolean awaits(String commandId) {
        return pending.containsKey(commandId);
    }

    /** How many requests wait. */
    int waiting() {
        return pending.size();
    }

    /** Completes the request waiting for this outcome, if any. */
    void complete(Outcome outcome) {
        CompletableFuture<Outcome> waiter = pending.get(outcome.commandId());
        if (waiter != null) {
            waiter.complete(outcome);
        }
    }

    /**
     * The outcome a record of the outcomes topic holds, when it is keyed by this instance and a request
     * waits for it; empty otherwise (not decoded).
     *
     * @throws LogFormatException when the record is meant for a waiting request of this instance, as far as
     *     can be told, but cannot be read
     */
    Optional<Outcome> awaited(String key, byte[] value) {
        if (!instanceId.equals(key) || pending.isEmpty()) {
            return Optional.empty(); // another instance's outcome on the same partition, or nobody waits
        }
        if (LogCodecs.outcomeCommandId(value).filter(id -> !pending.containsKey(id)).isPresent()) {
            return Optional.empty(); // nobody waits for it (any more: most were handed over in-process)
        }
        Outcome outcome = LogCodecs.OUTCOME.decode(value);
        return pending.containsKey(outcome.commandId()) ? Optional.of(outcome) : Optional.empty();
    }
}
