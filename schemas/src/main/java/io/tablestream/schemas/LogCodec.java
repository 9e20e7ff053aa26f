package io.tablestream.schemas;

/**
 * Turns a domain record into the bytes of a log record and back. Decoding rejects bytes that are
 * not a record of this kind (wrong header, unknown schema, corrupt body, invalid content) with a
 * {@link LogFormatException}; it never returns a half-read value.
 */
public interface LogCodec<T> {
    byte[] encode(T value);

    T decode(byte[] bytes);
}
