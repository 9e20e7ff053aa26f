package io.tablestream.core.model;

import java.util.Objects;

/** {@code Edm.String}: a UTF-16 string. */
public record EdmString(String value) implements EdmValue {
    public EdmString {
        Objects.requireNonNull(value, "value");
    }

    public static EdmString of(String value) {
        return new EdmString(value);
    }

    @Override
    public EdmType type() {
        return EdmType.STRING;
    }
}
