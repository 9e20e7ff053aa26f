package io.tablestream.query.routing;

/**
 * One copy of a partition's stores that a read can use: on this instance ({@code instance} null)
 * or on another, the active copy or a standby.
 */
public record Replica(Instance instance, boolean standby) {
    public static Replica localActive() {
        return new Replica(null, false);
    }

    public static Replica localStandby() {
        return new Replica(null, true);
    }

    public boolean isLocal() {
        return instance == null;
    }

    @Override
    public String toString() {
        return (standby ? "standby " : "active ") + (instance == null ? "here" : "on " + instance);
    }
}
