package io.tablestream.ingest.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tablestream.core.command.AccountCommand;
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
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** What the command log's meters count: appends by kind and mode, operations, and each wait by how it ended. */
class MeteredCommandLogTest {
    private static final CommandHeader HEADER = new CommandHeader("c1", "acct", 0, "node", "acct");

    /** A log answering every append and wait as {@code answer} says. */
    private static final class ScriptedLog implements CommandLog {
        Function<Command, CompletableFuture<Outcome>> answer;
        CompletableFuture<SessionToken.Position> appended = CompletableFuture.completedFuture(new SessionToken.Position(0, 1));

        @Override
        public CompletableFuture<SessionToken.Position> append(Command command) {
            return appended;
        }

        @Override
        public CompletableFuture<Outcome> appendAndAwait(Command command, Duration timeout) {
            return answer.apply(command);
        }

        @Override
        public CompletableFuture<Outcome> appendAndAwait(Command command, Duration timeout,
                                                         BiConsumer<SessionToken.Position, Throwable> whenAppended) {
            appended.whenComplete(whenAppended);
            return answer.apply(command);
        }

        @Override
        public String instanceId() {
            return "node";
        }

        @Override
        public int partitionOf(CommandKey key) {
            return LogPartitioner.partitionOf(key, 4);
        }
    }

    private final ScriptedLog log = new ScriptedLog();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final MeteredCommandLog metered = new MeteredCommandLog(log, registry);

    private static EntityCommand batchOf(int operations) {
        List<EntityOperation> ops = java.util.stream.IntStream.range(0, operations)
                .mapToObj(i -> EntityOperation.of(EntityOperation.Type.INSERT, "r" + i, null, Map.of())).toList();
        return EntityCommand.batch(HEADER, 1, TableName.of("Orders"), "p", ops);
    }

    private static Outcome outcome(Command command, Outcome.Failure failure) {
        return new Outcome(command.header().id(), "node", failure, List.of(), null, 0, 1);
    }

    private double appended(String kind, String mode) {
        return registry.get(MeteredCommandLog.APPENDED).tag("kind", kind).tag("mode", mode).counter().count();
    }

    private long waits(String result) {
        return registry.get(MeteredCommandLog.OUTCOME_WAIT).tag("result", result).timer().count();
    }

    @Test
    void countsAppendsByKindAndModeAndEveryOperationOfAChangeSet() {
        log.answer = c -> CompletableFuture.completedFuture(outcome(c, null));

        metered.appendAndAwait(batchOf(3), Duration.ofSeconds(1)).join();
        metered.append(batchOf(2)).join();
        metered.append(AccountCommand.setServiceProperties(HEADER, io.tablestream.core.model.ServicePropertiesUpdate.NONE)).join();

        assertThat(appended("entity", "sync")).isEqualTo(1);
        assertThat(appended("entity", "async")).isEqualTo(1);
        assertThat(appended("account", "async")).isEqualTo(1);
        assertThat(appended("table", "sync") + appended("table", "async") + appended("account", "sync")).isZero();
        assertThat(registry.get(MeteredCommandLog.ENTITY_OPERATIONS).counter().count()).isEqualTo(5);
    }

    @Test
    void timesEachWaitByHowItEnded() {
        log.answer = c -> CompletableFuture.completedFuture(outcome(c, null));
        metered.appendAndAwait(batchOf(1), Duration.ofSeconds(1)).join();
        log.answer = c -> CompletableFuture.completedFuture(
                outcome(c, new Outcome.Failure(ErrorCode.ENTITY_ALREADY_EXISTS, "exists", null)));
        metered.appendAndAwait(batchOf(1), Duration.ofSeconds(1)).join();
        log.answer = c -> CompletableFuture.failedFuture(TableServiceException.of(ErrorCode.SERVER_BUSY, "late"));
        metered.appendAndAwait(batchOf(1), Duration.ofSeconds(1)).exceptionally(e -> null).join();
        log.answer = c -> CompletableFuture.failedFuture(new IllegalStateException("broken"));
        metered.appendAndAwait(batchOf(1), Duration.ofSeconds(1)).exceptionally(e -> null).join();

        assertThat(waits("applied")).isEqualTo(1);
        assertThat(waits("rejected")).isEqualTo(1);
        assertThat(waits("busy")).isEqualTo(1);
        assertThat(waits("failed")).isEqualTo(1);
    }

    @Test
    void timesASyncWritesAppendAsAnAsyncOnes() {
        log.answer = c -> CompletableFuture.completedFuture(outcome(c, null));
        metered.appendAndAwait(batchOf(1), Duration.ofSeconds(1)).join();
        log.appended = CompletableFuture.failedFuture(TableServiceException.of(ErrorCode.SERVER_BUSY, "down"));
        log.answer = c -> CompletableFuture.failedFuture(TableServiceException.of(ErrorCode.SERVER_BUSY, "down"));
        metered.appendAndAwait(batchOf(1), Duration.ofSeconds(1)).exceptionally(e -> null).join();

        assertThat(registry.get(MeteredCommandLog.APPEND).tag("result", "ok").timer().count()).isEqualTo(1);
        assertThat(registry.get(MeteredCommandLog.APPEND).tag("result", "failed").timer().count()).isEqualTo(1);
    }

    @Test
    void timesAnAsyncAppendByWhetherTheLogTookIt() {
        metered.append(batchOf(1)).join();
        log.appended = CompletableFuture.failedFuture(TableServiceException.of(ErrorCode.SERVER_BUSY, "down"));
        metered.append(batchOf(1)).exceptionally(e -> null).join();

        assertThat(registry.get(MeteredCommandLog.APPEND).tag("result", "ok").timer().count()).isEqualTo(1);
        assertThat(registry.get(MeteredCommandLog.APPEND).tag("result", "failed").timer().count()).isEqualTo(1);
    }
}
