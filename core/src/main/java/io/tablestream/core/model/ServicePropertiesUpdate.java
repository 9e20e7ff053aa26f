package io.tablestream.core.model;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The body of Set Table Service Properties: the groups of settings the request carries. A group
 * that is present replaces the stored one; an absent group leaves it as it is (see
 * {@link ServiceProperties#merge}).
 */
public record ServicePropertiesUpdate(Optional<LoggingSettings> logging, Optional<MetricsSettings> hourMetrics,
                                      Optional<MetricsSettings> minuteMetrics, Optional<List<CorsRule>> cors) {
    /** An update that changes nothing. */
    public static final ServicePropertiesUpdate NONE =
            new ServicePropertiesUpdate(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());

    /** @throws IllegalArgumentException for more than {@value CorsRule#MAX_RULES} CORS rules */
    public ServicePropertiesUpdate {
        Objects.requireNonNull(logging, "logging");
        Objects.requireNonNull(hourMetrics, "hourMetrics");
        Objects.requireNonNull(minuteMetrics, "minuteMetrics");
        Objects.requireNonNull(cors, "cors");
        cors = cors.map(List::copyOf);
        if (cors.isPresent() && cors.get().size() > CorsRule.MAX_RULES) {
            throw new IllegalArgumentException("At most " + CorsRule.MAX_RULES + " CORS rules, not " + cors.get().size());
        }
    }

    /** An update replacing every group, as a full document does. */
    public static ServicePropertiesUpdate replacingAll(ServiceProperties properties) {
        return new ServicePropertiesUpdate(Optional.of(properties.logging()), Optional.of(properties.hourMetrics()),
                Optional.of(properties.minuteMetrics()), Optional.of(properties.cors()));
    }

    public ServicePropertiesUpdate withLogging(LoggingSettings settings) {
        return new ServicePropertiesUpdate(Optional.of(settings), hourMetrics, minuteMetrics, cors);
    }

    public ServicePropertiesUpdate withHourMetrics(MetricsSettings settings) {
        return new ServicePropertiesUpdate(logging, Optional.of(settings), minuteMetrics, cors);
    }

    public ServicePropertiesUpdate withMinuteMetrics(MetricsSettings settings) {
        return new ServicePropertiesUpdate(logging, hourMetrics, Optional.of(settings), cors);
    }

    public ServicePropertiesUpdate withCors(List<CorsRule> rules) {
        return new ServicePropertiesUpdate(logging, hourMetrics, minuteMetrics, Optional.of(rules));
    }
}
