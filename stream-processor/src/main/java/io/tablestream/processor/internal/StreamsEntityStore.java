package io.tablestream.processor.internal;

import io.tablestream.core.codec.ByteRange;
import io.tablestream.core.codec.KeyCodec;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.EntityKey;
import io.tablestream.core.model.StoredEntity;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.processor.store.AppliedOffsets;
import io.tablestream.processor.store.CloseableIterator;
import io.tablestream.processor.store.EntityStore;
import io.tablestream.processor.store.StoreNames;
import io.tablestream.processor.store.StoreReplica;
import io.tablestream.schemas.StoredEntityCodec;
import java.time.Clock;
import java.util.NoSuchElementException;
import java.util.Optional;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * {@link EntityStore} over Kafka Streams' interactive queries. An active store is read as its task
 * left it: a write is visible as soon as the task applied it, before its transaction commits, just
 * as its answer goes out. A store whose task restarted answers {@code ServerBusy} until the task
 * has replayed what may have been answered before ({@link AppliedOffsets#readable}).
 */
public final class StreamsEntityStore implements EntityStore {
    private final KafkaStreams streams;
    private final Clock clock;
    private final AppliedOffsets applied;

    public StreamsEntityStore(KafkaStreams streams, Clock clock, AppliedOffsets applied) {
        this.streams = streams;
        this.clock = clock;
        this.applied = applied;
    }

    private ReadOnlyKeyValueStore<Bytes, byte[]> store(StoreReplica replica, int partition) {
        ReadOnlyKeyValueStore<Bytes, byte[]> store = QueryableStores.keyValue(streams, StoreNames.ENTITIES, partition,
                replica);
        if (!applied.readable(partition)) {
            throw TableServiceException.of(ErrorCode.SERVER_BUSY,
                    "The data is being recovered after a restart; retry shortly.");
        }
        return store;
    }

    @Override
    public Optional<StoredEntity> get(StoreReplica replica, int partition, EntityKey key) {
        ReadOnlyKeyValueStore<Bytes, byte[]> store = store(replica, partition);
        byte[] value;
        try {
            value = store.get(Bytes.wrap(KeyCodec.encode(key)));
        } catch (InvalidStateStoreException e) {
            throw QueryableStores.translate(e);
        }
        if (value == null) {
            return Optional.empty();
        }
        StoredEntity s = StoredEntityCodec.decode(key.partitionKey(), key.rowKey(), value);
        return s.isExpiredAt(EdmDateTime.of(clock.instant())) ? Optional.empty() : Optional.of(s);
    }

    @Override
    public CloseableIterator<StoredEntity> scan(StoreReplica replica, int partition, ByteRange range) {
        if (range.isEmpty()) {
            return new Cursor(null, range, EdmDateTime.of(clock.instant()));
        }
        ReadOnlyKeyValueStore<Bytes, byte[]> store = store(replica, partition);
        try {
            return new Cursor(store.range(Bytes.wrap(range.fromInclusive()), Bytes.wrap(range.toExclusive())), range,
                    EdmDateTime.of(clock.instant()));
        } catch (InvalidStateStoreException e) {
            throw QueryableStores.translate(e);
        }
    }

    /** Decodes lazily, stops at the range's exclusive end, skips expired rows. */
    private static final class Cursor implements CloseableIterator<StoredEntity> {
        private final KeyValueIterator<Bytes, byte[]> it;
        private final ByteRange range;
        private final EdmDateTime now;
        private StoredEntity next;
        private boolean done;

        Cursor(KeyValueIterator<Bytes, byte[]> it, ByteRange range, EdmDateTime now) {
            this.it = it;
            this.range = range;
            this.now = now;
            this.done = it == null;
        }

        @Override
        public boolean hasNext() {
            while (next == null && !done) {
                if (!it.hasNext()) {
                    done = true;
                    break;
                }
                KeyValue<Bytes, byte[]> kv = it.next();
                byte[] key = kv.key.get();
                if (!range.contains(key)) {
                    done = true; // only the inclusive upper bound of range() can be outside
                    break;
                }
                EntityKey k = KeyCodec.decode(key);
                StoredEntity s = StoredEntityCodec.decode(k.partitionKey(), k.rowKey(), kv.value);
                if (!s.isExpiredAt(now)) {
                    next = s;
                }
            }
            return next != null;
        }

        @Override
        public StoredEntity next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            StoredEntity s = next;
            next = null;
            return s;
        }

        @Override
        public void close() {
            if (it != null) {
                it.close();
            }
        }
    }
}
