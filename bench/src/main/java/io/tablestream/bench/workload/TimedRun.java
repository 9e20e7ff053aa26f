package io.tablestream.bench.workload;

import io.tablestream.bench.measure.Percentiles;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs one operation on a number of threads: first for a warm-up period (not recorded), then until
 * the measuring period ends or the operation count is reached. Each call gets the next index of a
 * sequence that continues across warm-up and measurement, so writes can derive unique keys from it.
 * Only the request is timed: the answer is checked after the clock stops. The server's and the
 * driver's CPU are sampled when the first thread enters the measured period and after the last ends.
 */
final class TimedRun {
    /** One request; returns what it did and how to check the answer. */
    @FunctionalInterface
    interface Operation {
        Done run(long index) throws Exception;
    }

    /**
     * @param units entities or operations this call counts for
     * @param check run after the clock stopped; throws {@link WrongAnswer} on a wrong answer
     */
    record Done(long units, Runnable check) {
        static Done of(long units) {
            return new Done(units, () -> { });
        }
    }

    /**
     * @param warmUp how long to run before measuring
     * @param duration how long to measure
     * @param maxOperations most measured calls (Long.MAX_VALUE for no limit)
     */
    record Bounds(Duration warmUp, Duration duration, long maxOperations) {
        static Bounds count(long operations) {
            return new Bounds(Duration.ZERO, Duration.ofDays(1), operations);
        }
    }

    private TimedRun() {
    }

    /**
     * Runs {@code operation}; the first exception of any thread stops all of them and is rethrown.
     *
     * @param sequence the index source, shared with whoever needs to know how many calls were made
     */
    static WorkloadResult run(String name, String unit, int threads, Bounds bounds, AtomicLong sequence,
                              CpuMeter cpu, Operation operation) throws Exception {
        long start = System.nanoTime();
        long measureFrom = start + bounds.warmUp().toNanos();
        long measureUntil = measureFrom + bounds.duration().toNanos();
        AtomicLong claimed = new AtomicLong();
        AtomicLong units = new AtomicLong();
        AtomicLong lastEnd = new AtomicLong(measureFrom);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Percentiles latency = new Percentiles();
        AtomicReference<CpuMeter.Sample> cpuFrom =
                new AtomicReference<>(bounds.warmUp().isZero() ? cpu.sample() : null);

        Runnable worker = () -> {
            try {
                while (failure.get() == null) {
                    long now = System.nanoTime();
                    if (now >= measureUntil) {
                        return;
                    }
                    boolean measured = now >= measureFrom;
                    if (measured && cpuFrom.get() == null) {
                        cpuFrom.compareAndSet(null, cpu.sample()); // the first thread into the measured period
                    }
                    if (measured && claimed.incrementAndGet() > bounds.maxOperations()) {
                        return;
                    }
                    long index = sequence.getAndIncrement();
                    long t0 = System.nanoTime();
                    Done done = operation.run(index);
                    long t1 = System.nanoTime();
                    if (measured) {
                        latency.add(t1 - t0);
                        units.addAndGet(done.units());
                        lastEnd.accumulateAndGet(t1, Math::max);
                    }
                    done.check().run();
                }
            } catch (Throwable e) {
                failure.compareAndSet(null, e);
            }
        };
        List<Thread> running = new ArrayList<>(threads);
        for (int i = 0; i < threads; i++) {
            Thread t = new Thread(worker, name + "-" + i);
            t.setDaemon(true);
            t.start();
            running.add(t);
        }
        for (Thread t : running) {
            t.join();
        }
        CpuMeter.Sample cpuTo = cpu.sample();
        Throwable e = failure.get();
        if (e instanceof Exception ex) {
            throw ex;
        } else if (e instanceof Error err) {
            throw err;
        }
        double seconds = Math.max(1e-9, (lastEnd.get() - measureFrom) / 1e9);
        CpuMeter.Sample from = cpuFrom.get() != null ? cpuFrom.get() : cpuTo;
        return new WorkloadResult(name, unit, units.get() / seconds, latency.millis(50), latency.millis(99),
                latency.count(), units.get(), seconds, CpuMeter.serverMicrosPer(from, cpuTo, units.get()),
                CpuMeter.driverCores(from, cpuTo));
    }
}
