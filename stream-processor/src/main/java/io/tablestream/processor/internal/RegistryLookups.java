package io.tablestream.processor.internal;

import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Registry lookups kept until the registry next changes. A value is kept with the generation of the
 * registry it was read at ({@link io.tablestream.processor.store.RegistryEvents#generation}, which
 * moves after each change is in the store) and served while the generation stays the same; a value
 * whose read overlapped a change is not kept, so a lookup never shows a record older than the store.
 */
final class RegistryLookups {
    private final LongSupplier generation;
    private final int capacity;
    private final ConcurrentHashMap<String, Kept> kept = new ConcurrentHashMap<>();

    /** A lookup's result, read while the registry was at {@code generation}. */
    private record Kept(long generation, Object value) {
    }

    /**
     * @param generation the registry's current generation
     * @param capacity lookups kept at most; beyond it the map starts again (correct, just slower)
     */
    RegistryLookups(LongSupplier generation, int capacity) {
        this.generation = generation;
        this.capacity = capacity;
    }

    /** The value of lookup {@code key}: the one kept at the current generation, else {@code read} now. */
    @SuppressWarnings("unchecked")
    <T> T get(String key, Supplier<T> read) {
        long at = generation.getAsLong();
        Kept k = kept.get(key);
        if (k != null && k.generation() == at) {
            return (T) k.value();
        }
        T value = read.get();
        if (generation.getAsLong() == at) {
            if (kept.size() >= capacity) {
                kept.clear();
            }
            kept.put(key, new Kept(at, value));
        }
        return value;
    }
}
