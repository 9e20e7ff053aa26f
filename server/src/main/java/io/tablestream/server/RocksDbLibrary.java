package io.tablestream.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.rocksdb.NativeLibraryLoader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where RocksDB's native library is unpacked. Left to itself, RocksDB copies it (15 MiB) to a new
 * temporary file at every start and deletes it only at a normal JVM exit; a server stops with
 * {@code Runtime.halt} or is killed, so every start left one more copy in the temporary directory.
 * Unpacked into the data directory instead, under a fixed name, each start replaces the last one's.
 * Called by {@link Main} before the server starts (a server inside another JVM exits normally).
 */
final class RocksDbLibrary {
    private static final Logger LOG = LoggerFactory.getLogger(RocksDbLibrary.class);

    private RocksDbLibrary() {
    }

    /** Loads the library from {@code dataDir}/native, once per JVM; on failure RocksDB loads it its own way later. */
    static void load(Path dataDir) {
        Path dir = dataDir.resolve("native");
        try {
            Files.createDirectories(dir);
            NativeLibraryLoader.getInstance().loadLibrary(dir.toString());
        } catch (IOException | RuntimeException | UnsatisfiedLinkError e) {
            LOG.info("RocksDB's native library could not be loaded from {} ({}); RocksDB unpacks it to the temporary"
                    + " directory instead", dir, e.toString());
        }
    }
}
