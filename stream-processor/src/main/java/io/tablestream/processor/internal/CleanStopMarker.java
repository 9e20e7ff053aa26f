package io.tablestream.processor.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether the processor's local state was left by a clean stop: a file beside the application's
 * state directory, written after Kafka Streams closed cleanly and removed when it starts again.
 * Under exactly-once, Kafka Streams 4.3 wipes and restores every store that was not closed cleanly,
 * but only once the task is assigned — after it has reported the stale state as nearly caught up,
 * so it may be given active tasks it then cannot serve until restored. Knowing beforehand, the
 * processor discards that state before joining, and the group gives it standbys to warm up instead.
 */
public final class CleanStopMarker {
    private final Path stateDirectory;
    private final Path marker;

    /** For the state of application {@code applicationId} under {@code stateDir}. */
    public CleanStopMarker(Path stateDir, String applicationId) {
        this.stateDirectory = stateDir.resolve(applicationId);
        this.marker = stateDir.resolve(applicationId + ".stopped-cleanly");
    }

    /** Whether there is local state that was not left by a clean stop. */
    public boolean stateLeftUnclean() {
        return Files.isDirectory(stateDirectory) && !Files.exists(marker);
    }

    /** The processor runs: its state is no longer that of a clean stop. */
    public void running() {
        try {
            Files.deleteIfExists(marker);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot remove " + marker, e);
        }
    }

    /** Kafka Streams closed cleanly: its stores are checkpointed. */
    public void stoppedCleanly() {
        try {
            Files.createDirectories(marker.getParent());
            Files.writeString(marker, "");
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + marker, e);
        }
    }
}
