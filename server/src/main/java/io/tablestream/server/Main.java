package io.tablestream.server;

import io.tablestream.processor.ApplyObserver;
import io.tablestream.server.warmup.WarmUpTimes;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a Tablestream instance until SIGTERM/SIGINT. Usage: {@code Main [--config file.properties]};
 * every setting can also come from {@code TABLESTREAM_*} environment variables or
 * {@code -Dtablestream.*} system properties (see {@link ServerSettings}).
 */
public final class Main {
    private static final Logger LOG = LoggerFactory.getLogger(Main.class);

    private Main() {
    }

    public static void main(String[] args) {
        if (args.length > 0 && args[0].equals("repartition")) {
            System.exit(RepartitionCommand.main(args));
            return;
        }
        Path configFile = null;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--config") && i + 1 < args.length) {
                configFile = Path.of(args[++i]);
            } else if (args[i].equals("--help")) {
                printSettings();
                return;
            } else {
                System.err.println("Unknown argument " + args[i] + "; use --config <file> or --help");
                System.exit(2);
            }
        }
        long mainEntered = System.nanoTime();
        long jvmUptimeAtMain = ManagementFactory.getRuntimeMXBean().getUptime();
        TablestreamServer server;
        try {
            ServerConfig config = ServerConfig.load(configFile);
            // this process ends with Runtime.halt (or a kill): RocksDB's own temporary copy would stay behind
            RocksDbLibrary.load(Path.of(config.get(ServerSettings.DATA_DIR)).toAbsolutePath());
            // the process warms itself up, before it reports ready or after (an embedded instance does not)
            server = TablestreamServer.start(config, ApplyObserver.NONE, new WarmUpTimes(
                    Duration.ofSeconds(Math.max(0, config.get(ServerSettings.WARM_UP_SECONDS))),
                    Duration.ofSeconds(Math.max(0, config.get(ServerSettings.WARM_UP_AFTER_READY_SECONDS)))));
            LOG.info("Ready {} ms after the JVM started ({} ms before main, {} ms starting the broker, processor and"
                    + " HTTP port and any warm-up before ready)", ManagementFactory.getRuntimeMXBean().getUptime(), jvmUptimeAtMain,
                    (System.nanoTime() - mainEntered) / 1_000_000);
        } catch (ConfigurationException e) {
            // the message names the setting (and file) at fault; the stack trace would only bury it
            LOG.error("Tablestream failed to start: {}", e.getMessage());
            LOG.debug("Where the configuration was found wrong", e);
            System.exit(1);
            return;
        } catch (RuntimeException e) {
            LOG.error("Tablestream failed to start", e);
            System.exit(1);
            return;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(server), "shutdown"));
    }

    /**
     * Stops the server on SIGTERM/SIGINT and ends the process with 0 when it stopped cleanly (a JVM
     * ended by a signal otherwise reports 128 + the signal, which service managers count as a
     * failure), 1 when it did not.
     */
    private static void stop(TablestreamServer server) {
        LOG.info("Stopping Tablestream");
        long begin = System.nanoTime();
        int status = 0;
        try {
            server.close();
            LOG.info("Tablestream stopped in {} ms", (System.nanoTime() - begin) / 1_000_000);
        } catch (RuntimeException e) {
            LOG.error("Tablestream did not stop cleanly", e);
            status = 1;
        }
        Runtime.getRuntime().halt(status);
    }

    private static void printSettings() {
        System.out.print(help());
    }

    /**
     * What {@code --help} prints: how settings are given, then every setting of the catalogue
     * ({@link ServerSettings#ALL}) with its variable, default and description, then the pass-through families.
     */
    static String help() {
        StringBuilder out = new StringBuilder()
                .append("Usage: Main [--config file.properties] [--help]\n")
                .append("       Main repartition --partitions <M> [--config file.properties]  (a stopped deployment, N to M > N)\n")
                .append("Each setting is read from, in order: the system property -Dtablestream.<name>, the environment")
                .append(" variable shown, the --config file (key <name>), the default.\n\n");
        for (Setting<?> s : ServerSettings.ALL) {
            out.append(String.format("%-28s %-42s default %s%n", s.name(), s.environmentVariable(),
                    "'" + s.defaultValue() + "'"));
            out.append(wrap(s.description(), "    ", 100));
        }
        out.append("\nKafka client settings pass through by Kafka's own names: ").append(ServerSettings.KAFKA_PREFIX)
                .append("<name> (every client, e.g. kafka.security.protocol or TABLESTREAM_KAFKA_SECURITY_PROTOCOL), ")
                .append(ServerSettings.STREAMS_PREFIX).append("<name> (Kafka Streams), ")
                .append(ServerSettings.INGEST_PREFIX).append("<name> (the command log's producer and outcome consumer only,"
                        + " e.g. ingest.linger.ms) and ")
                .append(ServerSettings.BROKER_PREFIX).append("<name> (the embedded broker, e.g. broker.num.io.threads).\n");
        return out.toString();
    }

    private static String wrap(String text, String indent, int width) {
        StringBuilder out = new StringBuilder();
        StringBuilder line = new StringBuilder(indent);
        for (String word : text.split(" ")) {
            if (line.length() > indent.length() && line.length() + 1 + word.length() > width) {
                out.append(line).append('\n');
                line = new StringBuilder(indent);
            }
            if (line.length() > indent.length()) {
                line.append(' ');
            }
            line.append(word);
        }
        return out.append(line).append('\n').toString();
    }
}
