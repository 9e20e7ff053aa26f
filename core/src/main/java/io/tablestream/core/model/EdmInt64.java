package io.tablestream.core.model;

/** {@code Edm.Int64}: a 64-bit signed integer (a JSON string on the wire). */
public record EdmInt64(long value) implements EdmValue {
    public static EdmInt64 of(long value) {
        return new EdmInt64(value);
    }

    @Override
    public EdmType type() {
        return EdmType.INT64;
    }
}
