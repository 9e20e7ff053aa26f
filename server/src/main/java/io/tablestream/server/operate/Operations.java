package io.tablestream.server.operate;

import io.tablestream.processor.StreamProcessor;
import io.tablestream.protocol.http.InternalAccess;
import io.tablestream.protocol.http.TableServiceEndpoint;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Map;

/**
 * Mounts what operators and users need besides the Table service, under {@code /_} (no account name
 * starts with {@code _}):
 * <ul>
 *   <li>{@code GET /_metrics}: Prometheus metrics, to anyone unless {@code serving.requireKey()};</li>
 *   <li>{@code GET /_metrics/history}: the last minutes of the key metrics (see {@link MetricsHistory}), to the
 *       same;</li>
 *   <li>{@code GET /_health/live}, {@code GET /_health/ready}: to anyone (see {@link Health});</li>
 *   <li>{@code GET /_console/}: the web console's files, when the console is on.</li>
 * </ul>
 */
public final class Operations implements AutoCloseable {
    private final BrokerProbe broker;
    private final MetricsHistory history;
    private final Health health;

    private Operations(BrokerProbe broker, MetricsHistory history, Health health) {
        this.broker = broker;
        this.history = history;
        this.health = health;
    }

    /** How the metrics are served: whether {@code /_metrics} needs a key, and the history's interval and length. */
    public record MetricsServing(boolean requireKey, Duration historyInterval, Duration historyLength) {
    }

    /**
     * @param metrics the registry, or null when metrics are off (no {@code /_metrics}, nothing counted per request)
     * @param console {@code on}, {@code off} or {@code auto} (on when {@code host} is a loopback address)
     * @param kafkaClientSettings the settings every Kafka client gets (the health probe's admin client too)
     */
    public static Operations install(TableServiceEndpoint endpoint, ServerMetrics metrics, StreamProcessor processor,
                                     String bootstrapServers, Map<String, String> kafkaClientSettings,
                                     Duration brokerCheck, MetricsServing serving, String console, String host) {
        MetricsHistory history = null;
        if (metrics != null) {
            InternalAccess access = serving.requireKey() ? InternalAccess.ACCOUNT_KEY : InternalAccess.ANYONE;
            endpoint.observe(metrics.requests());
            endpoint.internalEndpoint("/_metrics", access, metrics.endpoint());
            history = MetricsHistory.start(metrics.registry(), serving.historyInterval(), serving.historyLength());
            endpoint.internalEndpoint("/_metrics/history", access, history.endpoint());
        }
        BrokerProbe broker = new BrokerProbe(bootstrapServers, kafkaClientSettings, brokerCheck);
        Health health = new Health(processor, processor.registry(), broker);
        endpoint.internalEndpoint("/_health/live", InternalAccess.ANYONE, health.live());
        endpoint.internalEndpoint("/_health/ready", InternalAccess.ANYONE, health.ready());
        boolean consoleOn = console.equals("on") || console.equals("auto") && isLoopback(host);
        endpoint.internalEndpoint("/_console", InternalAccess.ANYONE, ConsoleFiles.redirect());
        endpoint.internalEndpoint(ConsoleFiles.PREFIX, InternalAccess.ANYONE,
                consoleOn ? new ConsoleFiles() : ConsoleFiles.off());
        return new Operations(broker, history, health);
    }

    /**
     * Holds readiness back (a {@code warm-up} check, down, saying {@code detail}) until {@link #warmedUp}:
     * to call before the HTTP port opens.
     */
    public void warmingUp(String detail) {
        health.warmingUp(detail);
    }

    /** Releases readiness held back by {@link #warmingUp}; the check stays, up, saying {@code detail}. */
    public void warmedUp(String detail) {
        health.warmedUp(detail);
    }

    /** Whether {@code host} (the bind address) is a loopback address; a name that does not resolve is not. */
    static boolean isLoopback(String host) {
        try {
            return InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    @Override
    public void close() {
        if (history != null) {
            history.close();
        }
        broker.close();
    }
}
