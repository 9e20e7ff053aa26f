package io.tablestream.query.feed;

import io.tablestream.core.command.ChangeEvent;
import io.tablestream.core.command.EntityChange;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.schemas.LogCodecs;
import io.tablestream.schemas.LogFormatException;
import io.tablestream.schemas.LogPartitioner;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Set;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the changes topic for the HTTP change feed, on threads of its own: a fixed number of
 * readers, each with its own Kafka consumer ({@code read_committed}, no group: it seeks where a
 * cursor says), and one {@link FeedTail} that tells waiting readers when a partition has grown.
 * Every read is bounded — at most a number of events and of records examined, within a time — so
 * no request costs unbounded work, and none runs on a request or stream thread.
 */
public final class ChangeFeed implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ChangeFeed.class);
    /** Longest one read polls before it answers with what it has. */
    private static final Duration READ_TIME = Duration.ofSeconds(2);
    /** One poll within a read: short, so a read checks its budget and deadline often. */
    private static final Duration POLL = Duration.ofMillis(100);
    /** A metadata or offsets call to the brokers: long enough for a broker that is electing a leader. */
    private static final Duration KAFKA_CALL = Duration.ofSeconds(10);
    /** Closing a reader's consumer: it holds no state worth waiting for, so a stop is never held up long. */
    private static final Duration CLOSE = Duration.ofSeconds(2);

    private final String topic;
    private final int partitions;
    private final BlockingQueue<KafkaConsumer<byte[], byte[]>> idle;
    private final List<KafkaConsumer<byte[], byte[]>> consumers = new ArrayList<>();
    private final ExecutorService readers;
    private final FeedTail tail;

    private ChangeFeed(String topic, Map<String, Object> consumerConfig, int readerCount) {
        this.topic = topic;
        this.idle = new ArrayBlockingQueue<>(readerCount);
        for (int i = 0; i < readerCount; i++) {
            KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(withClientId(consumerConfig, "tablestream-feed-" + i));
            consumers.add(c);
            idle.add(c);
        }
        this.partitions = consumers.get(0).partitionsFor(topic, KAFKA_CALL).size();
        AtomicInteger n = new AtomicInteger();
        this.readers = Executors.newFixedThreadPool(readerCount, r -> {
            Thread t = new Thread(r, "change-feed-reader-" + n.getAndIncrement());
            t.setDaemon(true);
            return t;
        });
        Map<String, Object> tailConfig = withClientId(consumerConfig, "tablestream-feed-tail");
        tailConfig.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 64 * 1024);
        // The tail holds every partition assigned (paused until someone waits on it), and a poll resolves
        // a position for each of them: with no reset policy, a partition never waited on yet, or an
        // offset beyond the end, failed every poll and woke every waiter at once. The tail only tells
        // waiters that something may have arrived; the readers read from the cursor's own offsets.
        tailConfig.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        this.tail = new FeedTail(new KafkaConsumer<>(tailConfig), topic, partitions);
    }

    /**
     * Opens the reader of {@code topic} on the cluster at {@code bootstrapServers}, with
     * {@code readerCount} reader threads; {@code clientSettings} are passed to every consumer as
     * they are (security settings, for instance).
     */
    public static ChangeFeed open(String bootstrapServers, String topic, Map<String, Object> clientSettings,
                                  int readerCount) {
        if (readerCount < 1) {
            throw new IllegalArgumentException("the change feed needs at least one reader");
        }
        Map<String, Object> config = new HashMap<>(clientSettings);
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
        config.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 100);
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        return new ChangeFeed(topic, config, readerCount);
    }

    private static Map<String, Object> withClientId(Map<String, Object> config, String clientId) {
        Map<String, Object> c = new HashMap<>(config);
        c.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        return c;
    }

    /** The number of partitions of the changes topic. */
    public int partitions() {
        return partitions;
    }

    /** The partition of the changes topic holding the changes of records keyed {@code key}. */
    public int partitionOf(String key) {
        return LogPartitioner.partitionOf(key, partitions);
    }

    /** A cursor at {@code start} for {@code partitionsToRead} of the feed of table {@code tableId}. */
    public CompletableFuture<FeedCursor> cursorAt(long tableId, List<Integer> partitionsToRead, FeedStart start) {
        return onReader(consumer -> {
            List<TopicPartition> tps = partitionsToRead.stream().map(p -> new TopicPartition(topic, p)).toList();
            Map<TopicPartition, Long> offsets = new HashMap<>();
            if (start instanceof FeedStart.Beginning) {
                offsets.putAll(consumer.beginningOffsets(tps, KAFKA_CALL));
            } else {
                Map<TopicPartition, Long> ends = consumer.endOffsets(tps, KAFKA_CALL);
                offsets.putAll(ends);
                if (start instanceof FeedStart.At at) {
                    Map<TopicPartition, Long> times = new HashMap<>();
                    tps.forEach(tp -> times.put(tp, at.time().toEpochMilli()));
                    for (Map.Entry<TopicPartition, OffsetAndTimestamp> e
                            : consumer.offsetsForTimes(times, KAFKA_CALL).entrySet()) {
                        if (e.getValue() != null) {
                            offsets.put(e.getKey(), e.getValue().offset());
                        }
                    }
                }
            }
            Map<Integer, Long> byPartition = new HashMap<>();
            offsets.forEach((tp, o) -> byPartition.put(tp.partition(), o));
            return FeedCursor.of(tableId, byPartition);
        });
    }

    /**
     * Reads from {@code cursor}: the events whose record key {@code wanted} accepts and
     * {@code visible} lets through, at most {@code maxEvents} of them and {@code budget} records
     * examined, until each partition's committed end or {@link #READ_TIME}.
     */
    public CompletableFuture<FeedPage> read(FeedCursor cursor, Predicate<String> wanted,
                                            Predicate<ChangeEvent> visible, int maxEvents, int budget) {
        return onReader(consumer -> readWith(consumer, cursor, wanted, visible, maxEvents, budget));
    }

    /**
     * Completes when a record (or transaction marker) is committed at or past {@code cursor} on one of
     * its partitions, or after {@code timeout}: the moment to read again.
     */
    public CompletableFuture<Void> grown(FeedCursor cursor, Duration timeout) {
        Map<Integer, Long> offsets = cursor.offsets();
        return tail.whenPast(offsets, timeout);
    }

    private FeedPage readWith(KafkaConsumer<byte[], byte[]> consumer, FeedCursor cursor, Predicate<String> wanted,
                              Predicate<ChangeEvent> visible, int maxEvents, int budget) {
        Map<TopicPartition, Long> next = new HashMap<>();
        cursor.offsets().forEach((p, o) -> next.put(new TopicPartition(topic, p), o));
        // Partitions read past the table's deletion hold nothing more of it: not read again.
        Set<Integer> ended = new HashSet<>(cursor.ended());
        Set<Integer> nowEnded = new HashSet<>();
        consumer.assign(next.keySet());
        next.forEach(consumer::seek);
        consumer.pause(next.keySet().stream().filter(tp -> ended.contains(tp.partition())).toList());
        Map<TopicPartition, Long> ends = consumer.endOffsets(next.keySet(), KAFKA_CALL);
        next.forEach((tp, o) -> {
            if (o > ends.getOrDefault(tp, 0L)) {
                throw TableServiceException.of(ErrorCode.INVALID_QUERY_PARAMETER_VALUE,
                        "The cursor points past the end of the change feed.");
            }
        });
        List<ChangeEvent> events = new ArrayList<>();
        int examined = 0;
        long deadline = System.nanoTime() + READ_TIME.toNanos();
        boolean caughtUp = false;
        try {
            while (true) {
                caughtUp = next.entrySet().stream().allMatch(e -> ended.contains(e.getKey().partition())
                        || e.getValue() >= ends.getOrDefault(e.getKey(), 0L));
                if (caughtUp || events.size() >= maxEvents || examined >= budget || System.nanoTime() > deadline) {
                    break;
                }
                ConsumerRecords<byte[], byte[]> records = consumer.poll(POLL);
                for (TopicPartition tp : next.keySet()) {
                    if (ended.contains(tp.partition())) {
                        continue;
                    }
                    boolean whole = true;
                    for (ConsumerRecord<byte[], byte[]> r : records.records(tp)) {
                        if (events.size() >= maxEvents || examined >= budget) {
                            whole = false;
                            break;
                        }
                        examined++;
                        next.put(tp, r.offset() + 1);
                        if (r.key() == null || r.value() == null
                                || !wanted.test(new String(r.key(), StandardCharsets.UTF_8))) {
                            continue;
                        }
                        ChangeEvent event;
                        try {
                            event = LogCodecs.CHANGE_EVENT.decode(r.value());
                        } catch (LogFormatException e) {
                            LOG.warn("Skipping an unreadable change event at {} offset {}", tp, r.offset(), e);
                            continue;
                        }
                        if (event.change().type() == EntityChange.Type.TABLE_DELETED) {
                            // this partition's task saw the table's deletion: nothing of it follows here
                            ended.add(tp.partition());
                            nowEnded.add(tp.partition());
                            consumer.pause(List.of(tp));
                            whole = false;
                            if (ended.size() == next.size()) {
                                events.add(event); // the last partition to end: the feed's one TableDeleted event
                            }
                            break;
                        }
                        if (visible.test(event)) {
                            events.add(event);
                        }
                    }
                    if (whole) {
                        // Past transaction markers and aborted records too.
                        next.put(tp, Math.max(next.get(tp), consumer.position(tp, KAFKA_CALL)));
                    }
                }
            }
        } catch (OffsetOutOfRangeException e) {
            throw TableServiceException.of(ErrorCode.INVALID_QUERY_PARAMETER_VALUE,
                    "The cursor points before the oldest change the log keeps.");
        } finally {
            consumer.unsubscribe();
        }
        Map<Integer, Long> moved = new HashMap<>();
        next.forEach((tp, o) -> moved.put(tp.partition(), o));
        return new FeedPage(events, cursor.with(moved, nowEnded), caughtUp);
    }

    private interface ReaderTask<T> {
        T run(KafkaConsumer<byte[], byte[]> consumer);
    }

    /** Runs {@code task} on a reader thread with a consumer of its own; Kafka failures are 503. */
    private <T> CompletableFuture<T> onReader(ReaderTask<T> task) {
        try {
            return CompletableFuture.supplyAsync(() -> {
                KafkaConsumer<byte[], byte[]> consumer = idle.poll();
                if (consumer == null) {
                    throw new IllegalStateException("a reader thread without a consumer"); // one per thread
                }
                try {
                    return task.run(consumer);
                } catch (KafkaException e) {
                    LOG.warn("The change feed could not read the changes topic", e);
                    throw TableServiceException.of(ErrorCode.SERVER_BUSY,
                            "The change feed cannot read the log at the moment; retry.", e);
                } finally {
                    idle.add(consumer);
                }
            }, readers);
        } catch (RejectedExecutionException e) {
            return CompletableFuture.failedFuture(TableServiceException.of(ErrorCode.SERVER_BUSY,
                    "The change feed is shutting down."));
        }
    }

    @Override
    public void close() {
        tail.close();
        readers.shutdownNow();
        try {
            readers.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (KafkaConsumer<byte[], byte[]> c : consumers) {
            try {
                c.close(CLOSE);
            } catch (RuntimeException e) {
                LOG.debug("Closing a change-feed consumer", e);
            }
        }
    }
}
