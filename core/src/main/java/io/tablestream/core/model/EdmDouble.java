package io.tablestream.core.model;

/**
 * {@code Edm.Double}: a 64-bit IEEE 754 value, NaN and the infinities included. Equality is
 * {@link Double#compare}'s (NaN equals NaN; 0.0 and -0.0 differ), as for any record.
 */
public record EdmDouble(double value) implements EdmValue {
    public static EdmDouble of(double value) {
        return new EdmDouble(value);
    }

    @Override
    public EdmType type() {
        return EdmType.DOUBLE;
    }
}
