package io.tablestream.processor.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class HangingTransactionsTest {
    private static final TopicPartition CHANGELOG = new TopicPartition("app-entities-changelog", 3);
    private static final HangingTransactions.OpenTransaction OPEN =
            new HangingTransactions.OpenTransaction(CHANGELOG, 7, 60, 1234, 4);

    private static TransactionDescription coordinatorSays(TransactionState state, int epoch, TopicPartition... partitions) {
        return new TransactionDescription(1, state, 7, epoch, 10_000, OptionalLong.of(0), Set.of(partitions));
    }

    @Test
    void anOngoingTransactionOfTheSameEpochThatCoversThePartitionIsNotHanging() {
        assertThat(HangingTransactions.covers(coordinatorSays(TransactionState.ONGOING, 60, CHANGELOG), OPEN)).isTrue();
    }

    @Test
    void anOngoingTransactionOfAnotherEpochOrWithoutThePartitionLeavesItHanging() {
        assertThat(HangingTransactions.covers(coordinatorSays(TransactionState.ONGOING, 61, CHANGELOG), OPEN)).isFalse();
        assertThat(HangingTransactions.covers(coordinatorSays(TransactionState.ONGOING, 60,
                new TopicPartition("other", 0)), OPEN)).isFalse();
    }

    @Test
    void aCompletedTransactionWhoseMarkerNeverReachedThePartitionLeavesItHanging() {
        assertThat(HangingTransactions.covers(coordinatorSays(TransactionState.COMPLETE_COMMIT, 61), OPEN)).isFalse();
        assertThat(HangingTransactions.covers(coordinatorSays(TransactionState.COMPLETE_ABORT, 61), OPEN)).isFalse();
        assertThat(HangingTransactions.covers(coordinatorSays(TransactionState.EMPTY, 61), OPEN)).isFalse();
    }

    @Test
    void markersBeingWrittenOrAStateNotUnderstoodAreLeftAlone() {
        assertThat(HangingTransactions.covers(coordinatorSays(TransactionState.PREPARE_COMMIT, 61, CHANGELOG), OPEN)).isTrue();
        assertThat(HangingTransactions.covers(coordinatorSays(TransactionState.PREPARE_ABORT, 61, CHANGELOG), OPEN)).isTrue();
        assertThat(HangingTransactions.covers(coordinatorSays(TransactionState.UNKNOWN, 60), OPEN)).isTrue();
    }

    @Test
    void completesAsTheCoordinatorDecidedOnlyWhileItStillKnows() {
        assertThat(HangingTransactions.decision(coordinatorSays(TransactionState.COMPLETE_COMMIT, 61), OPEN))
                .as("transactions v2 end with the epoch bumped").isEqualTo(HangingTransactions.Decision.COMMIT);
        assertThat(HangingTransactions.decision(coordinatorSays(TransactionState.COMPLETE_COMMIT, 60), OPEN))
                .isEqualTo(HangingTransactions.Decision.COMMIT);
        assertThat(HangingTransactions.decision(coordinatorSays(TransactionState.COMPLETE_ABORT, 61), OPEN))
                .isEqualTo(HangingTransactions.Decision.ABORT);
        assertThat(HangingTransactions.decision(coordinatorSays(TransactionState.COMPLETE_COMMIT, 63), OPEN))
                .as("the producer has moved on").isEqualTo(HangingTransactions.Decision.UNKNOWN);
        assertThat(HangingTransactions.decision(coordinatorSays(TransactionState.EMPTY, 61), OPEN))
                .isEqualTo(HangingTransactions.Decision.UNKNOWN);
        assertThat(HangingTransactions.decision(null, OPEN)).isEqualTo(HangingTransactions.Decision.UNKNOWN);
    }

    @Test
    void anUnknownTransactionIsAbortedOnlyWhenSeenSoLongEnoughWithTheWholeTransactionLogLed() {
        HangingTransactions check = new HangingTransactions(null, Duration.ofSeconds(1), true, Duration.ofSeconds(20));
        long first = 1_000_000_000L;
        assertThat(check.mayAbortUnknown(OPEN, first, true)).as("first seen: its coordinator may be moving").isFalse();
        assertThat(check.mayAbortUnknown(OPEN, first + Duration.ofSeconds(19).toNanos(), true)).isFalse();
        assertThat(check.mayAbortUnknown(OPEN, first + Duration.ofSeconds(20).toNanos(), false))
                .as("a partition of the transaction log without a leader: the listing may lack it").isFalse();
        assertThat(check.mayAbortUnknown(OPEN, first + Duration.ofSeconds(20).toNanos(), true)).isTrue();
        HangingTransactions.OpenTransaction other = new HangingTransactions.OpenTransaction(CHANGELOG, 7, 61, 1300, 4);
        assertThat(check.mayAbortUnknown(other, first + Duration.ofSeconds(20).toNanos(), true))
                .as("another transaction has its own first sight").isFalse();
    }
}
