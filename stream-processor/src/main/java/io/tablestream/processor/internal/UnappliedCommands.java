package io.tablestream.processor.internal;

import io.tablestream.core.command.Command;
import io.tablestream.schemas.LogCodecs;
import io.tablestream.schemas.LogFormatException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * How many client writes a copy of a partition has not applied: the writes on the command log
 * after the offset of the last command the copy applied.
 *
 * <p>Writes are answered as soon as they are decided, before the deciding task commits, so a
 * standby (which holds committed data only) can lack writes a client was already answered for:
 * those of the active's open transaction, and, after the active dies, every command after its last
 * commit until the new active replays them. The changelog's lag does not show them (an aborted
 * transaction leaves the changelog with nothing to restore); the command log does. The task's
 * notices to itself (partition markers, table announcements) and transaction markers are not
 * writes and are not counted, so a caught-up copy measures 0.
 *
 * <p>One consumer without a group, reading uncommitted records (a client's write is not part of a
 * transaction, and may follow an open one); used only by the thread that measures lags, never by
 * a request or stream thread.
 */
final class UnappliedCommands implements AutoCloseable {
    /** One poll of a measurement: short, so it checks its deadline often. */
    private static final Duration POLL = Duration.ofMillis(100);
    /** Closing the measuring consumer: it holds no state worth waiting for. */
    private static final Duration CLOSE = Duration.ofSeconds(2);
    /** How long one measurement may take (it runs on its own thread; a late one keeps the last figures). */
    private static final Duration TIMEOUT = Duration.ofSeconds(2);
    /** A bound on what one measurement reads; past it, the partition is counted as lagging by its offsets. */
    private static final int MAX_RECORDS_READ = 2_000;

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final String topic;

    UnappliedCommands(Map<String, Object> clientSettings, String topic) {
        Map<String, Object> settings = new java.util.HashMap<>(clientSettings);
        settings.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted");
        settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        settings.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 500);
        settings.remove(ConsumerConfig.GROUP_ID_CONFIG);
        this.consumer = new KafkaConsumer<>(settings, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        this.topic = topic;
    }

    /**
     * For each partition, the writes after the offset of the last command its copy applied (0 when
     * the copy has applied every one); a partition that could not be measured in time is left out.
     *
     * @param applied partition → offset of the last command applied (-1 for none)
     */
    Map<Integer, Long> count(Map<Integer, Long> applied) {
        if (applied.isEmpty()) {
            return Map.of();
        }
        Map<TopicPartition, Long> ends = consumer.endOffsets(applied.keySet().stream()
                .map(p -> new TopicPartition(topic, p)).toList(), TIMEOUT);
        Map<Integer, Long> counts = new java.util.HashMap<>();
        Map<TopicPartition, Long> toRead = new java.util.HashMap<>();
        applied.forEach((partition, offset) -> {
            TopicPartition tp = new TopicPartition(topic, partition);
            Long end = ends.get(tp);
            if (end != null && end <= offset + 1) {
                counts.put(partition, 0L);
            } else if (end != null) {
                toRead.put(tp, end);
                counts.put(partition, 0L);
            }
        });
        if (toRead.isEmpty()) {
            return counts;
        }
        consumer.assign(toRead.keySet());
        toRead.keySet().forEach(tp -> consumer.seek(tp, applied.get(tp.partition()) + 1));
        Map<TopicPartition, Long> reading = new java.util.HashMap<>(toRead);
        int read = 0;
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (!reading.isEmpty()) {
            if (read >= MAX_RECORDS_READ || System.nanoTime() > deadline) {
                // Not read to the end in time: those partitions are left out (not served), unless
                // writes were already found (then they lag by at least those).
                reading.keySet().forEach(tp -> {
                    if (counts.get(tp.partition()) == 0) {
                        counts.remove(tp.partition());
                    }
                });
                break;
            }
            for (ConsumerRecord<byte[], byte[]> r : consumer.poll(POLL)) {
                read++;
                TopicPartition tp = new TopicPartition(r.topic(), r.partition());
                Long end = toRead.get(tp);
                if (end != null && r.offset() < end && isWrite(r.value())) {
                    counts.merge(r.partition(), 1L, Long::sum);
                }
            }
            reading.entrySet().removeIf(e -> consumer.position(e.getKey(), POLL) >= e.getValue());
        }
        return counts;
    }

    /** Anything that is not one of the processor's notices counts, unreadable records too (they are answered). */
    private static boolean isWrite(byte[] value) {
        if (value == null) {
            return true;
        }
        try {
            Command command = LogCodecs.COMMAND.decode(value);
            return command.isWrite();
        } catch (LogFormatException e) {
            return true;
        }
    }

    @Override
    public void close() {
        consumer.close(CLOSE);
    }
}
