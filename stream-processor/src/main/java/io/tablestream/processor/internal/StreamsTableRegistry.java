package io.tablestream.processor.internal;

import io.tablestream.core.model.ServiceProperties;
import io.tablestream.core.model.TableName;
import io.tablestream.core.model.TableRecord;
import io.tablestream.processor.store.StoreNames;
import io.tablestream.core.registry.TableRegistry;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import io.tablestream.processor.store.RegistryEvents;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.errors.InvalidStateStoreException;

/**
 * {@link TableRegistry} over the global registry store, through interactive queries. A table's
 * record by name and an account's service properties, which every request looks up, are kept once
 * read until the registry next changes ({@link RegistryLookups}): a lookup then costs a map read
 * instead of a store query, a RocksDB get and a decode.
 */
public final class StreamsTableRegistry implements TableRegistry {
    /** Lookups kept at most. */
    private static final int CACHED_LOOKUPS = 10_000;

    private final KafkaStreams streams;
    private final RegistryEvents events;
    private final RegistryLookups lookups;

    public StreamsTableRegistry(KafkaStreams streams, RegistryEvents events) {
        this.streams = streams;
        this.events = events;
        this.lookups = new RegistryLookups(events::generation, CACHED_LOOKUPS);
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

    /** The lookup {@code key}'s value, kept until the registry changes, else read from the store by {@code read}. */
    private <T> T cached(String key, Function<RegistryView, T> read) {
        return lookups.get(key, () -> {
            try {
                return read.apply(view());
            } catch (InvalidStateStoreException e) {
                throw QueryableStores.translate(e);
            }
        });
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
