package io.tablestream.bench.workload;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.OptionalLong;

/** The resident memory of the server process, from {@code /proc/<pid>/status} (Linux). */
final class ServerMemory {
    private ServerMemory() {
    }

    /**
     * A sample: current resident set (VmRSS) and its peak so far (VmHWM), in KiB.
     *
     * @return the line {@code MEMORY <target> <size> <phase> <rss_MiB> <peak_MiB>}, or one saying n/a
     */
    static String sample(long pid, String target, long size, String phase) {
        if (pid <= 0) {
            return String.format(Locale.ROOT, "MEMORY %s %d %s n/a n/a", target, size, phase);
        }
        Path status = Path.of("/proc", Long.toString(pid), "status");
        try {
            String text = Files.readString(status);
            OptionalLong rss = field(text, "VmRSS:");
            OptionalLong hwm = field(text, "VmHWM:");
            return String.format(Locale.ROOT, "MEMORY %s %d %s %.0f %.0f", target, size, phase,
                    rss.orElse(-1) / 1024.0, hwm.orElse(-1) / 1024.0);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + status + ": is the server (pid " + pid + ") running?", e);
        }
    }

    private static OptionalLong field(String status, String name) {
        for (String line : status.split("\n")) {
            if (line.startsWith(name)) {
                String[] parts = line.substring(name.length()).trim().split("\\s+");
                return OptionalLong.of(Long.parseLong(parts[0]));
            }
        }
        return OptionalLong.empty();
    }
}
