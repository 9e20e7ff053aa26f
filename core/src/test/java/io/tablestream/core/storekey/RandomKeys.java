package io.tablestream.core.storekey;

import io.tablestream.core.rules.Keys;
import java.util.Random;

/**
 * Seeded generator of PartitionKeys and RowKeys biased to where an order-preserving encoding
 * breaks: the empty key, 512-character keys, keys that are prefixes of each other, characters at
 * the edges of the forbidden ranges and of the 1/2/3-byte encodings, BMP characters above U+E000
 * next to surrogate pairs, and unpaired surrogates.
 */
public final class RandomKeys {
    static final int MAX_KEY_CHARS = 512;

    /** Characters at the edges that matter: forbidden-range neighbours and encoding-length edges. */
    private static final char[] EDGES = {
        ' ', '!', '"', '$', '.', '0', '>', '@', 'A', '[', ']', '~',
        '\u00A0', '\u00A1', '\u00FF', '\u0100', '\u07FF', '\u0800', '\u0801',
        '\uD7FF', '\uE000', '\uE001', '\uF8FF', '\uFB01', '\uFFFD', '\uFFFE', '\uFFFF',
    };
    /** A tiny alphabet so that independent keys collide, share prefixes and extend one another. */
    private static final char[] SMALL = {'a', 'b', ' ', '\uE000', '\u00E9'};
    /** Characters a key may not hold but a {@code $filter} bound may. */
    private static final char[] FORBIDDEN = {
        '\u0000', '\u0001', '\u001F', '/', '\\', '#', '?', '\u007F', '\u0080', '\u009F',
    };

    private final Random random;

    public RandomKeys(long seed) {
        this.random = new Random(seed);
    }

    public Random random() {
        return random;
    }

    /** A valid key. */
    public String key() {
        int roll = random.nextInt(100);
        int length;
        if (roll < 12) {
            length = 0;
        } else if (roll < 70) {
            length = 1 + random.nextInt(4);
        } else if (roll < 92) {
            length = 5 + random.nextInt(20);
        } else if (roll < 96) {
            length = MAX_KEY_CHARS;
        } else {
            length = MAX_KEY_CHARS - 1 - random.nextInt(3);
        }
        String key = fill(new StringBuilder(length), length).toString();
        if (!Keys.isValid(key)) {
            throw new AssertionError("generator made an invalid key: " + escape(key));
        }
        return key;
    }

    /** A valid key related to {@code other}: the same, a prefix, an extension, one unit changed, or new. */
    public String near(String other) {
        int roll = random.nextInt(100);
        if (roll < 15) {
            return other;
        }
        if (roll < 35 && !other.isEmpty()) {
            return other.substring(0, random.nextInt(other.length()));
        }
        if (roll < 55 && other.length() < MAX_KEY_CHARS) {
            int extra = 1 + random.nextInt(Math.min(3, MAX_KEY_CHARS - other.length()));
            return fill(new StringBuilder(other), other.length() + extra).toString();
        }
        if (roll < 80 && !other.isEmpty()) {
            StringBuilder sb = new StringBuilder(other);
            int at = random.nextInt(other.length());
            sb.setCharAt(at, validChar());
            return sb.toString();
        }
        return key();
    }

    /**
     * A range bound: usually a valid key or one near {@code around}, sometimes a string no key can
     * be (holding U+0000, '/', control characters, or longer than 512).
     */
    String bound(String around) {
        int roll = random.nextInt(100);
        if (roll < 45) {
            return near(around);
        }
        if (roll < 75) {
            return key();
        }
        StringBuilder sb = new StringBuilder(random.nextBoolean() ? around : key());
        int inserts = 1 + random.nextInt(2);
        for (int i = 0; i < inserts; i++) {
            char ch = FORBIDDEN[random.nextInt(FORBIDDEN.length)];
            sb.insert(random.nextInt(sb.length() + 1), ch);
        }
        if (random.nextInt(10) == 0) {
            sb.append("x".repeat(MAX_KEY_CHARS));
        }
        return sb.toString();
    }

    /** One code unit a key may hold (surrogates may come out unpaired). */
    char validChar() {
        int roll = random.nextInt(100);
        if (roll < 25) {
            return EDGES[random.nextInt(EDGES.length)];
        }
        if (roll < 45) {
            return SMALL[random.nextInt(SMALL.length)];
        }
        if (roll < 65) {
            char c;
            do {
                c = (char) (0x20 + random.nextInt(0x7F - 0x20));
            } while (!Keys.isAllowed(c));
            return c;
        }
        if (roll < 75) {
            return (char) (0xA0 + random.nextInt(0x800 - 0xA0));
        }
        if (roll < 90) {
            return random.nextBoolean()
                    ? (char) (0x800 + random.nextInt(0xD800 - 0x800))
                    : (char) (0xE000 + random.nextInt(0x10000 - 0xE000));
        }
        return (char) (0xD800 + random.nextInt(0x800)); // a lone high or low surrogate
    }

    private StringBuilder fill(StringBuilder sb, int length) {
        while (sb.length() < length) {
            if (random.nextInt(6) == 0 && sb.length() + 2 <= length) {
                int supplementary = 0x10000 + random.nextInt(0x110000 - 0x10000);
                sb.appendCodePoint(supplementary);
            } else {
                sb.append(validChar());
            }
        }
        return sb;
    }

    /** {@code s} printable, its first 40 code units only (failure messages stay readable). */
    public static String escape(String s) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < Math.min(s.length(), 40); i++) {
            char c = s.charAt(i);
            if (c >= 0x20 && c < 0x7F) {
                sb.append(c);
            } else {
                sb.append(String.format("\\u%04X", (int) c));
            }
        }
        return s.length() > 40 ? sb + "…(" + s.length() + " units)" : sb.toString();
    }
}
