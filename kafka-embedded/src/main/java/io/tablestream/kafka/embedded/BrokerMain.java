package io.tablestream.kafka.embedded;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * The embedded broker on its own, for trying a cluster of Tablestream instances on one machine
 * without a Kafka installation ({@code run-cluster.sh}): {@code BrokerMain <data-dir> [port
 * [controller-port]]}. Prints {@code Kafka broker ready at <host:port>} once it serves clients,
 * and runs until SIGTERM or SIGINT.
 */
public final class BrokerMain {
    private BrokerMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        if (args.length < 1 || args.length > 3) {
            System.err.println("Usage: BrokerMain <data-dir> [port [controller-port]]");
            System.exit(2);
        }
        EmbeddedKafkaBroker.Builder builder = EmbeddedKafkaBroker.builder(Path.of(args[0]));
        if (args.length > 1) {
            builder.brokerPort(Integer.parseInt(args[1]));
        }
        if (args.length > 2) {
            builder.controllerPort(Integer.parseInt(args[2]));
        }
        EmbeddedKafkaBroker broker = builder.start();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            broker.close();
            stopped.countDown();
        }, "broker-shutdown"));
        System.out.println("Kafka broker ready at " + broker.bootstrapServers());
        System.out.flush();
        stopped.await();
    }
}
