package io.tablestream.processor.internal;

/** Names of the topology's sink nodes. */
final class Sinks {
    static final String OUTCOMES = "outcomes-sink";
    static final String CHANGES = "changes-sink";
    static final String TABLES = "tables-sink";
    static final String DEAD_LETTERS = "deadletter-sink";
    /** Table announcements, to every partition of the commands topic. */
    static final String ANNOUNCEMENTS = "announcements-sink";
    /** Catch-up markers, each to the partition its key names. */
    static final String MARKERS = "markers-sink";

    private Sinks() {
    }
}
