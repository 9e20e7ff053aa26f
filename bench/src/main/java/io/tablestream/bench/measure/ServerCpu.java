package io.tablestream.bench.measure;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The CPU time a server process has used, from {@code /proc/<pid>/stat} (Linux): user and system
 * time of all its threads, in clock ticks (100 a second on Linux' usual configuration).
 */
public final class ServerCpu {
    /** Clock ticks per second of {@code /proc} (USER_HZ, 100 on every mainstream Linux). */
    public static final int TICKS_PER_SECOND = 100;

    private ServerCpu() {
    }

    /** User plus system CPU time of process {@code pid} so far, in milliseconds. */
    public static long millis(long pid) {
        Path stat = Path.of("/proc", Long.toString(pid), "stat");
        try {
            String text = Files.readString(stat);
            // the command name (field 2) is in parentheses and may hold spaces: count fields after it
            String[] fields = text.substring(text.lastIndexOf(')') + 2).split(" ");
            long utime = Long.parseLong(fields[11]);
            long stime = Long.parseLong(fields[12]);
            return (utime + stime) * 1000 / TICKS_PER_SECOND;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + stat + ": is the server (pid " + pid + ") running?", e);
        }
    }
}
