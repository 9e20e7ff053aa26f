package io.tablestream.bench.workload;

import io.tablestream.bench.measure.ServerCpu;
import java.lang.management.ManagementFactory;

/**
 * The CPU the server process and this driver's own JVM use over a measured period: the server's from
 * {@code /proc/<pid>/stat} (unknown without a pid), the driver's from its JVM. On a machine the
 * driver shares with the server, the driver's cores say how much of the machine the client took.
 */
final class CpuMeter {
    /** The CPU used so far, at one instant. */
    record Sample(long serverMillis, long driverNanos, long wallNanos) {
    }

    private final long serverPid;
    private final com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    /** @param serverPid the server's process; 0 or less when unknown */
    CpuMeter(long serverPid) {
        this.serverPid = serverPid;
    }

    Sample sample() {
        return new Sample(serverPid > 0 ? ServerCpu.millis(serverPid) : -1, os.getProcessCpuTime(), System.nanoTime());
    }

    /** The server's CPU per unit over {@code from..to} in microseconds; -1 when unknown. */
    static double serverMicrosPer(Sample from, Sample to, long units) {
        if (from.serverMillis() < 0 || units <= 0) {
            return -1;
        }
        return (to.serverMillis() - from.serverMillis()) * 1000.0 / units;
    }

    /** How many cores the driver's JVM used on average over {@code from..to}. */
    static double driverCores(Sample from, Sample to) {
        long wall = Math.max(1, to.wallNanos() - from.wallNanos());
        return (to.driverNanos() - from.driverNanos()) / (double) wall;
    }
}
