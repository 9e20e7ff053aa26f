package io.tablestream.ingest.command;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.tablestream.core.command.AccountCommand;
import io.tablestream.core.command.Command;
import io.tablestream.core.command.CommandKey;
import io.tablestream.core.command.EntityCommand;
import io.tablestream.core.command.Outcome;
import io.tablestream.core.command.SessionToken;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

/**
 * A {@link CommandLog} that counts and times what goes through it:
 * <ul>
 *   <li>{@value #APPENDED} (counter, Prometheus {@code tablestream_commands_appended_total}) by {@code kind}
 *       ({@code entity}, {@code table}, {@code account}) and {@code mode} ({@code sync}: the writer waits for the
 *       outcome; {@code async}: {@code Prefer: respond-async} and Kafka-style fire-and-forget);</li>
 *   <li>{@value #ENTITY_OPERATIONS} (counter): entity operations appended (a change set counts each);</li>
 *   <li>{@value #APPEND} (timer): a write's wait until the log acknowledged it (acks=all), sync or async,
 *       by {@code result} ({@code ok}, {@code failed});</li>
 *   <li>{@value #OUTCOME_WAIT} (timer): a sync write's wait from append to its outcome, by {@code result}
 *       ({@code applied}; {@code rejected}: the processor refused it (404, 409, 412, ...); {@code busy}: answered
 *       503, no outcome in time or the log out of reach; {@code failed}: anything else).</li>
 * </ul>
 */
public final class MeteredCommandLog implements CommandLog {
    public static final String APPENDED = "tablestream.commands.appended";
    public static final String ENTITY_OPERATIONS = "tablestream.entity.operations.appended";
    public static final String APPEND = "tablestream.command.append";
    public static final String OUTCOME_WAIT = "tablestream.command.outcome.wait";
    private static final String[] KINDS = {"entity", "table", "account"};

    private final CommandLog log;
    private final Counter[] syncAppends = new Counter[KINDS.length];
    private final Counter[] asyncAppends = new Counter[KINDS.length];
    private final Counter entityOperations;
    private final Timer appendOk;
    private final Timer appendFailed;
    private final Timer applied;
    private final Timer rejected;
    private final Timer busy;
    private final Timer failed;

    public MeteredCommandLog(CommandLog log, MeterRegistry registry) {
        this.log = log;
        for (int i = 0; i < KINDS.length; i++) {
            syncAppends[i] = appended(registry, KINDS[i], "sync");
            asyncAppends[i] = appended(registry, KINDS[i], "async");
        }
        this.entityOperations = Counter.builder(ENTITY_OPERATIONS)
                .description("Entity operations appended to the command log (each operation of a change set counts)")
                .register(registry);
        this.appendOk = timer(registry, APPEND, "ok", "Time until the command log acknowledged a command");
        this.appendFailed = timer(registry, APPEND, "failed", "Time until the command log acknowledged a command");
        String wait = "Time a sync write waited from append to its outcome";
        this.applied = timer(registry, OUTCOME_WAIT, "applied", wait);
        this.rejected = timer(registry, OUTCOME_WAIT, "rejected", wait);
        this.busy = timer(registry, OUTCOME_WAIT, "busy", wait);
        this.failed = timer(registry, OUTCOME_WAIT, "failed", wait);
    }

    private static Counter appended(MeterRegistry registry, String kind, String mode) {
        return Counter.builder(APPENDED).description("Commands appended to the command log")
                .tag("kind", kind).tag("mode", mode).register(registry);
    }

    private static Timer timer(MeterRegistry registry, String name, String result, String description) {
        return Timer.builder(name).description(description).tag("result", result).register(registry);
    }

    @Override
    public CompletableFuture<SessionToken.Position> append(Command command) {
        count(command, asyncAppends);
        return timeAppend(log.append(command));
    }

    @Override
    public CompletableFuture<Outcome> appendAndAwait(Command command, Duration timeout) {
        count(command, syncAppends);
        long begin = System.nanoTime();
        CompletableFuture<Outcome> outcome = log.appendAndAwait(command, timeout, (position, error) ->
                (error == null ? appendOk : appendFailed).record(System.nanoTime() - begin, TimeUnit.NANOSECONDS));
        outcome.whenComplete((o, error) -> {
            long nanos = System.nanoTime() - begin;
            Timer timer = error == null ? (o.succeeded() ? applied : rejected) : busy(error) ? busy : failed;
            timer.record(nanos, TimeUnit.NANOSECONDS);
        });
        return outcome;
    }

    private CompletableFuture<SessionToken.Position> timeAppend(CompletableFuture<SessionToken.Position> appended) {
        long begin = System.nanoTime();
        appended.whenComplete((p, error) ->
                (error == null ? appendOk : appendFailed).record(System.nanoTime() - begin, TimeUnit.NANOSECONDS));
        return appended;
    }

    private void count(Command command, Counter[] counters) {
        if (command instanceof EntityCommand entity) {
            counters[0].increment();
            entityOperations.increment(entity.operations().size());
        } else if (command instanceof AccountCommand) {
            counters[2].increment();
        } else {
            counters[1].increment();
        }
    }

    /** Whether a failed wait is answered 503 ServerBusy (no outcome in time, the log out of reach). */
    private static boolean busy(Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        return cause instanceof TableServiceException t && t.errorCode() == ErrorCode.SERVER_BUSY;
    }

    @Override
    public String instanceId() {
        return log.instanceId();
    }

    @Override
    public int partitionOf(CommandKey key) {
        return log.partitionOf(key);
    }
}
