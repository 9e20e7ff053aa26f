package io.tablestream.core.model;

import java.util.Objects;
import java.util.Set;

/**
 * Storage Analytics logging for the Table service: which kinds of request are logged, and for how
 * long. Tablestream keeps and returns these settings; it does not write analytics logs.
 *
 * @param version the analytics version, {@code 1.0} or {@code 2.0}
 */
public record LoggingSettings(String version, boolean read, boolean write, boolean delete,
                              RetentionPolicy retentionPolicy) {
    /** The analytics versions logging accepts. */
    public static final Set<String> VERSIONS = Set.of("1.0", "2.0");
    /** Nothing logged, as for an account that never set logging. */
    public static final LoggingSettings DEFAULT = new LoggingSettings("1.0", false, false, false, RetentionPolicy.DISABLED);

    /** @throws IllegalArgumentException for a version other than those in {@link #VERSIONS} */
    public LoggingSettings {
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(retentionPolicy, "retentionPolicy");
        if (!VERSIONS.contains(version)) {
            throw new IllegalArgumentException("Logging version must be one of " + VERSIONS + ", not '" + version + "'");
        }
    }

    public static LoggingSettings of(String version, boolean read, boolean write, boolean delete,
                                     RetentionPolicy retentionPolicy) {
        return new LoggingSettings(version, read, write, delete, retentionPolicy);
    }
}
