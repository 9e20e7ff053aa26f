package io.tablestream.bench.jmh;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tablestream.core.command.Command;
import io.tablestream.core.command.CommandHeader;
import io.tablestream.core.command.CommandKey;
import io.tablestream.core.command.EntityChange;
import io.tablestream.core.command.EntityCommand;
import io.tablestream.core.command.EntityOperation;
import io.tablestream.core.command.Outcome;
import io.tablestream.core.command.SessionToken;
import io.tablestream.core.model.TableName;
import io.tablestream.ingest.command.CommandLog;
import io.tablestream.ingest.command.MeteredCommandLog;
import io.tablestream.processor.StreamProcessorMetrics;
import io.tablestream.protocol.http.RequestMetrics;
import io.tablestream.protocol.request.Operation;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What counting costs per request and per command (the metrics served at {@code /_metrics}): the
 * request timer every answer updates, the command log's counting around a sync write (against a log
 * that answers at once, minus the same log uncounted), and what a task counts per decision. Two
 * threads, as requests and stream threads run concurrently. Compare with the CPU a request costs
 * (hundreds of microseconds: docs/performance.md).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Threads(2)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class MetricsBenchmark {
    private RequestMetrics requests;
    private StreamProcessorMetrics processor;
    private CommandLog bare;
    private CommandLog metered;
    private Command command;

    @Setup
    public void setUp() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        requests = new RequestMetrics(registry);
        processor = new StreamProcessorMetrics(8);
        processor.bindTo(registry);
        Outcome outcome = new Outcome("c", "i", null, List.of(new Outcome.OperationResult(null)), null, 0, 1);
        bare = new CommandLog() {
            @Override
            public CompletableFuture<SessionToken.Position> append(Command c) {
                return CompletableFuture.completedFuture(null);
            }

            @Override
            public CompletableFuture<Outcome> appendAndAwait(Command c, Duration timeout) {
                return CompletableFuture.completedFuture(outcome);
            }

            @Override
            public String instanceId() {
                return "i";
            }

            @Override
            public int partitionOf(CommandKey key) {
                return 0;
            }
        };
        metered = new MeteredCommandLog(bare, registry);
        command = EntityCommand.single(new CommandHeader("c", "acct", 0, "i", null), 1, TableName.of("Orders"), "p",
                EntityOperation.of(EntityOperation.Type.INSERT, "r", null, Map.of()));
    }

    @Benchmark
    public void requestTimed() {
        requests.record(Operation.GET_ENTITY, 200, 412_000);
    }

    @Benchmark
    public Object syncWriteUncounted() {
        return bare.appendAndAwait(command, Duration.ofSeconds(10));
    }

    @Benchmark
    public Object syncWriteCounted() {
        return metered.appendAndAwait(command, Duration.ofSeconds(10));
    }

    @Benchmark
    public void decisionCounted() {
        processor.decided(3, true, System.currentTimeMillis() - 5);
        processor.changed(EntityChange.Type.INSERTED);
    }
}
