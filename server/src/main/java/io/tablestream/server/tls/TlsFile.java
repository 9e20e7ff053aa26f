package io.tablestream.server.tls;

import java.nio.file.Path;
import java.util.Objects;

/** A file of the TLS configuration, with the name of the setting that named it (for messages). */
public record TlsFile(Path path, String setting) {
    public TlsFile {
        path = Objects.requireNonNull(path, "path").toAbsolutePath();
        Objects.requireNonNull(setting, "setting");
    }

    @Override
    public String toString() {
        return setting + " " + path;
    }
}
