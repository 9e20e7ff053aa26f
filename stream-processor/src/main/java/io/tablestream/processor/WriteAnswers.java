package io.tablestream.processor;

import io.tablestream.core.command.Outcome;
import java.util.Objects;

/**
 * When a write someone waits for is answered, and where a task hands over the outcomes it decides.
 *
 * <p>{@linkplain #atDecision At decision} (the default): the command is durable once the log has
 * it, and a task's decision is a pure function of its partition's log (its state, the command, the
 * partition's clock), so a replay after a crash decides exactly the same outcome, ETag and
 * Timestamp. The answer therefore goes out as soon as the outcome is decided: handed to
 * {@link #handoff} on the stream thread, which completes the waiter when it is in this process and
 * may put another instance's outcome on the outcomes topic itself, outside the task's transaction
 * (the task then does not write it); otherwise the task writes it there, in its transaction, and
 * the waiter reads it uncommitted;
 * transactions commit in groups at the commit interval, and the change feed (read committed) still
 * shows each change once.
 *
 * <p>{@linkplain #AFTER_COMMIT After commit}: the task commits right after every command someone
 * waits for, and waiters read outcomes committed only (the first release's behaviour, kept to
 * measure against).
 *
 * @param handoff told of every decided outcome of a write someone waits for, on the stream thread;
 *     must not block (hand the outcome to another thread); when it says a waiter in this process took
 *     the outcome, no outcome record is written
 */
public record WriteAnswers(boolean atDecision, Handoff handoff) {
    public static final WriteAnswers AFTER_COMMIT = new WriteAnswers(false, Handoff.NONE);

    public WriteAnswers {
        Objects.requireNonNull(handoff, "handoff");
    }

    public static WriteAnswers atDecision(Handoff handoff) {
        return new WriteAnswers(true, handoff);
    }

    /** Where a task hands over an outcome it just decided. */
    @FunctionalInterface
    public interface Handoff {
        Handoff NONE = outcome -> false;

        /**
         * An outcome just decided; true when it reaches its waiter from here (a request of this
         * process has it, or it was sent to the outcomes topic outside the task's transaction), false
         * to have the task write it there.
         */
        boolean decided(Outcome outcome);
    }
}
