package io.tablestream.ingest.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablestream.core.command.Outcome;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.schemas.LogCodecs;
import io.tablestream.schemas.LogFormatException;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Which outcome is whose, without a broker: the routing the outcome listener applies to each record it reads. */
class PendingOutcomesTest {
    private static final String ME = "node-me";
    private final PendingOutcomes pending = new PendingOutcomes(ME);

    private static Outcome applied(String commandId, long offset) {
        return new Outcome(commandId, ME, null,
                List.of(new Outcome.OperationResult(EdmDateTime.of(Instant.parse("2024-01-02T03:04:05Z")))), null, 0,
                offset);
    }

    private static byte[] record(Outcome outcome) {
        return LogCodecs.OUTCOME.encode(outcome);
    }

    @Test
    void anOutcomeKeyedByThisInstanceIsTheOneItsRequestWaitsFor() {
        CompletableFuture<Outcome> waiting = pending.expect("c1");
        Outcome outcome = applied("c1", 7);

        assertThat(pending.awaited(ME, record(outcome))).hasValue(outcome);
        pending.complete(outcome);

        assertThat(waiting).isCompletedWithValue(outcome);
        assertThat(pending.waiting()).isZero();
    }

    @Test
    void anOutcomeKeyedByAnotherInstanceIsNotTakenEvenForTheSameCommandId() {
        pending.expect("c1");

        assertThat(pending.awaited("node-other", record(applied("c1", 7)))).isEmpty();
    }

    @Test
    void anOutcomeNobodyWaitsForIsPassedOverWithoutDecoding() {
        pending.expect("c1");

        assertThat(pending.awaited(ME, record(applied("c2", 7)))).isEmpty();
        assertThat(new PendingOutcomes(ME).awaited(ME, new byte[] {1, 2, 3})).as("nobody waits at all").isEmpty();
    }

    @Test
    void anUnreadableRecordForAWaitingInstanceIsReportedNotSwallowed() {
        pending.expect("c1");

        assertThatThrownBy(() -> pending.awaited(ME, new byte[] {1, 2, 3})).isInstanceOf(LogFormatException.class);
    }

    @Test
    void eachRequestGetsItsOwnOutcomeInWhateverOrderTheyArrive() {
        CompletableFuture<Outcome> first = pending.expect("c1");
        CompletableFuture<Outcome> second = pending.expect("c2");

        pending.complete(applied("c2", 2));
        assertThat(first).isNotDone();
        pending.complete(applied("c1", 1));

        assertThat(first.join().offset()).isEqualTo(1);
        assertThat(second.join().offset()).isEqualTo(2);
    }

    @Test
    void aSecondCopyOfAnOutcomeFindsNobodyWaiting() {
        CompletableFuture<Outcome> waiting = pending.expect("c1");
        Outcome handedOver = applied("c1", 7);
        pending.complete(handedOver);

        assertThat(pending.awaits("c1")).isFalse();
        assertThat(pending.awaited(ME, record(handedOver))).isEmpty();
        pending.complete(new Outcome("c1", ME, new Outcome.Failure(ErrorCode.ENTITY_ALREADY_EXISTS, "x", null),
                List.of(), null, 0, 8));
        assertThat(waiting.join()).isEqualTo(handedOver);
    }

    @Test
    void aRequestThatStopsWaitingIsForgotten() {
        CompletableFuture<Outcome> waiting = pending.expect("c1").orTimeout(1, TimeUnit.MILLISECONDS);

        assertThatThrownBy(waiting::join).hasCauseInstanceOf(java.util.concurrent.TimeoutException.class);
        // join() may return before the timer thread has run the clean-up that follows the completion
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (pending.awaits("c1") && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(pending.awaits("c1")).isFalse();
        assertThat(pending.waiting()).isZero();
    }
}
