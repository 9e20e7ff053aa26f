package io.tablestream.server.warmup;

import java.time.Duration;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link StartupWarmUp} run after the instance reports ready, on a thread of its own, until its time is
 * up or the first request of a client arrives ({@link #arrived}: any account's but the scratch account's),
 * whichever comes first: a client that comes at once meets the instance as it would without a warm-up
 * (the warm-up ends after the request it is waiting for, and deletes its scratch table with one more),
 * and a client that comes a minute later meets an instance whose JIT compiled its hot paths meanwhile.
 *
 * <p>The thread is a daemon at the lowest priority (a hint the JVM ignores on Linux by default: what
 * keeps the warm-up out of a client's way is that it stops). {@link #close} stops it and waits a little
 * for its scratch table's deletion; a {@code kill -9} meanwhile leaves the table, which the next warm-up
 * of the same instance deletes.
 */
public final class AfterReadyWarmUp implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AfterReadyWarmUp.class);
    /** How long {@link #close} waits for the warm-up to delete its scratch table: one write, and the request before it. */
    static final Duration STOP_WAIT = Duration.ofSeconds(3);

    private final StartupWarmUp warmUp;
    private final Thread thread;

    /**
     * A warm-up of the instance serving {@code serviceRoot} for at most {@code budget}, to {@link #start}
     * once its arrivals are watched; {@code ended} is told what it did, on the warm-up's thread, once it
     * has ended.
     */
    public AfterReadyWarmUp(StartupWarmUp warmUp, String serviceRoot, Duration budget,
                            Consumer<StartupWarmUp.Result> ended) {
        this.warmUp = warmUp;
        this.thread = new Thread(() -> ended.accept(warmUp.run(serviceRoot, budget)), "warm-up");
        thread.setDaemon(true);
        thread.setPriority(Thread.MIN_PRIORITY);
    }

    /** Starts the warm-up's thread. */
    public void start() {
        thread.start();
    }

    /**
     * A Table-service request naming {@code account} has arrived: unless it is the warm-up's own (its
     * scratch account, also when another instance forwards the warm-up's reads here), the warm-up stops.
     */
    public void arrived(String account) {
        if (account != null && !account.equals(warmUp.account())) {
            warmUp.stop("a client's first request (account " + account + ")");
        }
    }

    /** Stops the warm-up and waits up to {@link #STOP_WAIT} for it to end (its scratch table deleted). */
    @Override
    public void close() {
        warmUp.stop("the instance stops");
        try {
            thread.join(STOP_WAIT.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (thread.isAlive()) {
            LOG.info("Warm-up: not ended {} ms after the stop; its scratch table may stay until this instance's next"
                    + " warm-up deletes it", STOP_WAIT.toMillis());
        }
    }
}
