package io.tablestream.kafka.embedded;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/**
 * The embedded broker as a process of its own, until SIGTERM: for several Tablestream instances on
 * one machine without a Kafka installation, and for tests that kill or restart the broker alone.
 * Usage: {@code StandaloneBroker --data-dir DIR [--host 127.0.0.1] [--port N] [--controller-port N]
 * [--startup-timeout-ms N]}; ports not given are kept from the previous start (or picked at the first).
 */
public final class StandaloneBroker {
    private StandaloneBroker() {
    }

    public static void main(String[] args) throws InterruptedException {
        Path dataDir = null;
        EmbeddedKafkaBroker.Builder builder = null;
        String host = "127.0.0.1";
        int port = 0;
        int controllerPort = 0;
        Duration timeout = Duration.ofSeconds(60);
        for (int i = 0; i < args.length; i++) {
            String value = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i]) {
                case "--data-dir" -> dataDir = Path.of(required(args[i], value));
                case "--host" -> host = required(args[i], value);
                case "--port" -> port = Integer.parseInt(required(args[i], value));
                case "--controller-port" -> controllerPort = Integer.parseInt(required(args[i], value));
                case "--startup-timeout-ms" -> timeout = Duration.ofMillis(Long.parseLong(required(args[i], value)));
                default -> usage("unknown argument " + args[i]);
            }
            i++;
        }
        if (dataDir == null) {
            usage("--data-dir is required");
        }
        EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder(dataDir).host(host).brokerPort(port)
                .controllerPort(controllerPort).startupTimeout(timeout).start();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            broker.close();
            stopped.countDown();
        }, "broker-shutdown"));
        stopped.await();
    }

    private static String required(String option, String value) {
        if (value == null) {
            usage(option + " needs a value");
        }
        return value;
    }

    private static void usage(String problem) {
        System.err.println(problem + "\nusage: StandaloneBroker --data-dir DIR [--host H] [--port N]"
                + " [--controller-port N] [--startup-timeout-ms N]");
        System.exit(2);
    }
}
