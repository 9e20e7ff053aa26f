package io.tablestream.localfiles;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * The ports the embedded broker of a data directory listens on, chosen at its first start and kept
 * in the directory ({@value #FILE_NAME}), so every later start comes back on the same address. A
 * broker that moves confuses those who remember it: its own KRaft metadata names the old address
 * until it registers again, and the transaction coordinator keeps sending commit and abort markers
 * to whatever address it saw first — a transaction left open by a crash then never completes.
 * Clients, change-feed consumers and Kafka-native producers also keep one address, and the
 * {@code tablestream tail} command finds the broker of a server's data directory here.
 */
public record EmbeddedBrokerAddress(int brokerPort, int controllerPort) {
    /** The file in the broker's data directory. */
    public static final String FILE_NAME = "embedded-broker.properties";
    private static final String BROKER_PORT = "broker.port";
    private static final String CONTROLLER_PORT = "controller.port";

    public EmbeddedBrokerAddress {
        if (brokerPort < 1 || brokerPort > 65535 || controllerPort < 1 || controllerPort > 65535
                || brokerPort == controllerPort) {
            throw new IllegalArgumentException("not a broker address: ports " + brokerPort + " and " + controllerPort);
        }
    }

    /**
     * The address kept in the broker data directory {@code directory}, if one was.
     *
     * @throws IllegalArgumentException when the file holds no valid address (the message names the file)
     * @throws UncheckedIOException when the file cannot be read
     */
    public static Optional<EmbeddedBrokerAddress> read(Path directory) {
        Path file = directory.resolve(FILE_NAME);
        Optional<Map<String, String>> values;
        try {
            values = PropertiesFile.read(file);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the broker's address from " + file, e);
        }
        return values.map(v -> {
            try {
                return new EmbeddedBrokerAddress(Integer.parseInt(v.getOrDefault(BROKER_PORT, "").strip()),
                        Integer.parseInt(v.getOrDefault(CONTROLLER_PORT, "").strip()));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("The broker's address in " + file + " cannot be read ("
                        + e.getMessage() + ")", e);
            }
        });
    }

    /** Keeps this address in the broker data directory {@code directory}, replacing the file atomically. */
    public void write(Path directory) {
        Path file = directory.resolve(FILE_NAME);
        try {
            PropertiesFile.replace(file, Map.of(BROKER_PORT, Integer.toString(brokerPort), CONTROLLER_PORT,
                    Integer.toString(controllerPort)), "The embedded Kafka broker's ports, kept across restarts");
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot keep the broker's address in " + file, e);
        }
    }

    /** The broker's client address on {@code host}. */
    public String bootstrapServers(String host) {
        return host + ":" + brokerPort;
    }
}
