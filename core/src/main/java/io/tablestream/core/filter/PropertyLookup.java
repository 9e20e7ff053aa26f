package io.tablestream.core.filter;

import io.tablestream.core.model.EdmValue;

/**
 * A row a {@link Filter} can test without being an {@link io.tablestream.core.model.Entity}: for
 * Query Tables, a table whose only property is {@code TableName} (an Edm.String).
 */
@FunctionalInterface
public interface PropertyLookup {
    /** The value of the named property, or {@code null} when the row has no such property. */
    EdmValue property(String name);
}
