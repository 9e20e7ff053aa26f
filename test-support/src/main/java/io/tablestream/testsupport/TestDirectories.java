package io.tablestream.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The directories tests create for brokers and servers, removed when the test is done with them. */
public final class TestDirectories {
    private static final Logger LOG = LoggerFactory.getLogger(TestDirectories.class);

    private TestDirectories() {
    }

    /**
     * Deletes {@code directory} and everything in it, if it exists. A failure is logged, not thrown: a
     * leftover directory must not fail the test that used it (a broker's data of a multi-instance
     * test is 1–2 GB, so a test that forgets this fills a disk within a few dozen runs).
     */
    public static void delete(Path directory) {
        if (directory == null || !Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            LOG.warn("Could not delete the test directory {}", directory, e);
        }
    }
}
