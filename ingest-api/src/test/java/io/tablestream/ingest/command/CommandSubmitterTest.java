package io.tablestream.ingest.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablestream.core.command.Command;
import io.tablestream.core.command.CommandHeader;
import io.tablestream.core.command.CommandKey;
import io.tablestream.core.command.EntityCommand;
import io.tablestream.core.command.EntityOperation;
import io.tablestream.core.command.Outcome;
import io.tablestream.core.command.SessionToken;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.model.TableName;
import io.tablestream.schemas.LogPartitioner;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/** What a submitted command becomes: its header, and the outcome or error the request is answered with. */
class CommandSubmitterTest {
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2024-05-06T07:08:09Z"), ZoneOffset.UTC);

    /** A command log that records what is appended and answers with the failure it is given (none: applied). */
    private static final class RecordingLog implements CommandLog {
        final List<Command> appended = new ArrayList<>();
        final List<Duration> timeouts = new ArrayList<>();
        Outcome.Failure failure;

        @Override
        public CompletableFuture<SessionToken.Position> append(Command command) {
            appended.add(command);
            return CompletableFuture.completedFuture(new SessionToken.Position(3, 41));
        }

        @Override
        public CompletableFuture<Outcome> appendAndAwait(Command command, Duration timeout) {
            appended.add(command);
            timeouts.add(timeout);
            return CompletableFuture.completedFuture(new Outcome(command.header().id(),
                    command.header().replyTo(), failure, List.of(), null, 3, 42));
        }

        @Override
        public String instanceId() {
            return "node-1-abc";
        }

        @Override
        public int partitionOf(CommandKey key) {
            return LogPartitioner.partitionOf(key, 4);
        }
    }

    private final RecordingLog log = new RecordingLog();
    private final CommandSubmitter submitter = new CommandSubmitter(log, CLOCK, Duration.ofSeconds(7));

    private static EntityCommand command(CommandHeader header) {
        return EntityCommand.single(header, 1, TableName.of("Orders"), "p",
                EntityOperation.of(EntityOperation.Type.INSERT, "r", null, Map.of()));
    }

    @Test
    void aSyncWritesHeaderNamesThisInstanceForItsOutcome() {
        CommandHeader awaited = submitter.header("acct", "SharedKey acct key1", true);
        CommandHeader async = submitter.header("acct", "SharedKey acct key1", false);

        assertThat(awaited.replyTo()).isEqualTo("node-1-abc");
        assertThat(async.replyTo()).isNull();
        assertThat(awaited.account()).isEqualTo("acct");
        assertThat(awaited.id()).isNotEqualTo(async.id());
    }

    @Test
    void anAppliedOutcomeIsTheAnswerAndTheWaitIsBoundedByTheTimeout() {
        Outcome outcome = submitter.submit(command(submitter.header("acct", "p", true))).join();

        assertThat(outcome.succeeded()).isTrue();
        assertThat(outcome.offset()).isEqualTo(42);
        assertThat(log.timeouts).containsExactly(Duration.ofSeconds(7));
    }

    @Test
    void aRejectedOutcomeFailsTheRequestWithItsError() {
        log.failure = new Outcome.Failure(ErrorCode.UPDATE_CONDITION_NOT_SATISFIED, "The ETag does not match.", null);

        assertThatThrownBy(() -> submitter.submit(command(submitter.header("acct", "p", true))).join())
                .isInstanceOf(CompletionException.class).cause()
                .isInstanceOfSatisfying(TableServiceException.class, e -> {
                    assertThat(e.errorCode()).isEqualTo(ErrorCode.UPDATE_CONDITION_NOT_SATISFIED);
                    assertThat(e.getMessage()).contains("The ETag does not match.");
                    assertThat(e.failedIndex()).isEmpty();
                });
    }

    @Test
    void aRejectedBatchOperationIsAttributedToItsIndex() {
        Outcome rejected = new Outcome("c", "r",
                new Outcome.Failure(ErrorCode.ENTITY_ALREADY_EXISTS, "exists", 2), List.of(), null, 0, 1);

        TableServiceException e = CommandSubmitter.failureOf(rejected);

        assertThat(e.errorCode()).isEqualTo(ErrorCode.ENTITY_ALREADY_EXISTS);
        assertThat(e.failedIndex()).hasValue(2);
    }

    @Test
    void anAsyncWriteEndsWhenTheLogHasTheCommand() {
        SessionToken.Position at = submitter.submitAsync(command(submitter.header("acct", "p", false))).join();

        assertThat(at).isEqualTo(new SessionToken.Position(3, 41));
        assertThat(log.appended).hasSize(1);
        assertThat(log.timeouts).isEmpty();
    }
}
