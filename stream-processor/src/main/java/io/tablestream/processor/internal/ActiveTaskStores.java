package io.tablestream.processor.internal;

import io.tablestream.processor.store.StoreNames;
import io.tablestream.processor.store.StoreReplica;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Function;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * The stores of the active tasks running on this instance, held between reads so that a read of a
 * partition's active store does not ask Kafka Streams for it again (an interactive-query store
 * looks its task up in every stream thread's task lists, under a lock, on every call).
 *
 * <p>The rule for when a held store may be read: a task's processor hands its stores over when it
 * starts running ({@link #started}, from its {@code init}) and takes them back when it stops
 * ({@link #stopped}, from its {@code close}). Kafka Streams calls {@code init} when an active task
 * has restored its stores and is about to run, and {@code close} whenever a running active task is
 * suspended, which precedes every close of its stores: a partition revoked or moved, an active task
 * turned into a standby (its stores stay open, as the standby's), a task closed and revived after
 * its state was found corrupted, a stream thread that failed or stops, the instance closing. So
 * between the two the stores are exactly the running active task's. A held store is also read only
 * while the instance is {@code RUNNING} (each stream thread running: while it rebalances or stops,
 * reads ask Kafka Streams as before, which refuses them or not as it always did), and only while it
 * is open. Anything else, and a held store that refuses a read as closed, asks Kafka Streams again,
 * once, for that read.
 *
 * <p>Standby copies are never held: a standby has no processor, and a read that may use one
 * ({@link StoreReplica#ACTIVE_OR_STANDBY}) asks Kafka Streams every time.
 */
public final class ActiveTaskStores {
    /** The stores readers ask for by partition. */
    private static final List<String> READ = List.of(StoreNames.ENTITIES, StoreNames.PARTITION_TABLES,
            StoreNames.HISTORY, StoreNames.INDEXES, StoreNames.INDEX_BUILDS, StoreNames.TRANSACTIONS,
            StoreNames.JOBS, StoreNames.TASK_META);

    private final ConcurrentMap<Integer, Running> running = new ConcurrentHashMap<>();

    /**
     * Called by an active task's processor as it starts running (from its {@code init}, on the stream
     * thread): {@code stores} gives its stores by name. Returns what {@link #stopped} takes back.
     */
    Object started(int partition, Function<String, StateStore> stores) {
        Map<String, StateStore> byName = new HashMap<>();
        for (String name : READ) {
            byName.put(name, stores.apply(name));
        }
        Running task = new Running(Map.copyOf(byName));
        running.put(partition, task);
        return task;
    }

    /** Called by the processor that {@link #started} as {@code task} when it stops running (its {@code close}). */
    void stopped(int partition, Object task) {
        if (task != null) {
            running.remove(partition, task);
        }
    }

    /**
     * The active store {@code name} of {@code partition}: the running task's own while the rule above
     * holds, else Kafka Streams' answer ({@link QueryableStores#keyValue}, which throws {@code ServerBusy}
     * where the store cannot be read now).
     */
    <K, V> ReadOnlyKeyValueStore<K, V> keyValue(KafkaStreams streams, String name, int partition) {
        Running task = running.get(partition);
        if (task != null) {
            ReadOnlyKeyValueStore<K, V> store = task.store(name);
            if (store != null && readable(streams, partition, task, store)) {
                return new Held<>(this, streams, name, partition, task, store);
            }
        }
        return QueryableStores.keyValue(streams, name, partition, StoreReplica.ACTIVE);
    }

    private boolean readable(KafkaStreams streams, int partition, Running task, ReadOnlyKeyValueStore<?, ?> store) {
        return streams.state() == KafkaStreams.State.RUNNING && running.get(partition) == task
                && ((StateStore) store).isOpen();
    }

    /** The stores of one running incarnation of an active task; compared by identity, one per incarnation. */
    private static final class Running {
        private final Map<String, StateStore> stores;

        Running(Map<String, StateStore> stores) {
            this.stores = stores;
        }

        @SuppressWarnings("unchecked")
        <K, V> ReadOnlyKeyValueStore<K, V> store(String name) {
            return (ReadOnlyKeyValueStore<K, V>) stores.get(name);
        }
    }

    /**
     * A held store as readers get it: each call checks the rule again (a reader may keep it through
     * a page of reads) and asks Kafka Streams instead when it no longer holds, or when the held store
     * refuses the call as closed.
     */
    private static final class Held<K, V> implements ReadOnlyKeyValueStore<K, V> {
        private final ActiveTaskStores owner;
        private final KafkaStreams streams;
        private final String name;
        private final int partition;
        private final Running task;
        private final ReadOnlyKeyValueStore<K, V> store;

        Held(ActiveTaskStores owner, KafkaStreams streams, String name, int partition, Running task,
             ReadOnlyKeyValueStore<K, V> store) {
            this.owner = owner;
            this.streams = streams;
            this.name = name;
            this.partition = partition;
            this.task = task;
            this.store = store;
        }

        private <R> R read(Function<ReadOnlyKeyValueStore<K, V>, R> call) {
            if (owner.readable(streams, partition, task, store)) {
                try {
                    return call.apply(store);
                } catch (InvalidStateStoreException e) {
                    // closed since the check: this read asks Kafka Streams, as every read will once the task stops
                }
            }
            return call.apply(QueryableStores.keyValue(streams, name, partition, StoreReplica.ACTIVE));
        }

        @Override
        public V get(K key) {
            return read(s -> s.get(key));
        }

        @Override
        public KeyValueIterator<K, V> range(K from, K to) {
            return read(s -> s.range(from, to));
        }

        @Override
        public KeyValueIterator<K, V> reverseRange(K from, K to) {
            return read(s -> s.reverseRange(from, to));
        }

        @Override
        public KeyValueIterator<K, V> all() {
            return read(ReadOnlyKeyValueStore::all);
        }

        @Override
        public KeyValueIterator<K, V> reverseAll() {
            return read(ReadOnlyKeyValueStore::reverseAll);
        }

        @Override
        public <PS extends org.apache.kafka.common.serialization.Serializer<P>, P> KeyValueIterator<K, V> prefixScan(
                P prefix, PS prefixKeySerializer) {
            return read(s -> s.prefixScan(prefix, prefixKeySerializer));
        }

        @Override
        public long approximateNumEntries() {
            return read(ReadOnlyKeyValueStore::approximateNumEntries);
        }
    }
}
