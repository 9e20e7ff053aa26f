package io.tablestream.query.http;

import java.util.concurrent.CompletableFuture;

/**
 * Where each partition of the command log ends: the offset its next command will get. A session
 * token naming an offset at or past the end names a write that was never answered, and can be
 * refused at once instead of waited for.
 */
public interface CommandLogEnds {
    /**
     * The end of {@code partition}: one already known to lie past {@code offset}, or else one looked
     * up no earlier than this call — so the position of any write answered before the call lies
     * below it. Never blocks; fails when the end cannot be learned in time (the caller then cannot
     * judge the offset and must not refuse it).
     */
    CompletableFuture<Long> endBeyond(int partition, long offset);

    /** Ends that are never known: every token is waited for. */
    CommandLogEnds UNKNOWN = (partition, offset) ->
            CompletableFuture.failedFuture(new IllegalStateException("the command log's ends are not known here"));
}
