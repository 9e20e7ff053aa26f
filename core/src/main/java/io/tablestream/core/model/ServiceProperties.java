package io.tablestream.core.model;

import java.util.List;
import java.util.Objects;

/**
 * The Table service properties of an account (Get/Set Table Service Properties): Storage
 * Analytics logging, hourly and minute metrics, and the CORS rules.
 *
 * @param cors up to {@value CorsRule#MAX_RULES} rules, in evaluation order; empty disables CORS
 */
public record ServiceProperties(LoggingSettings logging, MetricsSettings hourMetrics, MetricsSettings minuteMetrics,
                                List<CorsRule> cors) {
    /**
     * What the service reports for an account that never set its properties: logging off, hourly
     * metrics on (with APIs, kept 7 days), minute metrics off, no CORS rules.
     */
    public static final ServiceProperties DEFAULT = new ServiceProperties(
            LoggingSettings.DEFAULT, MetricsSettings.DEFAULT_HOUR, MetricsSettings.DEFAULT_MINUTE, List.of());

    /** @throws IllegalArgumentException for more than {@value CorsRule#MAX_RULES} CORS rules */
    public ServiceProperties {
        Objects.requireNonNull(logging, "logging");
        Objects.requireNonNull(hourMetrics, "hourMetrics");
        Objects.requireNonNull(minuteMetrics, "minuteMetrics");
        cors = List.copyOf(cors);
        if (cors.size() > CorsRule.MAX_RULES) {
            throw new IllegalArgumentException("At most " + CorsRule.MAX_RULES + " CORS rules, not " + cors.size());
        }
    }

    public static ServiceProperties of(LoggingSettings logging, MetricsSettings hourMetrics,
                                       MetricsSettings minuteMetrics, List<CorsRule> cors) {
        return new ServiceProperties(logging, hourMetrics, minuteMetrics, cors);
    }

    /**
     * The properties after Set Table Service Properties: each group the update carries (logging,
     * hour metrics, minute metrics, CORS) replaces the current one whole; a group it leaves out is
     * kept. An update carrying an empty CORS list removes every rule.
     */
    public static ServiceProperties merge(ServiceProperties current, ServicePropertiesUpdate update) {
        Objects.requireNonNull(current, "current");
        Objects.requireNonNull(update, "update");
        return new ServiceProperties(
                update.logging().orElse(current.logging),
                update.hourMetrics().orElse(current.hourMetrics),
                update.minuteMetrics().orElse(current.minuteMetrics),
                update.cors().orElse(current.cors));
    }
}
