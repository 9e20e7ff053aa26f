package io.tablestream.core.model;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;

/** {@code Edm.Binary}: an immutable byte array (base64 on the wire). */
public final class EdmBinary implements EdmValue {
    private final byte[] bytes;

    private EdmBinary(byte[] bytes) {
        this.bytes = bytes;
    }

    /** A value holding a copy of {@code bytes}. */
    public static EdmBinary of(byte[] bytes) {
        return new EdmBinary(Objects.requireNonNull(bytes, "bytes").clone());
    }

    /** A copy of the bytes. */
    public byte[] toByteArray() {
        return bytes.clone();
    }

    public int length() {
        return bytes.length;
    }

    public byte byteAt(int index) {
        return bytes[index];
    }

    /** Unsigned lexicographic comparison, the order {@code $filter} uses for binary values. */
    public int compareTo(EdmBinary other) {
        return Arrays.compareUnsigned(bytes, other.bytes);
    }

    @Override
    public EdmType type() {
        return EdmType.BINARY;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof EdmBinary other && Arrays.equals(bytes, other.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
        return "EdmBinary[" + (bytes.length <= 32 ? HexFormat.of().formatHex(bytes) : bytes.length + " bytes") + "]";
    }
}
