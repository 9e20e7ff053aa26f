package io.tablestream.core.rules;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.model.IndexDefinition;
import java.util.regex.Pattern;

/**
 * The rules of a secondary index as a client asks for one: a name of 1 to 63 letters and digits
 * starting with a letter, and one custom property (PartitionKey and RowKey are indexed already;
 * Timestamp cannot be indexed).
 */
public final class IndexRules {
    private static final Pattern NAME = Pattern.compile("^[A-Za-z][A-Za-z0-9]{0,62}$");

    private IndexRules() {
    }

    /**
     * An index as a client asks for it, checked against the rules (its id is given later, by the processor).
     *
     * @throws TableServiceException InvalidInput for a bad name or property
     */
    public static IndexDefinition requested(String name, String property) {
        validateName(name);
        if (property == null || property.isEmpty() || PropertyNames.isSystem(property)
                || !PropertyNames.isIdentifier(property) || property.length() > Limits.MAX_PROPERTY_NAME_LENGTH) {
            throw TableServiceException.of(ErrorCode.INVALID_INPUT, "An index names one custom property "
                    + "(PartitionKey and RowKey are indexed already; Timestamp cannot be indexed).");
        }
        return new IndexDefinition(name, property, 0);
    }

    /** @throws TableServiceException InvalidInput unless {@code name} is a valid index name */
    public static void validateName(String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw TableServiceException.of(ErrorCode.INVALID_INPUT,
                    "An index name is 1 to 63 letters and digits, starting with a letter.");
        }
    }
}
