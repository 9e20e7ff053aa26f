package io.tablestream.core.model;

/** {@code Edm.Int32}: a 32-bit signed integer. */
public record EdmInt32(int value) implements EdmValue {
    public static EdmInt32 of(int value) {
        return new EdmInt32(value);
    }

    @Override
    public EdmType type() {
        return EdmType.INT32;
    }
}
