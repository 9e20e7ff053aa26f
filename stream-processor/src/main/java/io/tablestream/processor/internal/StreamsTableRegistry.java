package io.tablestream.processor.internal;

import io.tablestream.core.model.ServiceProperties;
import io.tablestream.core.model.TableName;
import io.tablestream.core.model.TableRecord;
import io.tablestream.processor.store.StoreNames;
import io.tablestream.core.registry.TableRegistry;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import io.tablestream.processor.store.RegistryEvents;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.errors.InvalidStateStoreException;

/**
 * {@link TableRegistry} over the global registry store, through interactive queries. A table's
 * record by name and an account's service properties, which every request looks up, are kept once
 * read until the registry next changes ({@link RegistryEvents#generation}): a lookup then costs a
 * map read instead of a store query, a RocksDB get and a decode, and never shows a record older than
 * the store does.
 */
public final class StreamsTableRegistry implements TableRegistry {
    /** Lookups kept at most; beyond it the cache starts again (accounts with many tables stay correct, just slower). */
    static final int CACHED_LOOKUPS = 10_000;

    private final KafkaStreams streams;
    private final RegistryEvents events;
    private final ConcurrentHashMap<String, Cached> cache = new ConcurrentHashMap<>();

    /** A lookup's result, read while the registry was at {@code generation}. */
    private record Cached(long generation, Object value) {
    }

    public StreamsTableRegistry(KafkaStreams streams, RegistryEvents events) {
        this.streams = streams;
        this.events = events;
    }

    @Override
    public CompletableFuture<Void> awaitChange(BooleanSupplier condition) {
        return events.await(condition);
    }

    private RegistryView view() {
        return new RegistryView(QueryableStores.keyValue(streams, StoreNames.REGISTRY, null));
    }

    @Override
    public Optional<TableRecord> byName(String account, TableName name) {
        return cached(RegistryKey.byName(account, name), view -> view.byName(account, name));
    }

    /**
     * The lookup {@code key}'s value as read by {@code read}: the one kept, if it was read at the
     * registry's current generation; else read now, and kept if no change arrived meanwhile.
     */
    @SuppressWarnings("unchecked")
    private <T> T cached(String key, Function<RegistryView, T> read) {
        long generation = events.generation();
        Cached kept = cache.get(key);
        if (kept != null && kept.generation() == generation) {
            return (T) kept.value();
        }
        T value;
        try {
            value = read.apply(view());
        } catch (InvalidStateStoreException e) {
            throw QueryableStores.translate(e);
        }
        if (events.generation() == generation) {
            if (cache.size() >= CACHED_LOOKUPS) {
                cache.clear();
            }
            cache.put(key, new Cached(generation, value));
        }
        return value;
    }

    @Override
    public Optional<TableRecord> byId(long tableId) {
        try {
            return view().byId(tableId);
        } catch (InvalidStateStoreException e) {
            throw QueryableStores.translate(e);
        }
    }

    @Override
    public ServiceProperties serviceProperties(String account) {
        return cached(RegistryKey.forAccount(account), view -> view.serviceProperties(account));
    }

    @Override
    public List<TableRecord> list(String account, String fromNameKey, int limit) {
        try {
            return view().list(account, fromNameKey, limit);
        } catch (InvalidStateStoreException e) {
            throw QueryableStores.translate(e);
        }
    }
}
