package io.tablestream.processor.internal;

import io.tablestream.core.command.ChangeEvent;
import io.tablestream.core.model.StoredEntity;
import io.tablestream.processor.internal.state.KeyPresence;
import io.tablestream.schemas.LogCodecs;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * The partition deletions a task has applied ({@link io.tablestream.core.command.PartitionDeletion}),
 * kept in its {@code partition-tables} store beside the tables it knows, each under
 * {@code pdel/<tableId>/<PartitionKey>/<ticks>} (its Timestamp, zero-padded, so a partition's
 * deletions sort oldest first) with its {@code PARTITION_DELETED} change event as the value.
 *
 * <p>The one rule every reader and the processor apply: a row of the PartitionKey whose Timestamp
 * is at or before the partition's newest deletion is gone (a write after the deletion gets a later
 * Timestamp from the partition's monotonic clock, so it is never mistaken for one). As of a past
 * time, an entity version is gone when a deletion of its partition lies after it and at or before
 * that time. PartitionKeys never hold {@code /}, so the key is unambiguous.
 *
 * <p>Most partitions never hold a deletion: {@link #presence()} tells readers where none can be, so
 * that a read there looks for none (the store is not cached, which keeps that exact; see
 * {@link KeyPresence}).
 */
public final class PartitionDeletions {
    private static final String PREFIX = "pdel/";

    private PartitionDeletions() {
    }

    /** A new record of which partitions' {@code partition-tables} stores may hold deletions (one per processor). */
    public static KeyPresence presence() {
        return new KeyPresence(PREFIX.getBytes(StandardCharsets.UTF_8));
    }

    static String key(long tableId, String partitionKey, long ticks) {
        return partitionPrefix(tableId, partitionKey) + String.format("%019d", ticks);
    }

    static String tablePrefix(long tableId) {
        return PREFIX + tableId + '/';
    }

    static String partitionPrefix(long tableId, String partitionKey) {
        return tablePrefix(tableId) + partitionKey + '/';
    }

    /** The first key of all deletions, of any table (inclusive). */
    static String allStart() {
        return PREFIX;
    }

    /** The bound past every key beginning with {@code prefix} (which ends with '/'; '0' follows it). */
    static String end(String prefix) {
        return prefix.substring(0, prefix.length() - 1) + '0';
    }

    /** The deletion a key names: its table, PartitionKey and time. */
    record Deletion(String key, long tableId, String partitionKey, long ticks) {
        static Deletion parse(String key) {
            int tableEnd = key.indexOf('/', PREFIX.length());
            int pkEnd = key.lastIndexOf('/');
            return new Deletion(key, Long.parseLong(key.substring(PREFIX.length(), tableEnd)),
                    key.substring(tableEnd + 1, pkEnd), Long.parseLong(key.substring(pkEnd + 1)));
        }
    }

    /** Every deletion of every table in {@code store}, in key order. */
    static List<Deletion> all(ReadOnlyKeyValueStore<String, byte[]> store) {
        List<Deletion> out = new ArrayList<>();
        try (KeyValueIterator<String, byte[]> it = store.range(allStart(), end(allStart()))) {
            while (it.hasNext()) {
                out.add(Deletion.parse(it.next().key));
            }
        }
        return out;
    }

    /** The deletions of table {@code tableId} in {@code store}, as a lookup by PartitionKey. */
    static View of(ReadOnlyKeyValueStore<String, byte[]> store, long tableId) {
        Map<String, long[]> byPartition = new HashMap<>();
        Map<String, List<byte[]>> events = new HashMap<>();
        String prefix = tablePrefix(tableId);
        try (KeyValueIterator<String, byte[]> it = store.range(prefix, end(prefix))) {
            while (it.hasNext()) {
                KeyValue<String, byte[]> kv = it.next();
                Deletion d = Deletion.parse(kv.key);
                long[] before = byPartition.getOrDefault(d.partitionKey(), new long[0]);
                long[] after = Arrays.copyOf(before, before.length + 1);
                after[before.length] = d.ticks();
                byPartition.put(d.partitionKey(), after);
                events.computeIfAbsent(d.partitionKey(), k -> new ArrayList<>()).add(kv.value);
            }
        }
        return new View(byPartition, events);
    }

    /**
     * The deletions of one table's partitions, oldest first per PartitionKey (a store's keys sort so).
     */
    static final class View {
        static final View NONE = new View(Map.of(), Map.of());

        private final Map<String, long[]> ticks;
        private final Map<String, List<byte[]>> events;

        private View(Map<String, long[]> ticks, Map<String, List<byte[]>> events) {
            this.ticks = ticks;
            this.events = events;
        }

        boolean isEmpty() {
            return ticks.isEmpty();
        }

        /** The Timestamp of the newest deletion of {@code partitionKey}, or {@link Long#MIN_VALUE}. */
        long newest(String partitionKey) {
            long[] t = ticks.get(partitionKey);
            return t == null ? Long.MIN_VALUE : t[t.length - 1];
        }

        /** Whether the current row {@code s} is gone: written at or before its partition's newest deletion. */
        boolean hides(StoredEntity s) {
            return !ticks.isEmpty() && s.entity().timestamp().epochTicks() <= newest(s.entity().partitionKey());
        }

        /**
         * The oldest deletion of {@code partitionKey} after {@code afterTicks} and at or before
         * {@code atOrBeforeTicks}, as its change event, or null: what ended a version written at
         * {@code afterTicks} by that time.
         */
        ChangeEvent firstBetween(String partitionKey, long afterTicks, long atOrBeforeTicks) {
            long[] t = ticks.get(partitionKey);
            if (t == null) {
                return null;
            }
            for (int i = 0; i < t.length; i++) {
                if (t[i] > afterTicks) {
                    return t[i] <= atOrBeforeTicks ? LogCodecs.CHANGE_EVENT.decode(events.get(partitionKey).get(i)) : null;
                }
            }
            return null;
        }
    }
}
