package io.tablestream.schemas;

import java.util.Arrays;

/**
 * Bytes written front to back into a growing array: the primitives of the two binary layouts the
 * log carries by hand, Avro's (change events: zig-zag varints, little-endian doubles) and the entity
 * store's ({@link StoredEntityCodec}: also plain varints and big-endian words). One writer, so the
 * two cannot drift apart in how a varint or a word is laid out.
 */
final class ByteWriter {
    private byte[] buf;
    private int pos;

    ByteWriter(int capacity) {
        buf = new byte[capacity];
    }

    private void ensure(int n) {
        if (pos + n > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, pos + n));
        }
    }

    void put(byte b) {
        ensure(1);
        buf[pos++] = b;
    }

    void raw(byte[] b) {
        ensure(b.length);
        System.arraycopy(b, 0, buf, pos, b.length);
        pos += b.length;
    }

    /** An unsigned varint (7 bits a byte, low first). */
    void varint(int v) {
        ensure(5);
        while ((v & ~0x7F) != 0) {
            buf[pos++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        buf[pos++] = (byte) v;
    }

    /** A zig-zag varint: Avro's {@code int} and {@code long}. */
    void varlong(long v) {
        long z = (v << 1) ^ (v >> 63);
        ensure(10);
        while ((z & ~0x7FL) != 0) {
            buf[pos++] = (byte) ((z & 0x7F) | 0x80);
            z >>>= 7;
        }
        buf[pos++] = (byte) z;
    }

    void fixed64BigEndian(long v) {
        ensure(8);
        for (int i = 7; i >= 0; i--) {
            buf[pos++] = (byte) (v >>> (8 * i));
        }
    }

    /** Avro's {@code double} layout. */
    void fixed64LittleEndian(long v) {
        ensure(8);
        for (int i = 0; i < 8; i++) {
            buf[pos++] = (byte) (v >>> (8 * i));
        }
    }

    byte[] toByteArray() {
        return Arrays.copyOf(buf, pos);
    }
}
