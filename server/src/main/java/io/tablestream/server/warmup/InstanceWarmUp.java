package io.tablestream.server.warmup;

import io.tablestream.protocol.http.TableServiceEndpoint;
import io.tablestream.server.operate.Operations;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An instance's warm-up as its settings ask ({@link WarmUpTimes}): none, one before it reports ready
 * (readiness held back meanwhile: a {@code warm-up} check, down), or one after, in the background
 * ({@link AfterReadyWarmUp}; the {@code warm-up} check up meanwhile). Either way the check's detail
 * ends up saying what the warm-up did.
 */
public final class InstanceWarmUp implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(InstanceWarmUp.class);

    /** The warm-up's requests; null when there is none. */
    private final StartupWarmUp warmUp;
    private final WarmUpTimes times;
    /** Where readiness shows it: the {@code warm-up} check. */
    private final Operations operations;
    /** The one after ready, once begun. */
    private AfterReadyWarmUp afterReady;

    private InstanceWarmUp(StartupWarmUp warmUp, WarmUpTimes times, Operations operations) {
        this.warmUp = warmUp;
        this.times = times;
        this.operations = operations;
    }

    /**
     * The warm-up {@code times} ask for with the cluster's scratch account {@code scratch} (null: none, a
     * configured account has its name), to be begun once the HTTP port serves: none over HTTPS (it speaks
     * plain HTTP). One before ready holds {@code operations}' readiness back from now on.
     */
    public static InstanceWarmUp plan(StartupWarmUp scratch, WarmUpTimes times, boolean https, Operations operations) {
        if (https && !times.none()) {
            LOG.info("No warm-up: it speaks plain HTTP, and the port serves HTTPS");
        }
        InstanceWarmUp plan = new InstanceWarmUp(times.none() || https ? null : scratch, times, operations);
        if (plan.warmUp != null && !times.beforeReady().isZero()) {
            operations.warmingUp("warming up for at most " + times.beforeReady().toSeconds() + " s (warm-up-seconds)");
        }
        return plan;
    }

    /**
     * Begins the warm-up of the instance serving {@code serviceRoot} over plain HTTP (e.g.
     * {@code http://127.0.0.1:10002}) through {@code endpoint}: returns once one before ready has ended,
     * at once for one after ready (which {@code endpoint}'s arrivals then stop).
     */
    public void begin(String serviceRoot, TableServiceEndpoint endpoint) {
        if (warmUp == null) {
            return;
        }
        if (!times.afterReadyOnly()) {
            operations.warmedUp(detail(warmUp.run(serviceRoot, times.beforeReady())));
            return;
        }
        operations.warmedUp("warming up after ready for at most " + times.afterReady().toSeconds()
                + " s, until a client's first request (warm-up-after-ready-seconds)");
        afterReady = new AfterReadyWarmUp(warmUp, serviceRoot, times.afterReady(), result -> {
            endpoint.onArrival(null);
            operations.warmedUp(detail(result));
        });
        endpoint.onArrival(afterReady::arrived); // before it starts: its end takes the listener away
        afterReady.start();
    }

    private static String detail(StartupWarmUp.Result result) {
        return result.writes() + " writes and " + result.reads() + " reads in " + result.took().toMillis() + " ms ("
                + result.ended() + ")";
    }

    /** Stops a warm-up running after ready ({@link AfterReadyWarmUp#close}). */
    @Override
    public void close() {
        if (afterReady != null) {
            afterReady.close();
        }
    }
}
