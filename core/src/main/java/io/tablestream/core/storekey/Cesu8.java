package io.tablestream.core.storekey;

/**
 * CESU-8: each UTF-16 code unit written on its own in the UTF-8 bit layout, so a surrogate is a
 * three-byte sequence of its own rather than half of a four-byte one. Unlike UTF-8 this keeps
 * {@link String#compareTo} order under unsigned byte comparison, and it is lossless for every
 * string, unpaired surrogates included.
 *
 * <pre>
 *   U+0001..U+007F  0xxxxxxx                    (1 byte,  0x01..0x7F)
 *   U+0080..U+07FF  110xxxxx 10xxxxxx           (2 bytes, lead 0xC2..0xDF)
 *   U+0800..U+FFFF  1110xxxx 10xxxxxx 10xxxxxx  (3 bytes, lead 0xE0..0xEF)
 * </pre>
 *
 * U+0000 has no encoding here: the byte 0x00 is left free for callers to use as a terminator.
 * Decoding is strict: every code unit has exactly one accepted byte sequence, so
 * {@code encode(decode(b))} reproduces {@code b} for every accepted {@code b}.
 */
public final class Cesu8 {
    private Cesu8() {
    }

    /** Bytes {@link #encode(String, byte[], int)} writes for {@code s}. */
    static int encodedLength(String s) {
        int n = 0;
        for (int i = 0; i < s.length(); i++) {
            n += unitLength(s.charAt(i));
        }
        return n;
    }

    public static byte[] encode(String s) {
        byte[] out = new byte[encodedLength(s)];
        encode(s, out, 0);
        return out;
    }

    /**
     * Writes {@code s} into {@code out} from {@code pos} and returns the position after it.
     *
     * @throws IllegalArgumentException when {@code s} holds U+0000
     */
    static int encode(String s, byte[] out, int pos) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                if (c == 0) {
                    throw new IllegalArgumentException("U+0000 at index " + i + " cannot be encoded");
                }
                out[pos++] = (byte) c;
            } else if (c < 0x800) {
                out[pos++] = (byte) (0xC0 | (c >>> 6));
                out[pos++] = (byte) (0x80 | (c & 0x3F));
            } else {
                out[pos++] = (byte) (0xE0 | (c >>> 12));
                out[pos++] = (byte) (0x80 | ((c >>> 6) & 0x3F));
                out[pos++] = (byte) (0x80 | (c & 0x3F));
            }
        }
        return pos;
    }

    /**
     * The string {@code in[from..to)} encodes.
     *
     * @throws IllegalArgumentException when the bytes are not exactly the encoding of a string
     *     (a 0x00, a stray continuation byte, a truncated or overlong sequence, a 4-byte lead)
     */
    public static String decode(byte[] in, int from, int to) {
        char[] out = new char[to - from];
        int n = 0;
        int i = from;
        while (i < to) {
            int b = in[i] & 0xFF;
            if (b >= 0x01 && b <= 0x7F) {
                out[n++] = (char) b;
                i++;
            } else if (b >= 0xC2 && b <= 0xDF) {
                int c1 = continuation(in, i + 1, to);
                out[n++] = (char) (((b & 0x1F) << 6) | c1);
                i += 2;
            } else if (b >= 0xE0 && b <= 0xEF) {
                int c1 = continuation(in, i + 1, to);
                int c2 = continuation(in, i + 2, to);
                int unit = ((b & 0x0F) << 12) | (c1 << 6) | c2;
                if (unit < 0x800) {
                    throw new IllegalArgumentException("overlong sequence at byte " + i);
                }
                out[n++] = (char) unit;
                i += 3;
            } else {
                throw new IllegalArgumentException(String.format("unexpected byte 0x%02X at %d", b, i));
            }
        }
        return new String(out, 0, n);
    }

    private static int continuation(byte[] in, int i, int to) {
        if (i >= to) {
            throw new IllegalArgumentException("truncated sequence at byte " + i);
        }
        int b = in[i] & 0xFF;
        if ((b & 0xC0) != 0x80) {
            throw new IllegalArgumentException(String.format("expected a continuation byte at %d, got 0x%02X", i, b));
        }
        return b & 0x3F;
    }

    private static int unitLength(char c) {
        return c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
    }
}
