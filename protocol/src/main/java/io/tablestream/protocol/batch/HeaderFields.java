package io.tablestream.protocol.batch;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The header fields of one message inside a batch, in the order they were written. Lookup ignores
 * the case of names; a name may occur more than once. Immutable.
 */
public final class HeaderFields {
    private static final HeaderFields EMPTY = new HeaderFields(List.of());

    private final List<HeaderField> fields;

    private HeaderFields(List<HeaderField> fields) {
        this.fields = fields;
    }

    public static HeaderFields empty() {
        return EMPTY;
    }

    public static HeaderFields of(List<HeaderField> fields) {
        return fields.isEmpty() ? EMPTY : new HeaderFields(List.copyOf(fields));
    }

    /** These fields with {@code name: value} appended. */
    public HeaderFields with(String name, String value) {
        List<HeaderField> copy = new ArrayList<>(fields.size() + 1);
        copy.addAll(fields);
        copy.add(HeaderField.of(name, value));
        return new HeaderFields(List.copyOf(copy));
    }

    /** The value of the first field named {@code name}. */
    public Optional<String> first(String name) {
        Objects.requireNonNull(name, "name");
        for (HeaderField f : fields) {
            if (f.hasName(name)) {
                return Optional.of(f.value());
            }
        }
        return Optional.empty();
    }

    /** The values of every field named {@code name}, in order. */
    public List<String> all(String name) {
        Objects.requireNonNull(name, "name");
        List<String> values = new ArrayList<>(1);
        for (HeaderField f : fields) {
            if (f.hasName(name)) {
                values.add(f.value());
            }
        }
        return List.copyOf(values);
    }

    public boolean contains(String name) {
        return first(name).isPresent();
    }

    public List<HeaderField> asList() {
        return fields;
    }

    public int size() {
        return fields.size();
    }

    public boolean isEmpty() {
        return fields.isEmpty();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof HeaderFields && fields.equals(((HeaderFields) o).fields);
    }

    @Override
    public int hashCode() {
        return fields.hashCode();
    }

    @Override
    public String toString() {
        return fields.toString();
    }
}
