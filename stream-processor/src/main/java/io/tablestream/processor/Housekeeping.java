package io.tablestream.processor;

import java.time.Duration;
import java.util.Objects;

/**
 * The background work each task does between commands, on its stream thread: how often and how
 * much per round. A round is bounded so that it never holds up the commands behind it for long.
 *
 * @param expiryInterval how often a task deletes its expired entities (TTL)
 * @param expiryBatch at most this many expired entities per task and round
 * @param sweepInterval how often a task sweeps the rows of deleted tables and history past its retention
 * @param sweepBatch at most this many rows (or history versions examined) per task, round and sweep
 * @param indexBuildInterval how often a task builds new secondary indexes over existing rows (and sweeps dropped ones)
 * @param indexBuildBatch at most this many rows or index entries per task and round
 * @param jobStepBatch at most this many rows (or history versions) one step of a job (a restore, a
 *     deletion by filter) examines in a task; the step is a record of the log, decided between the
 *     partition's other commands
 */
public record Housekeeping(Duration expiryInterval, int expiryBatch, Duration sweepInterval, int sweepBatch,
                           Duration indexBuildInterval, int indexBuildBatch, int jobStepBatch) {
    /** Rows one job step examines per task by default: a few milliseconds of a stream thread. */
    public static final int DEFAULT_JOB_STEP_BATCH = 1000;
    /**
     * Expiry every second (1,000 entities), sweeps every 5 s (5,000 rows), index builds every 20 ms
     * (2,000 rows: about 100,000 rows a second per idle task, each round a few milliseconds), job
     * steps of 1,000 rows.
     */
    public static final Housekeeping DEFAULTS = new Housekeeping(Duration.ofSeconds(1), 1000, Duration.ofSeconds(5),
            5000, Duration.ofMillis(20), 2000, DEFAULT_JOB_STEP_BATCH);

    public Housekeeping(Duration expiryInterval, int expiryBatch, Duration sweepInterval, int sweepBatch,
                        Duration indexBuildInterval, int indexBuildBatch) {
        this(expiryInterval, expiryBatch, sweepInterval, sweepBatch, indexBuildInterval, indexBuildBatch,
                DEFAULT_JOB_STEP_BATCH);
    }

    public Housekeeping {
        for (Duration d : new Duration[] {Objects.requireNonNull(expiryInterval, "expiryInterval"),
                Objects.requireNonNull(sweepInterval, "sweepInterval"),
                Objects.requireNonNull(indexBuildInterval, "indexBuildInterval")}) {
            if (d.toMillis() < 1) {
                throw new IllegalArgumentException("housekeeping intervals must be at least 1 ms: " + d);
            }
        }
        if (expiryBatch < 1 || sweepBatch < 1 || indexBuildBatch < 1 || jobStepBatch < 1) {
            throw new IllegalArgumentException("housekeeping batch sizes must be positive");
        }
    }

    public Housekeeping withExpiry(Duration interval, int batch) {
        return new Housekeeping(interval, batch, sweepInterval, sweepBatch, indexBuildInterval, indexBuildBatch,
                jobStepBatch);
    }

    public Housekeeping withSweep(Duration interval, int batch) {
        return new Housekeeping(expiryInterval, expiryBatch, interval, batch, indexBuildInterval, indexBuildBatch,
                jobStepBatch);
    }

    public Housekeeping withIndexBuild(Duration interval, int batch) {
        return new Housekeeping(expiryInterval, expiryBatch, sweepInterval, sweepBatch, interval, batch,
                jobStepBatch);
    }

    public Housekeeping withJobSteps(int batch) {
        return new Housekeeping(expiryInterval, expiryBatch, sweepInterval, sweepBatch, indexBuildInterval,
                indexBuildBatch, batch);
    }
}
