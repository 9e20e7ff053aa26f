package io.tablestream.core.filter;

import io.tablestream.core.model.EdmType;
import io.tablestream.core.model.EdmValue;
import java.util.Objects;

/**
 * What a secondary index can answer of a filter: the values of one property, of one Edm type,
 * that a match must have — a superset of the matches (the whole filter is still tested on every
 * row the index yields). A {@code null} bound is open on that side.
 *
 * @param property the indexed property
 * @param type the type of the constants (a value of another type never matches)
 */
public record IndexCondition(String property, EdmType type, EdmValue lower, boolean lowerInclusive, EdmValue upper,
                             boolean upperInclusive) {
    public IndexCondition {
        Objects.requireNonNull(property, "property");
        Objects.requireNonNull(type, "type");
    }

    /** Whether exactly one value matches ({@code eq}): the index then yields rows in key order. */
    public boolean isPoint() {
        return lower != null && lower.equals(upper) && lowerInclusive && upperInclusive;
    }
}
