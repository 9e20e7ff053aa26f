package io.tablestream.server;

import io.tablestream.kafka.embedded.EmbeddedKafkaBroker;
import io.tablestream.processor.Repartition;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.kafka.clients.CommonClientConfigs;

/**
 * {@code repartition --partitions M}: grows a stopped deployment to M partitions (see
 * {@link Repartition}). On the single-node default it starts the embedded broker on the data
 * directory — which fails while a server holds it, so no instance can be running — and removes
 * what the stopped server left in the processor's group; against a cluster it waits for every
 * instance's membership to lapse.
 */
public final class RepartitionCommand {
    private RepartitionCommand() {
    }

    /** Runs the repartition of the deployment {@code config} describes to {@code partitions}. */
    public static Repartition.Result run(ServerConfig config, int partitions, Consumer<String> progress) {
        String bootstrap = config.get(ServerSettings.KAFKA_BOOTSTRAP_SERVERS);
        EmbeddedKafkaBroker broker = null;
        if (bootstrap.isBlank()) {
            broker = TablestreamServer.embeddedBroker(config);
            bootstrap = broker.bootstrapServers();
            progress.accept("Embedded broker started on the data directory, at " + bootstrap);
        }
        try {
            Map<String, Object> client = new HashMap<>(config.kafkaClients());
            client.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
            // a stopped instance's membership lapses after its session timeout
            Duration groupWait = Duration.ofMillis(3L * config.get(ServerSettings.GROUP_SESSION_TIMEOUT_MS)).plusSeconds(10);
            return Repartition.run(client, config.get(ServerSettings.TOPIC_PREFIX), partitions, broker != null,
                    groupWait, progress);
        } finally {
            if (broker != null) {
                broker.close();
            }
        }
    }

    /** The command line: {@code repartition --partitions M [--config file]}; exits 0 when done, 1 when refused or failed. */
    static int main(String[] args) {
        java.nio.file.Path configFile = null;
        Integer partitions = null;
        for (int i = 1; i < args.length; i++) {
            if (args[i].equals("--config") && i + 1 < args.length) {
                configFile = java.nio.file.Path.of(args[++i]);
            } else if (args[i].equals("--partitions") && i + 1 < args.length) {
                try {
                    partitions = Integer.parseInt(args[++i]);
                } catch (NumberFormatException e) {
                    partitions = null;
                }
            } else {
                partitions = null;
                break;
            }
        }
        if (partitions == null || partitions < 2) {
            System.err.println("Usage: repartition --partitions <M> [--config file]: grows the stopped deployment the"
                    + " settings describe (data-dir, or kafka-bootstrap-servers, and topic-prefix) to M partitions");
            return 2;
        }
        try {
            Repartition.Result r = run(ServerConfig.load(configFile), partitions, System.out::println);
            System.out.println("Repartitioned from " + r.from() + " to " + r.to() + " partitions in "
                    + r.took().toMillis() + " ms; rows moved: " + r.moved());
            return 0;
        } catch (RuntimeException e) {
            System.err.println("Repartition not done: " + e.getMessage());
            return 1;
        }
    }
}
