package io.tablestream.core.model;

/** {@code Edm.Boolean}. */
public record EdmBoolean(boolean value) implements EdmValue {
    public static final EdmBoolean TRUE = new EdmBoolean(true);
    public static final EdmBoolean FALSE = new EdmBoolean(false);

    public static EdmBoolean of(boolean value) {
        return value ? TRUE : FALSE;
    }

    @Override
    public EdmType type() {
        return EdmType.BOOLEAN;
    }
}
