package io.tablestream.query.http;

/**
 * The copy of a partition a read was sent to cannot serve it (moved, restoring, too far behind,
 * its instance unreachable): the router tries the partition's next copy. Never reaches a client.
 */
final class ReplicaUnavailable extends RuntimeException {
    ReplicaUnavailable(String message, Throwable cause) {
        super(message, cause, false, false);
    }

    ReplicaUnavailable(String message) {
        this(message, null);
    }
}
