package io.tablestream.server;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/** Table names no other test of the run uses: a readable prefix, this run's id and a sequence number. */
public final class TableNames {
    private static final String RUN = Long.toString(ThreadLocalRandom.current().nextLong(36L * 36 * 36 * 36), 36);
    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    private TableNames() {
    }

    /** {@code prefix} (letters, starting the name), then this run's id and a sequence number: {@code Merge3fz9x12}. */
    public static String unique(String prefix) {
        return prefix + RUN + "x" + SEQUENCE.incrementAndGet();
    }

    /**
     * As {@link #unique(String)}, padded with {@code z} to exactly {@code length} characters (the
     * sequence number's digits end where the padding starts, so the names stay distinct): for a test
     * whose requests depend on its names' length (a seeded fuzz), which must not change with how many
     * tests ran before it in the same JVM.
     */
    public static String unique(String prefix, int length) {
        String name = unique(prefix);
        if (name.length() > length) {
            throw new IllegalStateException(name + " is longer than " + length + " characters");
        }
        return name + "z".repeat(length - name.length());
    }
}
