package io.tablestream.cli.transfer;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;

/**
 * How far a transfer got, kept beside its output (export) or its input (import) so that running
 * the same command again resumes it: a small properties file replaced atomically (written to a
 * temporary file, then moved over the old one), so an interruption at any moment leaves either the
 * previous checkpoint or the new one. What the transfer was ({@code what.*} keys) must match for a
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
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            p.load(in);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the checkpoint " + file, e);
        }
        Map<String, String> values = new TreeMap<>();
        p.forEach((k, v) -> values.put(k.toString(), v.toString()));
        return Optional.of(values);
    }

    /** Replaces the checkpoint with {@code values}. */
    public void save(Map<String, String> values) {
        Properties p = new Properties();
        p.putAll(values);
        Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
        try {
            try (OutputStream out = Files.newOutputStream(temporary)) {
                p.store(out, "tablestream transfer checkpoint: run the same command again to resume");
            }
            try {
                Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot save the checkpoint " + file, e);
        }
    }

    /** Removes the checkpoint (the transfer completed). */
    public void delete() {
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
