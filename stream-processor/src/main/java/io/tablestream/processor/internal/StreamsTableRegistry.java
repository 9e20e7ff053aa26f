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
import io.tablestream.processor.store.RegistryEvents;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.errors.InvalidStateStoreException;

/** {@link TableRegistry} over the global registry store, through interactive queries. */
public final class StreamsTableRegistry implements TableRegistry {
    private final KafkaStreams streams;
    private final RegistryEvents events;

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
        try {
            return view().byName(account, name);
        } catch (InvalidStateStoreException e) {
            throw QueryableStores.translate(e);
        }
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
        try {
            return view().serviceProperties(account);
        } catch (InvalidStateStoreException e) {
            throw QueryableStores.translate(e);
        }
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
