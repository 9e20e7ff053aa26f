package io.tablestream.kafka.embedded;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import java.util.Properties;

/**
 * The ports the broker of a data directory listens on, chosen at its first start and kept in the
 * directory, so every later start comes back on the same address. A broker that moves confuses
 * those who remember it: its own KRaft metadata names the old address until it registers again, and
 * the transaction coordinator keeps sending commit and abort markers to whatever address it saw
 * first — a transaction left open by a crash then never completes. Clients, change-feed consumers
 * and Kafka-native producers also keep one address.
 */
record StoredAddress(int brokerPort, int controllerPort) {
    static final String FILE_NAME = "embedded-broker.properties";
    private static final String BROKER_PORT = "broker.port";
    private static final String CONTROLLER_PORT = "controller.port";

    StoredAddress {
        if (brokerPort < 1 || brokerPort > 65535 || controllerPort < 1 || controllerPort > 65535
                || brokerPort == controllerPort) {
            throw new IllegalArgumentException("not a broker address: ports " + brokerPort + " and " + controllerPort);
        }
    }

    /** The address kept in {@code dataDirectory}, if one was. */
    static Optional<StoredAddress> read(Path dataDirectory) {
        Path file = dataDirectory.resolve(FILE_NAME);
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            p.load(in);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new EmbeddedKafkaException("Cannot read the broker's address from " + file, e);
        }
        try {
            return Optional.of(new StoredAddress(Integer.parseInt(p.getProperty(BROKER_PORT, "").strip()),
                    Integer.parseInt(p.getProperty(CONTROLLER_PORT, "").strip())));
        } catch (IllegalArgumentException e) {
            throw new EmbeddedKafkaException("The broker's address in " + file + " cannot be read (" + e.getMessage()
                    + "); set the ports explicitly or remove the file to choose new ones", e);
        }
    }

    /** Keeps this address in {@code dataDirectory} (replacing the file atomically). */
    void write(Path dataDirectory) {
        Path file = dataDirectory.resolve(FILE_NAME);
        Path temporary = dataDirectory.resolve(FILE_NAME + ".tmp");
        Properties p = new Properties();
        p.setProperty(BROKER_PORT, Integer.toString(brokerPort));
        p.setProperty(CONTROLLER_PORT, Integer.toString(controllerPort));
        try {
            try (OutputStream out = Files.newOutputStream(temporary)) {
                p.store(out, "The embedded Kafka broker's ports, kept across restarts");
            }
            try {
                Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new EmbeddedKafkaException("Cannot keep the broker's address in " + file, e);
        }
    }
}
