package io.tablestream.localfiles;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
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
 * A small {@code .properties} file that is replaced as a whole and atomically: written to a
 * temporary file beside it, then moved over it, so an interruption at any moment (a crash, a kill)
 * leaves either the previous content or the new one, never a mix or an empty file.
 */
public final class PropertiesFile {
    private PropertiesFile() {
    }

    /** The file's entries (sorted by key), or empty when there is no file. */
    public static Optional<Map<String, String>> read(Path file) throws IOException {
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            p.load(in);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
        Map<String, String> values = new TreeMap<>();
        p.forEach((k, v) -> values.put(k.toString(), v.toString()));
        return Optional.of(values);
    }

    /** Replaces the file with {@code values}, headed by the comment line {@code comment}. */
    public static void replace(Path file, Map<String, String> values, String comment) throws IOException {
        Properties p = new Properties();
        p.putAll(values);
        Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
        try (OutputStream out = Files.newOutputStream(temporary)) {
            p.store(out, comment);
        }
        try {
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
