package io.tablestream.bench.measure;

import java.util.Arrays;

/** Latency samples in nanoseconds, reported in milliseconds. */
public final class Percentiles {
    private long[] samples = new long[1024];
    private int count;

    public synchronized void add(long nanos) {
        if (count == samples.length) {
            samples = Arrays.copyOf(samples, count * 2);
        }
        samples[count++] = nanos;
    }

    public synchronized double millis(double percentile) {
        if (count == 0) {
            return Double.NaN;
        }
        long[] sorted = Arrays.copyOf(samples, count);
        Arrays.sort(sorted);
        int index = (int) Math.min(count - 1, Math.ceil(percentile / 100.0 * count) - 1);
        return sorted[Math.max(0, index)] / 1e6;
    }

    public synchronized int count() {
        return count;
    }
}
