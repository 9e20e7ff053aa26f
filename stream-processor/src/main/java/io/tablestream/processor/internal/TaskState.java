package io.tablestream.processor.internal;

import io.tablestream.core.model.EdmDateTime;
import java.nio.ByteBuffer;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * A task's own bookkeeping, kept in a change-logged store so it survives restarts and moves with
 * the task: the offset of the last command it applied, and the partition's clock.
 *
 * <p>The clock is the only time a decision knows. Each command brings its own time (see
 * {@link #commandTime}); the Timestamp it gets is {@code max(command time, clock + 1 tick)}, which
 * becomes the new clock. So Timestamps (and ETags) are monotonic per partition, two writes in the
 * same instant still differ, and a replay of the partition's log gives every command the same
 * Timestamp again — no wall clock is read, on any machine, ever.
 */
final class TaskState {
    static final String APPLIED_OFFSET = "applied-offset";
    static final String LAST_TIMESTAMP = "last-timestamp";
    private static final long TICKS_PER_MILLI = EdmDateTime.TICKS_PER_SECOND / 1000;

    private final KeyValueStore<String, byte[]> store;
    private long appliedOffset;
    private long lastTimestampTicks;

    TaskState(KeyValueStore<String, byte[]> store) {
        this.store = store;
        this.appliedOffset = read(APPLIED_OFFSET, -1L);
        this.lastTimestampTicks = read(LAST_TIMESTAMP, Long.MIN_VALUE);
    }

    long appliedOffset() {
        return appliedOffset;
    }

    void applied(long offset) {
        appliedOffset = offset;
        store.put(APPLIED_OFFSET, encode(offset));
    }

    /**
     * A command's own time: when it was accepted (its header), but never later than its Kafka
     * record's timestamp — so a producer's header cannot carry the partition's clock further into
     * the future than the broker lets a record timestamp go. Both are in the log: a replay reads
     * the same.
     */
    static EdmDateTime commandTime(long acceptedAtMillis, long recordTimestampMillis) {
        long millis = Math.max(0, Math.min(acceptedAtMillis, recordTimestampMillis));
        return EdmDateTime.ofEpochTicks(Math.min(millis * TICKS_PER_MILLI, EdmDateTime.MAX_EPOCH_TICKS));
    }

    /** The Timestamp of a command whose own time is {@code commandTime}; advances the clock to it. */
    EdmDateTime nextTimestamp(EdmDateTime commandTime) {
        return nextTimestamps(commandTime, 1);
    }

    /**
     * The first of {@code count} consecutive Timestamps (one tick apart) of a command whose own time
     * is {@code commandTime}, one for each of its writes; advances the clock to the last of them.
     */
    EdmDateTime nextTimestamps(EdmDateTime commandTime, int count) {
        long first = lastTimestampTicks == Long.MIN_VALUE ? commandTime.epochTicks()
                : Math.max(commandTime.epochTicks(), lastTimestampTicks + 1);
        lastTimestampTicks = first + count - 1;
        store.put(LAST_TIMESTAMP, encode(lastTimestampTicks));
        return EdmDateTime.ofEpochTicks(first);
    }

    /** Moves the clock to {@code time} if that is later (a partition marker), without giving a Timestamp. */
    void advanceClockTo(EdmDateTime time) {
        if (lastTimestampTicks == Long.MIN_VALUE || time.epochTicks() > lastTimestampTicks) {
            lastTimestampTicks = time.epochTicks();
            store.put(LAST_TIMESTAMP, encode(lastTimestampTicks));
        }
    }

    /**
     * The partition's clock: the last Timestamp given, or null before the first. Every later
     * command's Timestamp is after it, so whatever has expired at this time is expired for every
     * command still to come.
     */
    EdmDateTime clock() {
        return lastTimestampTicks == Long.MIN_VALUE ? null : EdmDateTime.ofEpochTicks(lastTimestampTicks);
    }

    private long read(String key, long absent) {
        return read(store, key, absent);
    }

    /**
     * The offset of the last command applied by the copy of a task's bookkeeping {@code store}
     * (a standby's, read through an interactive query), or -1 before the first.
     */
    static long appliedOffset(ReadOnlyKeyValueStore<String, byte[]> store) {
        return read(store, APPLIED_OFFSET, -1L);
    }

    private static long read(ReadOnlyKeyValueStore<String, byte[]> store, String key, long absent) {
        byte[] v = store.get(key);
        return v == null ? absent : decode(v);
    }

    /** A value of the store: the offset or the clock, big-endian. */
    static long decode(byte[] value) {
        return ByteBuffer.wrap(value).getLong();
    }

    static byte[] encode(long value) {
        return ByteBuffer.allocate(Long.BYTES).putLong(value).array();
    }
}
