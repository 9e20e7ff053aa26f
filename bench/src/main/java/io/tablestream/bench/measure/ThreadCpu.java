package io.tablestream.bench.measure;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The CPU this JVM's threads used, by group (stream threads, the tasks' producers, the broker's
 * handlers, ...), for a benchmark that runs the broker, the processor and its client in one process,
 * and the bytes they allocated. The VM's own threads are no Java threads: the garbage collector's and
 * the JIT compilers' are read from {@code /proc/self/task} by name (Linux), and what no thread above
 * accounts for (the VM's other threads, threads that ended) is the process's total less theirs.
 */
public final class ThreadCpu {
    /** Groups by thread name, first match wins: the file {@code bench/wrk/threads.py} reads for a server's threads. */
    private static final List<Map.Entry<String, Pattern>> GROUPS = groups();

    /** The VM's own threads by their name in {@code /proc}: the garbage collector's, then the JIT compilers'. */
    private static final List<Map.Entry<String, Pattern>> VM_THREADS = List.of(
            Map.entry("GC", Pattern.compile("^(GC Thread|G1 )")),
            Map.entry("JIT", Pattern.compile("^C[12] Compiler")));

    private final Map<String, Long> nanos;
    private final Map<String, Long> allocated;
    private final Map<String, Long> vmMillis;
    private final long processMillis;

    private ThreadCpu(Map<String, Long> nanos, Map<String, Long> allocated, Map<String, Long> vmMillis,
                      long processMillis) {
        this.nanos = nanos;
        this.allocated = allocated;
        this.vmMillis = vmMillis;
        this.processMillis = processMillis;
    }

    /** Each group's CPU so far, and the process's. */
    public static ThreadCpu now() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Map<String, Long> byGroup = new LinkedHashMap<>();
        Map<String, Long> allocated = new LinkedHashMap<>();
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info == null) {
                continue;
            }
            String group = groupOf(info.getThreadName());
            long cpu = threads.getThreadCpuTime(info.getThreadId());
            if (cpu > 0) {
                byGroup.merge(group, cpu, Long::sum);
            }
            if (threads instanceof com.sun.management.ThreadMXBean counting) {
                long bytes = counting.getThreadAllocatedBytes(info.getThreadId());
                if (bytes > 0) {
                    allocated.merge(group, bytes, Long::sum);
                }
            }
        }
        return new ThreadCpu(byGroup, allocated, vmThreadMillis(), ServerCpu.millis(ProcessHandle.current().pid()));
    }

    /** The CPU of the VM's own threads so far, by {@link #VM_THREADS}, in milliseconds; empty where there is no {@code /proc}. */
    private static Map<String, Long> vmThreadMillis() {
        Map<String, Long> millis = new LinkedHashMap<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path task : tasks) {
                String stat;
                try {
                    stat = Files.readString(task.resolve("stat"));
                } catch (IOException ended) {
                    continue;
                }
                String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                for (Map.Entry<String, Pattern> kind : VM_THREADS) {
                    if (kind.getValue().matcher(name).find()) {
                        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                        long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
                        millis.merge(kind.getKey(), ticks * 1000 / ServerCpu.TICKS_PER_SECOND, Long::sum);
                        break;
                    }
                }
            }
        } catch (IOException | UncheckedIOException noProc) {
            millis.clear();
        }
        return millis;
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
        long vmThreads = 0;
        for (Map.Entry<String, Pattern> kind : VM_THREADS) {
            long used = vmMillis.getOrDefault(kind.getKey(), 0L) - before.vmMillis.getOrDefault(kind.getKey(), 0L);
            vmThreads += used;
            s.append(String.format("; %s %.1f", kind.getKey(), used * 1000.0 / operations));
        }
        s.append(String.format("; VM (the rest) %.1f",
                ((processMillis - before.processMillis - vmThreads) * 1_000_000.0 - javaThreads) / 1000.0 / operations));
        return s.toString();
    }

    /**
     * Bytes allocated per {@code operations} between {@code before} and this snapshot, by group of
     * Java threads, and in all (threads that ended in between are not counted).
     */
    public String allocatedPerOperationSince(ThreadCpu before, long operations) {
        StringBuilder s = new StringBuilder();
        long all = 0;
        for (Map.Entry<String, Long> e : allocated.entrySet()) {
            long bytes = e.getValue() - before.allocated.getOrDefault(e.getKey(), 0L);
            all += bytes;
            s.append(String.format("; %s %,.0f", e.getKey(), (double) bytes / operations));
        }
        return String.format("all %,.0f B", (double) all / operations) + s;
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
