package io.tablestream.core.model;

import java.util.Objects;
import java.util.Set;

/**
 * Storage Analytics metrics (hourly or per minute) for the Table service. Tablestream keeps and
 * returns these settings; it does not compute analytics metrics.
 *
 * @param version     the analytics version, {@code 1.0}
 * @param enabled     whether metrics are collected
 * @param includeApis whether per-API statistics are included; always {@code false} when disabled
 */
public record MetricsSettings(String version, boolean enabled, boolean includeApis, RetentionPolicy retentionPolicy) {
    /** The analytics versions metrics accept. */
    public static final Set<String> VERSIONS = Set.of("1.0");
    /** Hourly metrics of an account that never set them: enabled, with APIs, kept 7 days. */
    public static final MetricsSettings DEFAULT_HOUR = new MetricsSettings("1.0", true, true, RetentionPolicy.ofDays(7));
    /** Minute metrics of an account that never set them: disabled. */
    public static final MetricsSettings DEFAULT_MINUTE = new MetricsSettings("1.0", false, false, RetentionPolicy.DISABLED);

    /**
     * @throws IllegalArgumentException for a version other than those in {@link #VERSIONS}, or
     *         {@code includeApis} on disabled metrics
     */
    public MetricsSettings {
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(retentionPolicy, "retentionPolicy");
        if (!VERSIONS.contains(version)) {
            throw new IllegalArgumentException("Metrics version must be one of " + VERSIONS + ", not '" + version + "'");
        }
        if (!enabled && includeApis) {
            throw new IllegalArgumentException("IncludeAPIs applies only to enabled metrics");
        }
    }

    /** Collected metrics. */
    public static MetricsSettings enabled(String version, boolean includeApis, RetentionPolicy retentionPolicy) {
        return new MetricsSettings(version, true, includeApis, retentionPolicy);
    }

    /** Metrics not collected. */
    public static MetricsSettings disabled(String version, RetentionPolicy retentionPolicy) {
        return new MetricsSettings(version, false, false, retentionPolicy);
    }
}
