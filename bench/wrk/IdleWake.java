import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;

/**
 * What a pause costs this machine, with nothing of Tablestream's or Kafka's: after each pause of a
 * given length (the thread asleep, or spinning in place of the sleep),
 * <ul>
 *   <li>{@code hops}: a chain of HOPS threads, each woken by the one before it (park and unpark, as a
 *       write's threads hand it over): the time from the first unpark to the last thread running, per hop;</li>
 *   <li>{@code work}: one thread runs the same fixed work (a walk over {@code -Dwork.kib} KiB of memory,
 *       256 by default, in a random order, and arithmetic): its wall-clock time and its CPU time.</li>
 * </ul>
 * Usage: {@code java [-Dwork.kib=256] bench/wrk/IdleWake.java [seconds per pause] [pause µs...]} (3 s;
 * 0 100 300 1000 3000).
 * Prints per pause and kind the median and mean, and each against the pause 0.
 */
public final class IdleWake {
    private static final int HOPS = 8;
    private static final int WORK_KIB = Integer.getInteger("work.kib", 256);
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private static volatile long woken;
    private static final int[] NEXT = ring(WORK_KIB * 1024 / 4);

    public static void main(String[] args) throws Exception {
        double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 3;
        long[] pauses = args.length > 1 ? Arrays.stream(args, 1, args.length).mapToLong(Long::parseLong).toArray()
                : new long[] {0, 100, 300, 1000, 3000};
        System.out.printf("IdleWake: %d cores, %d hops, work over %d KiB; %.1f s per pause%n",
                Runtime.getRuntime().availableProcessors(), HOPS, WORK_KIB, seconds);
        measure(pauses, seconds / 3, false, false); // warm the code first, unreported
        for (boolean spin : new boolean[] {false, true}) {
            measure(pauses, seconds, spin, true);
        }
    }

    private static void measure(long[] pauses, double seconds, boolean spin, boolean report) throws Exception {
        double[] base = null;
        for (long pauseMicros : pauses) {
            double[] hops = hops(pauseMicros, seconds / 2, spin);
            double[][] work = work(pauseMicros, seconds / 2, spin);
            double[] now = {median(hops), mean(hops), median(work[0]), mean(work[0]), median(work[1])};
            if (base == null) {
                base = now;
            }
            if (report) {
                System.out.printf("pause %5d µs %s: hop p50 %6.1f µs mean %6.1f (%.2fx) | work wall p50 %6.1f µs mean %6.1f (%.2fx), "
                                + "CPU p50 %6.1f µs (%.2fx)%n", pauseMicros, spin ? "spun " : "slept",
                        now[0], now[1], now[0] / base[0], now[2], now[3], now[2] / base[2], now[4], now[4] / base[4]);
            }
        }
    }

    /** Per round: the mean time per hop, from the first unpark to the last thread of the chain running. */
    private static double[] hops(long pauseMicros, double seconds, boolean spin) throws Exception {
        Thread[] chain = new Thread[HOPS];
        long[] arrived = new long[1];
        Thread driver = Thread.currentThread();
        for (int i = HOPS - 1; i >= 0; i--) {
            int index = i;
            chain[i] = new Thread(() -> {
                while (!Thread.currentThread().isInterrupted()) {
                    LockSupport.park();
                    if (woken != index) {
                        continue; // a spurious return
                    }
                    if (index == HOPS - 1) {
                        arrived[0] = System.nanoTime();
                        woken = -1;
                        LockSupport.unpark(driver);
                    } else {
                        woken = index + 1;
                        LockSupport.unpark(chain[index + 1]);
                    }
                }
            }, "hop-" + i);
            chain[i].setDaemon(true);
            chain[i].start();
        }
        double[] out = new double[1 << 16];
        int n = 0;
        long end = System.nanoTime() + (long) (seconds * 1e9);
        while (System.nanoTime() < end && n < out.length) {
            pause(pauseMicros, spin);
            long start = System.nanoTime();
            woken = 0;
            LockSupport.unpark(chain[0]);
            while (woken != -1) {
                LockSupport.park();
            }
            out[n++] = (arrived[0] - start) / 1e3 / HOPS;
        }
        for (Thread t : chain) {
            t.interrupt();
        }
        return Arrays.copyOf(out, n);
    }

    /** Per round: the fixed work's wall-clock time and its CPU time, in µs. */
    private static double[][] work(long pauseMicros, double seconds, boolean spin) {
        double[] wall = new double[1 << 16];
        double[] cpu = new double[1 << 16];
        int n = 0;
        long sink = 0;
        long end = System.nanoTime() + (long) (seconds * 1e9);
        while (System.nanoTime() < end && n < wall.length) {
            pause(pauseMicros, spin);
            long c0 = THREADS.getCurrentThreadCpuTime();
            long t0 = System.nanoTime();
            sink += walk();
            long t1 = System.nanoTime();
            long c1 = THREADS.getCurrentThreadCpuTime();
            wall[n] = (t1 - t0) / 1e3;
            cpu[n++] = (c1 - c0) / 1e3;
        }
        if (sink == 42) {
            System.out.print("");
        }
        return new double[][] {Arrays.copyOf(wall, n), Arrays.copyOf(cpu, n)};
    }

    private static long walk() {
        long h = 0;
        int i = 0;
        for (int k = 0; k < NEXT.length; k++) {
            i = NEXT[i];
            h = h * 31 + i;
        }
        return h;
    }

    private static void pause(long micros, boolean spin) {
        if (micros == 0) {
            return;
        }
        long until = System.nanoTime() + micros * 1000;
        if (spin) {
            while (System.nanoTime() < until) {
                Thread.onSpinWait();
            }
        } else {
            while (System.nanoTime() < until) {
                LockSupport.parkNanos(until - System.nanoTime());
            }
        }
    }

    /** A single cycle through all indices in a random order (Sattolo's shuffle). */
    private static int[] ring(int size) {
        int[] next = new int[size];
        for (int i = 0; i < size; i++) {
            next[i] = i;
        }
        java.util.Random random = new java.util.Random(7);
        for (int i = size - 1; i > 0; i--) {
            int j = random.nextInt(i);
            int t = next[i];
            next[i] = next[j];
            next[j] = t;
        }
        return next;
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted.length == 0 ? Double.NaN : sorted[sorted.length / 2];
    }

    private static double mean(double[] values) {
        return Arrays.stream(values).average().orElse(Double.NaN);
    }
}
