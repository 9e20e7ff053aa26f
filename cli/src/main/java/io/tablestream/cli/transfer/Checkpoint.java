package io.tablestream.cli.transfer;

import io.tablestream.localfiles.PropertiesFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * How far a transfer got, kept beside its output (export) or its input (import) so that running
 * the same command again resumes it: a small properties file replaced atomically
 * ({@link PropertiesFile}), so an interruption at any moment leaves either the previous checkpoint
 * or the new one. What the transfer was ({@code what.*} keys) must match for a
 * run to resume from it.
 */
public final class Checkpoint {
    private final Path file;

    public Checkpoint(Path file) {
        this.file = file;
    }

    public Path file() {
        return file;
    }

    /** The saved values, if the file exists. */
    public Optional<Map<String, String>> read() {
        try {
            return PropertiesFile.read(file);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the checkpoint " + file, e);
        }
    }

    /**
     * Replaces the checkpoint with {@code values}. Saves and the removal are one at a time: an
     * interrupted transfer saves from its shutdown hook while its own thread may be saving.
     */
    public synchronized void save(Map<String, String> values) {
        try {
            PropertiesFile.replace(file, values, "tablestream transfer checkpoint: run the same command again to resume");
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot save the checkpoint " + file, e);
        }
    }

    /** Removes the checkpoint (the transfer completed). */
    public synchronized void delete() {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot remove the checkpoint " + file, e);
        }
    }

    /** Whether {@code saved} describes the same transfer as {@code what} (every {@code what.*} key equal). */
    public static boolean sameTransfer(Map<String, String> saved, Map<String, String> what) {
        Map<String, String> savedWhat = new TreeMap<>();
        saved.forEach((k, v) -> {
            if (k.startsWith("what.")) {
                savedWhat.put(k, v);
            }
        });
        return savedWhat.equals(new TreeMap<>(what));
    }
}
