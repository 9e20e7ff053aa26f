package io.tablestream.schemas;

import io.tablestream.core.model.AccessPolicy;
import io.tablestream.core.model.AccountRecord;
import io.tablestream.core.model.CorsRule;
import io.tablestream.core.model.LoggingSettings;
import io.tablestream.core.model.MetricsSettings;
import io.tablestream.core.model.RetentionPolicy;
import io.tablestream.core.model.ServiceProperties;
import io.tablestream.core.model.ServicePropertiesUpdate;
import io.tablestream.core.model.TablePermission;
import io.tablestream.schemas.avro.CorsMethod;
import io.tablestream.schemas.avro.SetServiceProperties;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Stored access policies and service properties between core's records and their Avro form.
 * Decoding goes through core's constructors, so a record that breaks their limits is rejected.
 */
final class SettingsMapping {
    private SettingsMapping() {
    }

    // --- stored access policies ---

    static List<io.tablestream.schemas.avro.AccessPolicy> policiesToAvro(List<AccessPolicy> policies) {
        List<io.tablestream.schemas.avro.AccessPolicy> out = new ArrayList<>(policies.size());
        for (AccessPolicy p : policies) {
            out.add(new io.tablestream.schemas.avro.AccessPolicy(p.id(), PropertyMapping.ticksOrNull(p.start()),
                    PropertyMapping.ticksOrNull(p.expiry()), p.permissionSymbols()));
        }
        return out;
    }

    static List<AccessPolicy> policiesFromAvro(List<io.tablestream.schemas.avro.AccessPolicy> policies) {
        List<AccessPolicy> out = new ArrayList<>(policies.size());
        for (io.tablestream.schemas.avro.AccessPolicy p : policies) {
            out.add(AccessPolicy.of(p.getId(), PropertyMapping.dateTimeOrNull(p.getStartTicks()),
                    PropertyMapping.dateTimeOrNull(p.getExpiryTicks()), TablePermission.parse(p.getPermissions())));
        }
        return out;
    }

    // --- service properties ---

    static SetServiceProperties updateToAvro(ServicePropertiesUpdate u) {
        return new SetServiceProperties(u.logging().map(SettingsMapping::loggingToAvro).orElse(null),
                u.hourMetrics().map(SettingsMapping::metricsToAvro).orElse(null),
                u.minuteMetrics().map(SettingsMapping::metricsToAvro).orElse(null),
                u.cors().map(SettingsMapping::corsToAvro).orElse(null));
    }

    static ServicePropertiesUpdate updateFromAvro(SetServiceProperties a) {
        return new ServicePropertiesUpdate(
                Optional.ofNullable(a.getLogging()).map(SettingsMapping::loggingFromAvro),
                Optional.ofNullable(a.getHourMetrics()).map(SettingsMapping::metricsFromAvro),
                Optional.ofNullable(a.getMinuteMetrics()).map(SettingsMapping::metricsFromAvro),
                Optional.ofNullable(a.getCors()).map(SettingsMapping::corsFromAvro));
    }

    static io.tablestream.schemas.avro.AccountRecord accountToAvro(AccountRecord r) {
        ServiceProperties p = r.serviceProperties();
        return new io.tablestream.schemas.avro.AccountRecord(r.account(), loggingToAvro(p.logging()),
                metricsToAvro(p.hourMetrics()), metricsToAvro(p.minuteMetrics()), corsToAvro(p.cors()));
    }

    static AccountRecord accountFromAvro(io.tablestream.schemas.avro.AccountRecord a) {
        return AccountRecord.of(a.getAccount(), ServiceProperties.of(loggingFromAvro(a.getLogging()),
                metricsFromAvro(a.getHourMetrics()), metricsFromAvro(a.getMinuteMetrics()), corsFromAvro(a.getCors())));
    }

    private static io.tablestream.schemas.avro.LoggingSettings loggingToAvro(LoggingSettings s) {
        return new io.tablestream.schemas.avro.LoggingSettings(s.version(), s.read(), s.write(), s.delete(),
                daysOrNull(s.retentionPolicy()));
    }

    private static LoggingSettings loggingFromAvro(io.tablestream.schemas.avro.LoggingSettings a) {
        return LoggingSettings.of(a.getVersion(), a.getRead(), a.getWrite(), a.getDelete(),
                retention(a.getRetentionDays()));
    }

    private static io.tablestream.schemas.avro.MetricsSettings metricsToAvro(MetricsSettings s) {
        return new io.tablestream.schemas.avro.MetricsSettings(s.version(), s.enabled(), s.includeApis(),
                daysOrNull(s.retentionPolicy()));
    }

    private static MetricsSettings metricsFromAvro(io.tablestream.schemas.avro.MetricsSettings a) {
        return new MetricsSettings(a.getVersion(), a.getEnabled(), a.getIncludeApis(), retention(a.getRetentionDays()));
    }

    private static List<io.tablestream.schemas.avro.CorsRule> corsToAvro(List<CorsRule> rules) {
        List<io.tablestream.schemas.avro.CorsRule> out = new ArrayList<>(rules.size());
        for (CorsRule r : rules) {
            List<CorsMethod> methods = new ArrayList<>(r.allowedMethods().size());
            for (CorsRule.Method m : r.allowedMethods()) {
                methods.add(CorsMethod.valueOf(m.name()));
            }
            out.add(new io.tablestream.schemas.avro.CorsRule(r.allowedOrigins(), methods, r.allowedHeaders(),
                    r.exposedHeaders(), r.maxAgeInSeconds()));
        }
        return out;
    }

    private static List<CorsRule> corsFromAvro(List<io.tablestream.schemas.avro.CorsRule> rules) {
        List<CorsRule> out = new ArrayList<>(rules.size());
        for (io.tablestream.schemas.avro.CorsRule r : rules) {
            List<CorsRule.Method> methods = new ArrayList<>(r.getAllowedMethods().size());
            for (CorsMethod m : r.getAllowedMethods()) {
                methods.add(CorsRule.Method.valueOf(m.name()));
            }
            out.add(CorsRule.of(r.getAllowedOrigins(), methods, r.getAllowedHeaders(), r.getExposedHeaders(),
                    r.getMaxAgeInSeconds()));
        }
        return out;
    }

    private static Integer daysOrNull(RetentionPolicy r) {
        return r.enabled() ? r.days().getAsInt() : null;
    }

    private static RetentionPolicy retention(Integer days) {
        return days == null ? RetentionPolicy.disabled() : RetentionPolicy.ofDays(days);
    }
}
