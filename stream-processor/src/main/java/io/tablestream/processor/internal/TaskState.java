package io.tablestream.processor.internal;

import io.tablestream.core.model.EdmDateTime;
import java.nio.ByteBuffer;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * A task's own bookkeeping, kept in a change-logged store so it survives restarts and moves with
 * the task: the offset of the last command it applied and the last Timestamp it gave. Timestamps
 * are monotonic per partition, {@code max(now, last + 1 tick)}, so two writes in the same instant
 * still get different ETags, even across a restart on a clock that went back.
 */
final class TaskState {
    private static final String APPLIED_OFFSET = "applied-offset";
    private static final String LAST_TIMESTAMP = "last-timestamp";

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

    /** The Timestamp for the next write at wall-clock time {@code now}. */
    EdmDateTime nextTimestamp(EdmDateTime now) {
        long ticks = lastTimestampTicks == Long.MIN_VALUE ? now.epochTicks()
                : Math.max(now.epochTicks(), lastTimestampTicks + 1);
        lastTimestampTicks = ticks;
        store.put(LAST_TIMESTAMP, encode(ticks));
        return EdmDateTime.ofEpochTicks(ticks);
    }

    private long read(String key, long absent) {
        byte[] v = store.get(key);
        return v == null ? absent : ByteBuffer.wrap(v).getLong();
    }

    private static byte[] encode(long value) {
        return ByteBuffer.allocate(Long.BYTES).putLong(value).array();
    }
}
