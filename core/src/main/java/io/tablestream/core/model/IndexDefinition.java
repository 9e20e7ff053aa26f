package io.tablestream.core.model;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.rules.PropertyNames;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

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
    private static final Pattern NAME = Pattern.compile("^[A-Za-z][A-Za-z0-9]{0,62}$");

    public IndexDefinition {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(property, "property");
    }

    /**
     * An index as a client asks for it, checked against the rules.
     *
     * @throws TableServiceException InvalidInput for a bad name or property
     */
    public static IndexDefinition requested(String name, String property) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw TableServiceException.of(ErrorCode.INVALID_INPUT,
                    "An index name is 1 to 63 letters and digits, starting with a letter.");
        }
        if (property == null || property.isEmpty() || PropertyNames.isSystem(property)
                || !PropertyNames.isIdentifier(property) || property.length() > 255) {
            throw TableServiceException.of(ErrorCode.INVALID_INPUT, "An index names one custom property "
                    + "(PartitionKey and RowKey are indexed already; Timestamp cannot be indexed).");
        }
        return new IndexDefinition(name, property, 0);
    }

    public IndexDefinition withId(long id) {
        return new IndexDefinition(name, property, id);
    }

    /** Whether this index has the name {@code other} (case-insensitive). */
    public boolean named(String other) {
        return name.toLowerCase(Locale.ROOT).equals(other.toLowerCase(Locale.ROOT));
    }
}
