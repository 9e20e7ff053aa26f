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
 */
record WorkloadResult(String name, String unit, double rate, double p50Millis, double p99Millis, long operations,
                      long units, double seconds) {

    /**
     * The machine-readable line: {@code RESULT <target> <size> <workload> <rate> <p50_ms> <p99_ms>
     * <unit> <operations> <seconds>}.
     */
    String resultLine(String target, long size) {
        return String.format(Locale.ROOT, "RESULT %s %d %s %.1f %.3f %.3f %s %d %.2f", target, size, name, rate,
                p50Millis, p99Millis, unit, operations, seconds);
    }

    String summaryLine() {
        return String.format(Locale.ROOT, "  %-15s %12.1f %-10s  p50 %8.2f ms  p99 %8.2f ms  (%d requests in %.1f s)",
                name, rate, unit, p50Millis, p99Millis, operations, seconds);
    }
}
