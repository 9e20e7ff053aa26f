package io.tablestream.bench;

import io.tablestream.bench.measure.Percentiles;
import io.tablestream.bench.measure.ThreadCpu;
import io.tablestream.core.command.Command;
import io.tablestream.core.command.CommandHeader;
import io.tablestream.core.command.EntityCommand;
import io.tablestream.core.command.EntityOperation;
import io.tablestream.core.command.Outcome;
import io.tablestream.core.command.TableCommand;
import io.tablestream.core.model.EdmDouble;
import io.tablestream.core.model.EdmInt64;
import io.tablestream.core.model.EdmString;
import io.tablestream.core.model.EdmValue;
import io.tablestream.core.model.TableName;
import io.tablestream.ingest.kafka.KafkaCommandLog;
import io.tablestream.kafka.embedded.EmbeddedKafkaBroker;
import io.tablestream.processor.ApplyObserver;
import io.tablestream.processor.StreamProcessor;
import io.tablestream.processor.StreamProcessorConfig;
import io.tablestream.processor.Topics;
import io.tablestream.processor.WriteAnswers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Drives commands through the stream processor on the embedded broker, exactly-once on, through
 * the same command log client the HTTP API uses, and reports:
 * <ol>
 *   <li>the round trip of a lone command (append → applied → outcome back), sequentially, p50/p99;</li>
 *   <li>applied entities per second with batches of 100 entities, many batches in flight.</li>
 * </ol>
 * Usage: {@code bench/run-processor-bench.sh [loneCommands] [batches] [inFlight] [commitIntervalMs]};
 * {@code -Dbench.awaited=false} skips the awaited batches (the async ones alone, e.g. for a profile);
 * {@code -Dbench.asyncRounds=2} runs the async batches twice (the first warms the JIT up).
 */
public final class ProcessorBenchmark {
    private static final String ACCOUNT = "bench";
    /** When the processor decided each command (handed over at decision), for the latency breakdown. */
    private static final Map<String, Long> DECIDED = new java.util.concurrent.ConcurrentHashMap<>();

