package io.tablestream.query.routing;

import java.util.Objects;

/** A Tablestream instance as the others reach it: its advertised {@code host:port}. */
public record Instance(String host, int port) {
    public Instance {
        Objects.requireNonNull(host, "host");
        if (host.isBlank() || port < 1 || port > 65_535) {
            throw new IllegalArgumentException("an instance address is host:port, got " + host + ":" + port);
        }
    }

    /** Parses {@code host:port} (an IPv6 host in brackets), as the {@code advertised-address} setting gives it. */
    public static Instance parse(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        if (colon <= 0 || colon == hostPort.length() - 1) {
            throw new IllegalArgumentException("an instance address is host:port, got '" + hostPort + "'");
        }
        String host = hostPort.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        try {
            return new Instance(host, Integer.parseInt(hostPort.substring(colon + 1)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("an instance address is host:port, got '" + hostPort + "'", e);
        }
    }

    @Override
    public String toString() {
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }
}
