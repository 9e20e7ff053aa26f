package io.tablestream.ingest.kafka;

import io.tablestream.core.command.Outcome;
import io.tablestream.schemas.LogFormatException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the outcomes meant for this instance — its reply partition, where every outcome keyed by
 * its instance id lands — and completes the waiting request by command id (as do outcomes handed
 * over in-process, {@link #complete}). One thread, one
 * consumer, no poll loop per request. Starts at the end of the partition: outcomes of commands a
 * former incarnation sent are nobody's business now.
 */
final class OutcomeListener implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(OutcomeListener.class);
    /** How long a poll waits for outcomes: it returns at once when one arrives, so this only paces an idle loop. */
    private static final Duration POLL = Duration.ofMillis(500);
    /** Closing the consumer: it holds no state worth waiting for. */
    private static final Duration CLOSE = Duration.ofSeconds(2);

    private final KafkaConsumer<String, byte[]> consumer;
    private final PendingOutcomes pending;
    private final OutcomeDeadlines deadlines;
    private final Thread thread;
    private final Executor completions;
    private volatile boolean running = true;

    OutcomeListener(KafkaConsumer<String, byte[]> consumer, TopicPartition replyPartition, String instanceId,
                    Executor completions) {
        this.consumer = consumer;
        this.pending = new PendingOutcomes(instanceId);
        this.completions = completions;
        this.deadlines = new OutcomeDeadlines(completions, "outcome-deadlines");
        consumer.assign(List.of(replyPartition));
        consumer.seekToEnd(List.of(replyPartition));
        consumer.position(replyPartition); // resolve now, so no outcome of a command sent from here on is missed
        this.thread = new Thread(this::run, "outcome-listener");
        this.thread.setDaemon(true);
        this.thread.start();
    }

    /**
     * The outcome of {@code commandId}, failed with a {@link java.util.concurrent.TimeoutException} unless it
     * comes within {@code timeout}; register before appending the command.
     */
    CompletableFuture<Outcome> expect(String commandId, Duration timeout) {
        CompletableFuture<Outcome> outcome = pending.expect(commandId);
        deadlines.watch(outcome, timeout);
        return outcome;
    }

    int waiting() {
        return pending.waiting();
    }

    /** Whether a request waits for {@code commandId}. */
    boolean awaits(String commandId) {
        return pending.awaits(commandId);
    }

    /** Completes the request waiting for this outcome, if any (see {@link PendingOutcomes}). */
    void complete(Outcome outcome) {
        pending.complete(outcome);
    }

    /** The consumer, for its metrics only (they may be read from any thread; nothing else may be called). */
    KafkaConsumer<String, byte[]> consumerForMetrics() {
        return consumer;
    }

    private void run() {
        try {
            while (running) {
                for (ConsumerRecord<String, byte[]> record : consumer.poll(POLL)) {
                    Optional<Outcome> outcome;
                    try {
                        outcome = pending.awaited(record.key(), record.value());
                    } catch (LogFormatException e) {
                        LOG.error("Unreadable outcome at {}-{} offset {}", record.topic(), record.partition(),
                                record.offset(), e);
                        continue;
                    }
                    outcome.ifPresent(o -> completions.execute(() -> pending.complete(o)));
                }
            }
        } catch (WakeupException e) {
            if (running) {
                LOG.error("Outcome listener woken up unexpectedly", e);
            }
        } catch (RuntimeException e) {
            LOG.error("Outcome listener failed; sync writes will time out until restart", e);
        } finally {
            consumer.close(CLOSE);
        }
    }

    @Override
    public void close() {
        deadlines.close();
        running = false;
        consumer.wakeup();
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
