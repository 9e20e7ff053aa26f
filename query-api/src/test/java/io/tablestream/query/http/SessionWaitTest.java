package io.tablestream.query.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.processor.store.AppliedOffsets;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class SessionWaitTest {
    private static final Set<Integer> LOCAL = Set.of(0, 1);

    private final AppliedOffsets applied = new AppliedOffsets();

    private SessionWait withEnds(Map<Integer, Long> ends, Duration timeout) {
        return new SessionWait(applied, (partition, offset) -> CompletableFuture.completedFuture(ends.get(partition)),
                timeout);
    }

    @Test
    void refusesAnOffsetAtOrPastTheEndOfTheLogAtOnce() {
        SessionWait wait = withEnds(Map.of(0, 10L, 1, 3L), Duration.ofMinutes(1));

        for (String token : new String[] {"0:10", "1:3", "0:999999999", "0:2,1:3"}) {
            CompletableFuture<Void> read = wait.until(token, 2, LOCAL);

            assertThat(read).as(token).isCompletedExceptionally();
            assertThatThrownBy(read::get).as(token).cause().isInstanceOfSatisfying(TableServiceException.class,
                    e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_HEADER_VALUE));
        }
    }

    @Test
    void waitsForAnOffsetInsideTheLogUntilItIsApplied() {
        SessionWait wait = withEnds(Map.of(0, 10L, 1, 3L), Duration.ofMinutes(1));

        CompletableFuture<Void> read = wait.until("0:9,1:2", 2, LOCAL);
        applied.advance(0, 9);

        assertThat(read).isNotDone();
        applied.advance(1, 2);
        assertThat(read).isCompleted();
    }

    @Test
    void waitsWhenTheEndCannotBeLearnedAndEndsInServerBusyAfterTheBound() throws Exception {
        SessionWait wait = new SessionWait(applied, CommandLogEnds.UNKNOWN, Duration.ofMillis(50));

        CompletableFuture<Void> read = wait.until("0:999999999", 2, LOCAL);

        assertThatThrownBy(() -> read.get(5, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class).cause()
                .isInstanceOfSatisfying(TableServiceException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.SERVER_BUSY));
    }

    @Test
    void refusesAPartitionTheLogDoesNotHave() {
        SessionWait wait = withEnds(Map.of(0, 10L), Duration.ofMinutes(1));

        assertThatThrownBy(() -> wait.until("2:0", 2, LOCAL)).isInstanceOfSatisfying(TableServiceException.class,
                e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_HEADER_VALUE));
    }

    @Test
    void checksPositionsOfPartitionsHostedElsewhereButDoesNotWaitForThem() {
        SessionWait wait = withEnds(Map.of(0, 10L, 1, 3L), Duration.ofMinutes(1));

        assertThat(wait.until("1:2", 2, Set.of(0))).isCompleted();
        assertThat(wait.until("1:3", 2, Set.of(0))).isCompletedExceptionally();
    }
}
