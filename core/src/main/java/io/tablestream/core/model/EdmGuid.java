package io.tablestream.core.model;

import java.util.Objects;
import java.util.UUID;

/** {@code Edm.Guid}: a 128-bit identifier, written in lower case. */
public record EdmGuid(UUID value) implements EdmValue {
    public EdmGuid {
        Objects.requireNonNull(value, "value");
    }

    public static EdmGuid of(UUID value) {
        return new EdmGuid(value);
    }

    @Override
    public EdmType type() {
        return EdmType.GUID;
    }

    @Override
    public String toString() {
        return "EdmGuid[" + value + "]";
    }
}
