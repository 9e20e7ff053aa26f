package io.tablestream.kafka.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/**
 * Picks a port that is free right now on a given address. Another process may take it before the
 * broker binds it; a broker whose ports were all picked retries with others when that happens.
 */
final class FreePorts {
    private FreePorts() {
    }

    /** A free port on {@code host}, different from the {@code excluded} ones. */
    static int pick(String host, int... excluded) {
        for (int attempt = 0; attempt < 20; attempt++) {
            int port = bindAndRelease(host);
            if (!contains(excluded, port)) {
                return port;
            }
        }
        throw new EmbeddedKafkaException("No free port found on " + host);
    }

    private static int bindAndRelease(String host) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getByName(host), 0));
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot bind a port on " + host, e);
        }
    }

    private static boolean contains(int[] ports, int port) {
        for (int p : ports) {
            if (p == port) {
                return true;
            }
        }
        return false;
    }
}
