package io.tablestream.bench.measure;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The CPU this JVM's threads used, by group (stream threads, the tasks' producers, the broker's
 * handlers, ...), for a benchmark that runs the broker, the processor and its client in one process.
 * What no Java thread accounts for (GC, JIT, the VM's own threads) is the process's total less theirs.
 */
public final class ThreadCpu {
    /** Groups by thread name, first match wins: the file {@code bench/wrk/threads.py} reads for a server's threads. */
    private static final List<Map.Entry<String, Pattern>> GROUPS = groups();

    private final Map<String, Long> nanos;
    private final long processMillis;

    private ThreadCpu(Map<String, Long> nanos, long processMillis) {
        this.nanos = nanos;
        this.processMillis = processMillis;
    }

    /** Each group's CPU so far, and the process's. */
    public static ThreadCpu now() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Map<String, Long> byGroup = new LinkedHashMap<>();
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info == null) {
                continue;
            }
            long cpu = threads.getThreadCpuTime(info.getThreadId());
            if (cpu > 0) {
                byGroup.merge(groupOf(info.getThreadName()), cpu, Long::sum);
            }
        }
        return new ThreadCpu(byGroup, ServerCpu.millis(ProcessHandle.current().pid()));
    }

    /**
     * Microseconds per {@code operations} between {@code before} and this snapshot: the process's
     * total, then each group's (threads that ended in between are not counted in their group).
     */
    public String perOperationSince(ThreadCpu before, long operations) {
        StringBuilder s = new StringBuilder(String.format("process %.1f µs", (processMillis - before.processMillis)
                * 1000.0 / operations));
        long javaThreads = 0;
        for (Map.Entry<String, Long> e : nanos.entrySet()) {
            long used = e.getValue() - before.nanos.getOrDefault(e.getKey(), 0L);
            javaThreads += used;
            s.append(String.format("; %s %.1f", e.getKey(), used / 1000.0 / operations));
        }
        s.append(String.format("; GC/JIT/VM (the rest) %.1f",
                ((processMillis - before.processMillis) * 1_000_000.0 - javaThreads) / 1000.0 / operations));
        return s.toString();
    }

    private static List<Map.Entry<String, Pattern>> groups() {
        try (InputStream in = ThreadCpu.class.getResourceAsStream("thread-groups.tsv")) {
            if (in == null) {
                throw new IllegalStateException("thread-groups.tsv is missing from the benchmarks' classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                    .filter(line -> !line.isBlank() && !line.startsWith("#"))
                    .map(line -> line.split("\t", 2))
                    .map(f -> Map.entry(f[0], Pattern.compile(f[1])))
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String groupOf(String name) {
        for (Map.Entry<String, Pattern> g : GROUPS) {
            if (g.getValue().matcher(name).find()) {
                return g.getKey();
            }
        }
        return "other";
    }
}
