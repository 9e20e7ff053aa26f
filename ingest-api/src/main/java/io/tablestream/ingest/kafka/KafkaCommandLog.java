package io.tablestream.ingest.kafka;

import io.tablestream.core.command.Command;
import io.tablestream.core.command.CommandKey;
import io.tablestream.core.command.Outcome;
import io.tablestream.core.command.SessionToken;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.ingest.command.CommandLog;
import io.tablestream.schemas.LogCodecs;
import io.tablestream.schemas.LogPartitioner;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.LeaderNotAvailableException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The command log on Kafka: an idempotent producer (acks=all) putting every command, keyed by its
 * {@link CommandKey}, on the partition {@link LogPartitioner} names — the one whose task owns the
 * key; and an {@link OutcomeListener} on this instance's reply partition.
 *
 * <p>When writes are answered at decision (the default), an outcome reaches its waiter by the
 * first of two ways: handed over in-process by the processor task that decided it
 * ({@link #handOff}, when that task runs in this process — the single-node case), or read from the
 * outcomes topic without waiting for the task's transaction to commit ({@code read_uncommitted}).
 * Either is safe because a task decides the same outcome again if its transaction is replayed. An
 * outcome a task of this process decided for another instance's waiter is put on the outcomes topic
 * by this log's own producer, outside the task's transaction ({@link #handOff}): a transaction
 * aborted after the decision (a broker that died under it) would otherwise take the answer with it,
 * and the waiter would wait for the replay, after the task moved and restored.
 * When writes are answered after commit, outcomes are read committed only.
 */
public final class KafkaCommandLog implements CommandLog, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(KafkaCommandLog.class);
    /** How long opening the log waits for the outcomes topic's partitions to be known. */
    static final Duration TOPIC_METADATA_PATIENCE = Duration.ofSeconds(10);
    /** How often the partitions are asked for meanwhile: a metadata request is cheap, and start-up waits on it. */
    private static final Duration TOPIC_METADATA_RETRY = Duration.ofMillis(100);
    /** Closing the producer: long enough to deliver what is in flight (answered writes are in the log already). */
    private static final Duration CLOSE = Duration.ofSeconds(5);

    private final String commandsTopic;
    private final String outcomesTopic;
    private final int outcomePartitions;
    /** Whether outcomes are read uncommitted, so this log may publish others' outside a transaction. */
    private final boolean answersAtDecision;
    /** Partitions of the commands topic, learned from the producer's metadata on first use. */
    private volatile int commandPartitions;
    private final String instanceId;
    private final KafkaProducer<String, byte[]> producer;
    private final OutcomeListener outcomes;
    /** Where waiting requests are completed: never on a stream thread nor the outcome listener's. */
    private final Executor completions;
    /** The completions executor when this log made its own, to stop with it. */
    private final ExecutorService ownCompletions;

    private KafkaCommandLog(String commandsTopic, String outcomesTopic, int outcomePartitions, boolean answersAtDecision,
                            String instanceId, KafkaProducer<String, byte[]> producer, OutcomeListener outcomes,
                            Executor completions, ExecutorService ownCompletions) {
        this.commandsTopic = commandsTopic;
        this.outcomesTopic = outcomesTopic;
        this.outcomePartitions = outcomePartitions;
        this.answersAtDecision = answersAtDecision;
        this.instanceId = instanceId;
        this.producer = producer;
        this.outcomes = outcomes;
        this.completions = completions;
        this.ownCompletions = ownCompletions;
    }

    /**
     * Connects to the log, for writes answered at decision.
     *
     * @param maxCommandBytes the largest command record the topic accepts
     * @param overrides further producer/consumer settings (applied to both)
     */
    public static KafkaCommandLog open(String bootstrapServers, String commandsTopic, String outcomesTopic,
                                       String instanceId, int maxCommandBytes, Map<String, Object> overrides) {
        return open(bootstrapServers, commandsTopic, outcomesTopic, instanceId, maxCommandBytes, overrides, true, null);
    }

    /**
     * Connects to the log.
     *
     * @param maxCommandBytes the largest command record the topic accepts
     * @param overrides further producer/consumer settings (applied to both)
     * @param answersAtDecision whether the processor answers writes at decision (outcomes are then
     *     read uncommitted) or after commit (read committed); the processor must say the same
     * @param completions where the futures of waiting requests are completed (the threads that write
     *     answers); null for a thread of the log's own
     */
    public static KafkaCommandLog open(String bootstrapServers, String commandsTopic, String outcomesTopic,
                                       String instanceId, int maxCommandBytes, Map<String, Object> overrides,
                                       boolean answersAtDecision, Executor completions) {
        Objects.requireNonNull(instanceId, "instanceId");
        Map<String, Object> p = new HashMap<>();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        // No linger: a lone write goes out at once; under load, records still gather while the
        // previous requests are in flight.
        p.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "none");
        p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, maxCommandBytes);
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 30_000);
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "tablestream-ingest-" + instanceId);
        p.putAll(overrides);
        KafkaProducer<String, byte[]> producer = new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());

        Map<String, Object> c = new HashMap<>();
        c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, answersAtDecision ? "read_uncommitted" : "read_committed");
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        // A fetch waiting at the broker is answered as soon as an outcome is appended, so its wait only
        // paces an idle listener: Kafka's 500 ms, as long as the listener's poll (100 ms had it fetch ten
        // times a second, each fetch a few thread wake-ups in the broker).
        c.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 500);
        c.put(ConsumerConfig.CLIENT_ID_CONFIG, "tablestream-outcomes-" + instanceId);
        c.putAll(overrides);
        KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(c, new StringDeserializer(), new ByteArrayDeserializer());
        int outcomePartitions = partitionsOf(consumer, outcomesTopic);
        TopicPartition reply = new TopicPartition(outcomesTopic, LogPartitioner.partitionOf(instanceId, outcomePartitions));
        ExecutorService own = completions != null ? null : Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "outcome-completions");
            t.setDaemon(true);
            return t;
        });
        Executor executor = completions != null ? completions : own;
        return new KafkaCommandLog(commandsTopic, outcomesTopic, outcomePartitions, answersAtDecision, instanceId, producer,
                new OutcomeListener(consumer, reply, instanceId, executor), executor, own);
    }

    /**
     * How many partitions {@code topic} has, once the cluster's metadata names any: a topic created a
     * moment ago may first be reported without them. Waits at most {@link #TOPIC_METADATA_PATIENCE} (this
     * is start-up, never a request).
     */
    static int partitionsOf(KafkaConsumer<?, ?> consumer, String topic) {
        long deadline = System.nanoTime() + TOPIC_METADATA_PATIENCE.toNanos();
        while (true) {
            List<PartitionInfo> partitions = consumer.partitionsFor(topic);
            if (partitions != null && !partitions.isEmpty()) {
                return partitions.size();
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("The cluster reports no partitions of the topic " + topic
                        + " within " + TOPIC_METADATA_PATIENCE.toSeconds() + " s: does it exist?");
            }
            try {
                Thread.sleep(TOPIC_METADATA_RETRY.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while waiting for the topic " + topic, e);
            }
        }
    }

    @Override
    public String instanceId() {
        return instanceId;
    }

    @Override
    public int partitionOf(CommandKey key) {
        return LogPartitioner.partitionOf(key, commandPartitions());
    }

    @Override
    public CompletableFuture<SessionToken.Position> append(Command command) {
        CompletableFuture<SessionToken.Position> result = new CompletableFuture<>();
        CommandKey key = CommandKey.of(command);
        Thread sender = Thread.currentThread();
        try {
            ProducerRecord<String, byte[]> record = new ProducerRecord<>(commandsTopic,
                    partitionOf(key), key.value(), LogCodecs.COMMAND.encode(command));
            producer.send(record, (metadata, error) -> {
                if (error != null) {
                    // The producer fails a record it never queued (no metadata in time, ...) within send(),
                    // on the caller's thread; a queued record only ever fails on its own I/O thread.
                    result.completeExceptionally(classify(command, error, Thread.currentThread() != sender));
                } else {
                    result.complete(new SessionToken.Position(metadata.partition(), metadata.offset()));
                }
            });
        } catch (KafkaException e) {
            result.completeExceptionally(classify(command, e, false));
        }
        return result;
    }

    /**
     * The commands topic's partition count, asked of the producer's metadata until it names some (it
     * blocks, like a send, at most {@code max.block.ms}, and fails as a send does when the topic is
     * unknown).
     */
    private int commandPartitions() {
        int known = commandPartitions;
        if (known == 0) {
            known = partitionCount(producer.partitionsFor(commandsTopic), commandsTopic);
            commandPartitions = known;
        }
        return known;
    }

    /**
     * How many partitions the metadata names. A topic created a moment ago may be reported without
     * any: that is a retriable failure of this append (503, not applied), and the next append asks again.
     */
    static int partitionCount(List<PartitionInfo> partitions, String topic) {
        if (partitions == null || partitions.isEmpty()) {
            throw new LeaderNotAvailableException("The cluster reports no partitions of " + topic + " yet.");
        }
        return partitions.size();
    }

    @Override
    public CompletableFuture<Outcome> appendAndAwait(Command command, Duration timeout) {
        return appendAndAwait(command, timeout, (position, error) -> { });
    }

    @Override
    public CompletableFuture<Outcome> appendAndAwait(Command command, Duration timeout,
                                                     BiConsumer<SessionToken.Position, Throwable> whenAppended) {
        if (!instanceId.equals(command.header().replyTo())) {
            throw new IllegalArgumentException("a command awaited here must name this instance in replyTo");
        }
        CompletableFuture<Outcome> outcome = outcomes.expect(command.id(), timeout);
        CompletableFuture<SessionToken.Position> appended = append(command);
        appended.whenComplete((position, error) -> {
            whenAppended.accept(position, error);
            if (error != null) {
                outcome.completeExceptionally(error);
            }
        });
        return outcome.exceptionallyCompose(e -> {
            if (e instanceof TimeoutException) {
                return CompletableFuture.failedFuture(noOutcome(appended, timeout));
            }
            return CompletableFuture.failedFuture(e);
        });
    }

    /**
     * An outcome a processor task in this process just decided, handed over on its stream thread:
     * completes the request of this instance waiting for it, if any; or, when writes are answered at
     * decision and another instance waits for it, puts it on that instance's reply partition with
     * this log's producer, outside the task's transaction, so that the answer does not depend on that
     * transaction committing. Both on another thread (never blocks the caller).
     *
     * @return whether the outcome reaches its waiter from here (the task need not write it)
     */
    public boolean handOff(Outcome outcome) {
        if (instanceId.equals(outcome.replyTo())) {
            if (outcomes.awaits(outcome.commandId())) {
                completions.execute(() -> outcomes.complete(outcome));
                return true;
            }
            return false;
        }
        if (answersAtDecision && outcome.replyTo() != null) {
            completions.execute(() -> publish(outcome));
            return true;
        }
        return false;
    }

    /** Puts another instance's outcome on its reply partition (a failure costs that write its answer: a 503). */
    private void publish(Outcome outcome) {
        try {
            producer.send(new ProducerRecord<>(outcomesTopic, LogPartitioner.partitionOf(outcome.replyTo(), outcomePartitions),
                    outcome.replyTo(), LogCodecs.OUTCOME.encode(outcome)), (metadata, error) -> {
                        if (error != null) {
                            notPublished(outcome, error);
                        }
                    });
        } catch (KafkaException e) {
            notPublished(outcome, e);
        } catch (IllegalStateException e) {
            LOG.info("The outcome of command {} for {} was not sent: this instance is stopping", outcome.commandId(),
                    outcome.replyTo());
        }
    }

    private static void notPublished(Outcome outcome, Exception error) {
        LOG.warn("The outcome of command {} for {} could not be put on the outcomes topic: {}", outcome.commandId(),
                outcome.replyTo(), error.toString());
    }

    /**
     * The 503 of a sync write whose outcome did not arrive in time, saying exactly what is known:
     * the log has it (it may still be applied), the log has not confirmed it yet (it may still be
     * appended, then applied), or the log did not take it (not applied).
     */
    static TableServiceException noOutcome(CompletableFuture<SessionToken.Position> appended,
                                                   Duration timeout) {
        String retry = " Read the entity before retrying: a retried insert may then fail with 409 EntityAlreadyExists,"
                + " a retried conditional write with 412.";
        if (appended.isDone() && !appended.isCompletedExceptionally()) {
            SessionToken.Position position = appended.join();
            return TableServiceException.of(ErrorCode.SERVER_BUSY, "The write is on the command log (x-ms-session-token "
                    + SessionToken.of(position.partition(), position.offset()) + ") but its outcome did not arrive within "
                    + timeout.toMillis() + " ms: it may still be applied." + retry);
        }
        if (appended.isDone()) {
            return appended.handle((p, error) -> error instanceof TableServiceException t ? t
                    : TableServiceException.of(ErrorCode.SERVER_BUSY, "The write was not applied.", error)).join();
        }
        return TableServiceException.of(ErrorCode.SERVER_BUSY, "The command log had not confirmed the write within "
                + timeout.toMillis() + " ms: it may still be appended and applied." + retry);
    }

    /**
     * Every producer failure as what the client is told: retriable ones are "busy", the rest
     * internal; each says whether the write may still be applied — not when the producer never took
     * the record ({@code sent} false) or the broker refused it, perhaps when the producer gave up
     * waiting for the broker's acknowledgement.
     */
    static TableServiceException classify(Command command, Throwable error, boolean sent) {
        if (error instanceof RecordTooLargeException) {
            return TableServiceException.of(ErrorCode.REQUEST_BODY_TOO_LARGE,
                    "The write is larger than the command log accepts; it was not applied.", error);
        }
        if (error instanceof RetriableException || error instanceof org.apache.kafka.common.errors.TimeoutException) {
            LOG.warn("Command {} could not be appended in time: {}", command.id(), error.toString());
            return TableServiceException.of(ErrorCode.SERVER_BUSY, sent
                    ? "The command log did not confirm the write in time: it may still be appended and applied. Read the"
                            + " entity before retrying: a retried insert may then fail with 409 EntityAlreadyExists."
                    : "The command log is not reachable right now; the write was not applied.", error);
        }
        LOG.error("Command {} could not be appended", command.id(), error);
        return TableServiceException.of(ErrorCode.INTERNAL_ERROR, "The command log refused the write; it was not applied.",
                error);
    }

    /** This log's Kafka clients' own metrics (the producer's and the outcome consumer's), each as it is now. */
    public List<Supplier<Map<MetricName, ? extends Metric>>> clientMetrics() {
        KafkaConsumer<String, byte[]> consumer = outcomes.consumerForMetrics();
        return List.of(producer::metrics, consumer::metrics);
    }

    @Override
    public void close() {
        producer.close(CLOSE);
        outcomes.close();
        if (ownCompletions != null) {
            ownCompletions.shutdown();
        }
    }
}
