package io.tablestream.ingest.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.tablestream.core.command.CommandHeader;
import io.tablestream.core.command.EntityCommand;
import io.tablestream.core.command.EntityOperation;
import io.tablestream.core.command.SessionToken;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.model.TableName;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.errors.NotLeaderOrFollowerException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;

/** What a client is told when the log fails a write, without a broker: each answer says whether the write may be applied. */
class KafkaCommandLogTest {
    private static final EntityCommand COMMAND = EntityCommand.single(
            new CommandHeader("c1", "acct", 0, "node", "acct"), 1, TableName.of("Orders"), "p",
            EntityOperation.of(EntityOperation.Type.INSERT, "r", null, Map.of()));

    @Test
    void aCommandTooLargeForTheLogIsRequestBodyTooLargeAndNotApplied() {
        TableServiceException e = KafkaCommandLog.classify(COMMAND, new RecordTooLargeException("big"), true);

        assertThat(e.errorCode()).isEqualTo(ErrorCode.REQUEST_BODY_TOO_LARGE);
        assertThat(e.getMessage()).contains("not applied");
    }

    @Test
    void aRetriableFailureIsBusyAndSaysWhetherTheProducerHadTheRecord() {
        TableServiceException queued = KafkaCommandLog.classify(COMMAND, new NotLeaderOrFollowerException("x"), true);
        TableServiceException never = KafkaCommandLog.classify(COMMAND, new TimeoutException("no metadata"), false);

        assertThat(queued.errorCode()).isEqualTo(ErrorCode.SERVER_BUSY);
        assertThat(queued.getMessage()).contains("may still be appended and applied");
        assertThat(never.errorCode()).isEqualTo(ErrorCode.SERVER_BUSY);
        assertThat(never.getMessage()).contains("was not applied").doesNotContain("may still");
    }

    @Test
    void aTopicReportedWithoutPartitionsYetFailsTheAppendAsBusyNotApplied() {
        assertThat(KafkaCommandLog.partitionCount(List.of(new PartitionInfo("t", 0, null, null, null)), "t")).isOne();
        KafkaException noPartitions = catchThrowableOfType(KafkaException.class,
                () -> KafkaCommandLog.partitionCount(List.of(), "t"));

        TableServiceException e = KafkaCommandLog.classify(COMMAND, noPartitions, false);

        assertThat(e.errorCode()).isEqualTo(ErrorCode.SERVER_BUSY);
        assertThat(e.getMessage()).contains("was not applied");
    }

    @Test
    void anyOtherFailureIsInternalAndNotApplied() {
        TableServiceException e = KafkaCommandLog.classify(COMMAND, new KafkaException("refused"), true);

        assertThat(e.errorCode()).isEqualTo(ErrorCode.INTERNAL_ERROR);
        assertThat(e.getMessage()).contains("not applied");
    }

    @Test
    void noOutcomeInTimeSaysWhatIsKnownAboutTheAppend() {
        Duration timeout = Duration.ofMillis(250);
        TableServiceException onTheLog = KafkaCommandLog.noOutcome(
                CompletableFuture.completedFuture(new SessionToken.Position(3, 41)), timeout);
        TableServiceException unconfirmed = KafkaCommandLog.noOutcome(new CompletableFuture<>(), timeout);
        TableServiceException refusal = TableServiceException.of(ErrorCode.SERVER_BUSY, "The command log is not reachable.");
        TableServiceException refused = KafkaCommandLog.noOutcome(CompletableFuture.failedFuture(refusal), timeout);

        assertThat(onTheLog.errorCode()).isEqualTo(ErrorCode.SERVER_BUSY);
        assertThat(onTheLog.getMessage()).contains("x-ms-session-token 3:41", "within 250 ms", "may still be applied");
        assertThat(unconfirmed.getMessage()).contains("had not confirmed", "may still be appended");
        assertThat(refused).isSameAs(refusal);
    }
}
