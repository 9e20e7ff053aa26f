package io.tablestream.core.model;

import java.util.Locale;
import java.util.Objects;

/**
 * A secondary index of a table (an extension of the Table service): entries of (value of
 * {@code property}, PartitionKey, RowKey) kept by each partition's task beside its entity rows.
 *
 * @param name 1 to 63 letters and digits, starting with a letter; unique per table, case-insensitive
 * @param property the custom property indexed (not PartitionKey, RowKey or Timestamp)
 * @param indexId given by the processor when the index is created (0 in a request): the create
 *     command's position, so a dropped and re-created index never meets the old one's entries
 */
public record IndexDefinition(String name, String property, long indexId) {
    public IndexDefinition {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(property, "property");
    }

    public IndexDefinition withId(long id) {
        return new IndexDefinition(name, property, id);
    }

    /** Whether this index has the name {@code other} (case-insensitive). */
    public boolean named(String other) {
        return name.toLowerCase(Locale.ROOT).equals(other.toLowerCase(Locale.ROOT));
    }
}
