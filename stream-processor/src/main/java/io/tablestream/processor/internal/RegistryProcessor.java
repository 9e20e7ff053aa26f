package io.tablestream.processor.internal;

import io.tablestream.processor.store.RegistryEvents;
import io.tablestream.processor.store.StoreNames;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Keeps the global registry store equal to the tables topic (key for key, as a restore would)
 * and tells waiting requests that the view changed.
 */
final class RegistryProcessor implements Processor<String, byte[], Void, Void> {
    private final RegistryEvents events;
    private KeyValueStore<String, byte[]> store;

    RegistryProcessor(RegistryEvents events) {
        this.events = events;
    }

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        store = context.getStateStore(StoreNames.REGISTRY);
    }

    @Override
    public void process(Record<String, byte[]> record) {
        if (record.key() == null) {
            return;
        }
        if (record.value() == null) {
            store.delete(record.key());
        } else {
            store.put(record.key(), record.value());
        }
        events.changed();
    }
}