    private ProcessorBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int lone = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
        int batches = args.length > 1 ? Integer.parseInt(args[1]) : 2000;
        int inFlight = args.length > 2 ? Integer.parseInt(args[2]) : 64;
        int commitMs = args.length > 3 ? Integer.parseInt(args[3]) : 10;
        Path dir = Files.createTempDirectory("tablestream-bench");
        boolean atDecision = !"commit".equals(System.getProperty("bench.answers", "decision"));
        System.out.printf("machine: %d cores, Java %s; exactly_once_v2, commit.interval.ms=%d, %d partitions, %d stream threads, answers %s%n",
                Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"), commitMs,
                Integer.getInteger("bench.partitions", 8), Integer.getInteger("bench.threads", 2),
                atDecision ? "at decision (handed over in-process)" : "after commit");
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder(dir.resolve("kafka")).start()) {
            run(broker, dir, lone, batches, inFlight, commitMs, atDecision);
        } finally {
            BrokerRoundTrip.delete(dir); // the broker's log and the stores: about 440 MiB a run
        }
    }

    private static void run(EmbeddedKafkaBroker broker, Path dir, int lone, int batches, int inFlight, int commitMs,
                            boolean atDecision) throws Exception {
        StreamProcessorConfig config = new StreamProcessorConfig(broker.bootstrapServers(), "bench",
                Integer.getInteger("bench.partitions", 8), (short) 1, dir.resolve("state"), "node-1", null,
                Integer.getInteger("bench.threads", 2), 0, Duration.ofMillis(commitMs), overrides(), Clock.systemUTC());
        AtomicReference<KafkaCommandLog> localLog = new AtomicReference<>();
        WriteAnswers answers = atDecision ? WriteAnswers.atDecision(outcome -> {
            DECIDED.put(outcome.commandId(), System.nanoTime());
            KafkaCommandLog l = localLog.get();
            return l != null && l.handOff(outcome);
        }) : WriteAnswers.AFTER_COMMIT;
        try (StreamProcessor processor = StreamProcessor.start(config, Duration.ofSeconds(120), ApplyObserver.NONE,
                answers);
             KafkaCommandLog log = KafkaCommandLog.open(broker.bootstrapServers(),
                     processor.topics().commands().name(), processor.topics().outcomes().name(),
                     "bench-" + UUID.randomUUID(), Topics.MAX_COMMAND_BYTES, producerOverrides(), atDecision, null)) {
            localLog.set(log);
            long tableId = await(log, TableCommand.create(header(log), TableName.of("Telemetry"), null))
                    .table().tableId();
            // the create is answered at its decision; the tasks of the other partitions know the
            // table once the registry has read it back (as the HTTP API waits before a 201)
            processor.registryEvents().await(() -> processor.registry().byId(tableId).isPresent())
                    .get(60, TimeUnit.SECONDS);
            warmUp(log, tableId);
            loneCommands(log, tableId, lone);
            if (Boolean.parseBoolean(System.getProperty("bench.awaited", "true"))) {
                batchThroughput(log, tableId, batches, inFlight);
            }
            int rounds = Integer.getInteger("bench.asyncRounds", 1);
            for (int round = 0; round < rounds; round++) {
                asyncBatchThroughput(log, processor, tableId, batches, 1_000_000_000L + round * batches * 100L);
            }
        }
    }

    /** Command-log client settings given as {@code -Dbench.client.<name>=<value>}, for experiments. */
    private static Map<String, Object> producerOverrides() {
        Map<String, Object> o = new java.util.HashMap<>();
        System.getProperties().forEach((k, v) -> {
            if (k.toString().startsWith("bench.client.")) {
                o.put(k.toString().substring("bench.client.".length()), v.toString());
            }
        });
        return o;
    }

    /** Kafka Streams settings given as {@code -Dbench.streams.<name>=<value>}, for experiments. */
    private static Map<String, Object> overrides() {
        Map<String, Object> o = new java.util.HashMap<>();
        System.getProperties().forEach((k, v) -> {
            if (k.toString().startsWith("bench.streams.")) {
                o.put(k.toString().substring("bench.streams.".length()), v.toString());
            }
        });
        return o;
    }

    private static CommandHeader header(KafkaCommandLog log) {
        return new CommandHeader(UUID.randomUUID().toString(), ACCOUNT, System.currentTimeMillis(), log.instanceId(),
                "bench");
    }

    private static Outcome await(KafkaCommandLog log, Command command) throws Exception {
        Outcome o = log.appendAndAwait(command, Duration.ofSeconds(60)).get(70, TimeUnit.SECONDS);
        if (!o.succeeded()) {
            throw new IllegalStateException("command failed: " + o.failure());
        }
        return o;
    }

    private static Map<String, EdmValue> reading(long i) {
        Map<String, EdmValue> p = new LinkedHashMap<>();
        p.put("Device", EdmString.of("device-" + (i % 1000)));
        p.put("Seq", EdmInt64.of(i));
        p.put("Temperature", EdmDouble.of(20 + (i % 100) / 10.0));
        p.put("Note", EdmString.of("x".repeat(100)));
        return p;
    }

    private static void warmUp(KafkaCommandLog log, long tableId) throws Exception {
        for (int i = 0; i < 300; i++) {
            await(log, EntityCommand.single(header(log), tableId, TableName.of("Telemetry"), "warm",
                    EntityOperation.of(EntityOperation.Type.INSERT_OR_REPLACE, "r" + i, null, reading(i))));
        }
    }

    private static void loneCommands(KafkaCommandLog log, long tableId, int n) throws Exception {
        Percentiles latency = new Percentiles();
        Percentiles toDecision = new Percentiles();
        long start = System.nanoTime();
        for (int i = 0; i < n; i++) {
            EntityCommand c = EntityCommand.single(header(log), tableId, TableName.of("Telemetry"), "lone-" + (i % 64),
                    EntityOperation.of(EntityOperation.Type.INSERT, "r" + i, null, reading(i)));
            long t0 = System.nanoTime();
            await(log, c);
            long t1 = System.nanoTime();
            latency.add(t1 - t0);
            Long decided = DECIDED.remove(c.id());
            if (decided != null) {
                toDecision.add(decided - t0);
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf("lone command round trip: %d sequential commands, p50 %.2f ms, p99 %.2f ms, max %.2f ms (%.0f commands/s)%n",
                n, latency.millis(50), latency.millis(99), latency.millis(100), n / seconds);
        if (toDecision.count() > 0) {
            System.out.printf("  of which append -> decided: p50 %.2f ms, p99 %.2f ms%n", toDecision.millis(50),
                    toDecision.millis(99));
        }
        Percentiles acks = new Percentiles();
        for (int i = 0; i < Math.min(n, 500); i++) {
            EntityCommand c = EntityCommand.single(new CommandHeader(UUID.randomUUID().toString(), ACCOUNT,
                    System.currentTimeMillis(), null, "bench"), tableId, TableName.of("Telemetry"), "ack-" + (i % 64),
                    EntityOperation.of(EntityOperation.Type.INSERT_OR_REPLACE, "r" + i, null, reading(i)));
            long t0 = System.nanoTime();
            log.append(c).get(30, TimeUnit.SECONDS);
            acks.add(System.nanoTime() - t0);
        }
        System.out.printf("  append alone (producer send -> acks=all): p50 %.2f ms, p99 %.2f ms%n", acks.millis(50),
                acks.millis(99));
    }

    /**
     * Batches appended without anyone waiting for their outcomes (what a telemetry sink does with
     * {@code Prefer: respond-async}): the rate the processor applies them, measured by its applied
     * offsets reaching the last appended offset of every partition.
     */
    private static void asyncBatchThroughput(KafkaCommandLog log, StreamProcessor processor, long tableId, int batches,
                                             long firstSeq) throws Exception {
        java.util.Map<Integer, Long> last = new java.util.concurrent.ConcurrentHashMap<>();
        List<CompletableFuture<io.tablestream.core.command.SessionToken.Position>> appended = new ArrayList<>(batches);
        ThreadCpu cpuBefore = ThreadCpu.now();
        long start = System.nanoTime();
        for (int b = 0; b < batches; b++) {
            List<EntityOperation> ops = new ArrayList<>(100);
            for (int i = 0; i < 100; i++) {
                long seq = firstSeq + (long) b * 100 + i;
                ops.add(EntityOperation.of(EntityOperation.Type.INSERT, String.format("%010d", seq), null, reading(seq)));
            }
            CommandHeader header = new CommandHeader(UUID.randomUUID().toString(), ACCOUNT, System.currentTimeMillis(),
                    null, "bench");
            appended.add(log.append(EntityCommand.batch(header, tableId, TableName.of("Telemetry"),
                    "async-" + (b % 1000), ops)).whenComplete((p, e) -> {
                        if (p != null) {
                            last.merge(p.partition(), p.offset(), Math::max);
                        }
                    }));
        }
        CompletableFuture.allOf(appended.toArray(CompletableFuture[]::new)).get(600, TimeUnit.SECONDS);
        double appendSeconds = (System.nanoTime() - start) / 1e9;
        for (var e : last.entrySet()) {
            processor.appliedOffsets().await(e.getKey(), e.getValue()).get(600, TimeUnit.SECONDS);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        long entities = (long) batches * 100;
        System.out.printf("async batch ingest: %d batches of 100 (%d entities) appended in %.1f s, all applied after %.1f s: %.0f entities/s applied%n",
                batches, entities, appendSeconds, seconds, entities / seconds);
        ThreadCpu cpuAfter = ThreadCpu.now();
        System.out.println("  CPU per entity applied (broker, processor and the producing client in this process): "
                + cpuAfter.perOperationSince(cpuBefore, entities));
        System.out.println("  allocated per entity applied, by group of threads: "
                + cpuAfter.allocatedPerOperationSince(cpuBefore, entities));
    }

    private static void batchThroughput(KafkaCommandLog log, long tableId, int batches, int inFlight)
            throws Exception {
        Semaphore window = new Semaphore(inFlight);
        AtomicLong failures = new AtomicLong();
        Percentiles latency = new Percentiles();
        List<CompletableFuture<Outcome>> all = new ArrayList<>(batches);
        long start = System.nanoTime();
        for (int b = 0; b < batches; b++) {
            List<EntityOperation> ops = new ArrayList<>(100);
            for (int i = 0; i < 100; i++) {
                long seq = (long) b * 100 + i;
                ops.add(EntityOperation.of(EntityOperation.Type.INSERT, String.format("%08d", seq), null, reading(seq)));
            }
            EntityCommand c = EntityCommand.batch(header(log), tableId, TableName.of("Telemetry"),
                    "device-" + (b % 1000), ops);
            window.acquire();
            long t0 = System.nanoTime();
            all.add(log.appendAndAwait(c, Duration.ofSeconds(120)).whenComplete((o, e) -> {
                window.release();
                latency.add(System.nanoTime() - t0);
                if (e != null || !o.succeeded()) {
                    failures.incrementAndGet();
                }
            }));
        }
        CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).get(600, TimeUnit.SECONDS);
        double seconds = (System.nanoTime() - start) / 1e9;
        long entities = (long) batches * 100;
        System.out.printf("batch ingest: %d batches of 100 (%d entities, ~190 B each), %d in flight: %.1f s, %.0f entities/s; batch round trip p50 %.1f ms, p99 %.1f ms; failures %d%n",
                batches, entities, inFlight, seconds, entities / seconds, latency.millis(50), latency.millis(99),
                failures.get());
    }
}
