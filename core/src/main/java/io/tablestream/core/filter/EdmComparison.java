package io.tablestream.core.filter;

import io.tablestream.core.model.EdmBinary;
import io.tablestream.core.model.EdmBoolean;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.EdmDouble;
import io.tablestream.core.model.EdmGuid;
import io.tablestream.core.model.EdmInt32;
import io.tablestream.core.model.EdmInt64;
import io.tablestream.core.model.EdmString;
import io.tablestream.core.model.EdmValue;
import java.util.UUID;

/**
 * How {@code $filter} compares a property's value with a constant: only values of the same Edm
 * type compare, each type in its own order. A missing value, or a value of another type, makes
 * every comparison false, {@code ne} included; there is no conversion between types (Int32 is not
 * Int64, a number is not a string).
 *
 * <p>Orders: String ordinal (UTF-16 code units, {@link String#compareTo}); Int32, Int64 numeric;
 * Double IEEE 754 (NaN is unordered: only {@code ne} holds against it; -0.0 equals 0.0);
 * DateTime by ticks; Boolean false before true; Binary unsigned lexicographic; Guid as its
 * canonical text, i.e. as an unsigned 128-bit big-endian number.
 *
 * <p>Called for every candidate row of a scan: no allocation, no boxing.
 */
final class EdmComparison {
    private EdmComparison() {
    }

    static boolean holds(ComparisonOperator operator, EdmValue actual, EdmValue constant) {
        if (actual == null || actual.type() != constant.type()) {
            return false;
        }
        return switch (constant.type()) {
            case STRING -> operator.holds(((EdmString) actual).value().compareTo(((EdmString) constant).value()));
            case INT32 -> operator.holds(Integer.compare(((EdmInt32) actual).value(), ((EdmInt32) constant).value()));
            case INT64 -> operator.holds(Long.compare(((EdmInt64) actual).value(), ((EdmInt64) constant).value()));
            case DOUBLE -> operator.holds(((EdmDouble) actual).value(), ((EdmDouble) constant).value());
            case BOOLEAN -> operator.holds(Boolean.compare(((EdmBoolean) actual).value(), ((EdmBoolean) constant).value()));
            case DATE_TIME -> operator.holds(Long.compare(((EdmDateTime) actual).epochTicks(),
                    ((EdmDateTime) constant).epochTicks()));
            case GUID -> operator.holds(compareGuids(((EdmGuid) actual).value(), ((EdmGuid) constant).value()));
            case BINARY -> operator.holds(((EdmBinary) actual).compareTo((EdmBinary) constant));
        };
    }

    /** Whether a key (always an Edm.String) satisfies the comparison. */
    static boolean holds(ComparisonOperator operator, String key, EdmValue constant) {
        return constant instanceof EdmString s && operator.holds(key.compareTo(s.value()));
    }

    /** The order of the canonical text {@code xxxxxxxx-xxxx-...}: unsigned, most significant bits first. */
    static int compareGuids(UUID a, UUID b) {
        int c = Long.compareUnsigned(a.getMostSignificantBits(), b.getMostSignificantBits());
        return c != 0 ? c : Long.compareUnsigned(a.getLeastSignificantBits(), b.getLeastSignificantBits());
    }
}
