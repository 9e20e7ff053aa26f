package io.tablestream.server.operate;

import io.tablestream.query.kafka.AdminSettings;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;

/**
 * Whether the Kafka cluster answers: asks it to describe itself every {@code interval} (waiting at
 * most that long), on a timer of its own, so that a readiness check only reads the last answer
 * and never waits on the network.
 */
final class BrokerProbe implements AutoCloseable {
    /** The last look: when it answered (System.nanoTime), how many brokers, or why it did not. */
    record Look(boolean reachable, int brokers, String error, long atNanos) {
    }

    private final Admin admin;
    private final Duration interval;
    private final ScheduledExecutorService timer;
    private volatile Look last = new Look(false, 0, "not checked yet", System.nanoTime());

    /** @param clientSettings the Kafka client settings every client gets (security among them); admin ones are taken */
    BrokerProbe(String bootstrapServers, Map<String, String> clientSettings, Duration interval) {
        int timeoutMs = (int) Math.max(100, interval.toMillis());
        this.admin = Admin.create(AdminSettings.of(bootstrapServers, "tablestream-health", timeoutMs, clientSettings));
        this.interval = interval;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "health-broker-probe");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleWithFixedDelay(this::look, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void look() {
        try {
            int brokers = admin.describeCluster(new DescribeClusterOptions().timeoutMs((int) interval.toMillis()))
                    .nodes().get(interval.toMillis() + 500, TimeUnit.MILLISECONDS).size();
            last = new Look(true, brokers, null, System.nanoTime());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            last = new Look(false, 0, cause.getClass().getSimpleName() + ": " + cause.getMessage(), System.nanoTime());
        }
    }

    /**
     * The last look, if recent: a look older than three intervals (the probe itself is stuck) counts
     * as unreachable.
     */
    Look last() {
        Look l = last;
        long age = System.nanoTime() - l.atNanos();
        if (l.reachable() && age > 3 * interval.toNanos()) {
            return new Look(false, 0, "no answer for " + TimeUnit.NANOSECONDS.toMillis(age) + " ms", l.atNanos());
        }
        return l;
    }

    @Override
    public void close() {
        timer.shutdownNow();
        admin.close(Duration.ofSeconds(2));
    }
}
