package io.tablestream.core.model;

import java.util.AbstractMap;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * An immutable, ordered map of property values. {@link Entity} keeps its properties in one, so
 * that deriving an entity from another (a new version, a projection) shares the map instead of
 * copying it, and a decoder can build one without an intermediate copy ({@link #builder}).
 */
public final class PropertyMap extends AbstractMap<String, EdmValue> {
    private static final PropertyMap EMPTY = new PropertyMap(new LinkedHashMap<>());

    private final Map<String, EdmValue> values;

    private PropertyMap(LinkedHashMap<String, EdmValue> owned) {
        this.values = Collections.unmodifiableMap(owned);
    }

    /** The map itself when it already is one, else an immutable copy (same order). */
    public static PropertyMap copyOf(Map<String, EdmValue> properties) {
        if (properties instanceof PropertyMap p) {
            return p;
        }
        if (properties.isEmpty()) {
            return EMPTY;
        }
        return new PropertyMap(new LinkedHashMap<>(properties));
    }

    public static Builder builder(int expectedSize) {
        return new Builder(expectedSize);
    }

    @Override
    public EdmValue get(Object key) {
        return values.get(key);
    }

    @Override
    public boolean containsKey(Object key) {
        return values.containsKey(key);
    }

    @Override
    public int size() {
        return values.size();
    }

    @Override
    public Set<Entry<String, EdmValue>> entrySet() {
        return values.entrySet();
    }

    @Override
    public Set<String> keySet() {
        return values.keySet();
    }

    /** Builds a map once; the builder cannot be used after {@link #build}. */
    public static final class Builder {
        private LinkedHashMap<String, EdmValue> values;

        private Builder(int expectedSize) {
            this.values = new LinkedHashMap<>(Math.max(4, (int) (expectedSize / 0.75f) + 1));
        }

        /** Adds a property; returns the value it replaced, or null. */
        public EdmValue put(String name, EdmValue value) {
            if (values == null) {
                throw new IllegalStateException("already built");
            }
            return values.put(name, value);
        }

        public PropertyMap build() {
            LinkedHashMap<String, EdmValue> owned = values;
            values = null;
            return owned.isEmpty() ? EMPTY : new PropertyMap(owned);
        }
    }
}
