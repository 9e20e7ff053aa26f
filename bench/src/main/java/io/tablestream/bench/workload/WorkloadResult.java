package io.tablestream.bench.workload;

import java.util.Locale;

/**
 * One measured workload.
 *
 * @param name the workload's label ({@code load} for the initial load)
 * @param unit what {@code rate} counts per second: {@code ops/s} or {@code entities/s}
 * @param operations measured requests (or scans, transactions)
 * @param units measured entities or operations, the numerator of {@code rate}
 * @param p50Millis median latency of one request (one page, for the full scan)
 * @param serverMicrosPerUnit the server process's CPU per unit (entity or operation) over the measured
 *        period, in microseconds; -1 when the server's process is not known
 * @param driverCores the cores this driver's JVM used on average over the measured period
 */
record WorkloadResult(String name, String unit, double rate, double p50Millis, double p99Millis, long operations,
                      long units, double seconds, double serverMicrosPerUnit, double driverCores) {

    /**
     * The machine-readable line: {@code RESULT <target> <size> <workload> <rate> <p50_ms> <p99_ms>
     * <unit> <operations> <seconds> <server_cpu_us_per_unit> <driver_cores>}; the server's CPU is -1
     * when unknown.
     */
    String resultLine(String target, long size) {
        return String.format(Locale.ROOT, "RESULT %s %d %s %.1f %.3f %.3f %s %d %.2f %.0f %.2f", target, size, name,
                rate, p50Millis, p99Millis, unit, operations, seconds, serverMicrosPerUnit, driverCores);
    }

    String summaryLine() {
        String cpu = serverMicrosPerUnit < 0 ? "" : String.format(Locale.ROOT, ", server %.0f us CPU a unit",
                serverMicrosPerUnit);
        return String.format(Locale.ROOT, "  %-15s %12.1f %-10s  p50 %8.2f ms  p99 %8.2f ms  (%d requests in %.1f s%s,"
                + " driver %.2f cores)", name, rate, unit, p50Millis, p99Millis, operations, seconds, cpu, driverCores);
    }
}
