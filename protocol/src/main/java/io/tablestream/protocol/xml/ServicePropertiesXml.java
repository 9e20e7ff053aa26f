package io.tablestream.protocol.xml;

import static io.tablestream.protocol.xml.XmlElement.invalidDocument;
import static io.tablestream.protocol.xml.XmlElement.invalidValue;

import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.model.CorsRule;
import io.tablestream.core.model.LoggingSettings;
import io.tablestream.core.model.MetricsSettings;
import io.tablestream.core.model.RetentionPolicy;
import io.tablestream.core.model.ServiceProperties;
import io.tablestream.core.model.ServicePropertiesUpdate;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The {@code StorageServiceProperties} document of Get and Set Table Service Properties.
 *
 * <p>Reading (Set): each of {@code Logging}, {@code HourMetrics}, {@code MinuteMetrics} and
 * {@code Cors} may be left out, and an absent group keeps its stored settings; a group that is
 * present must be complete. Children may come in any order; unknown elements are ignored.
 *
 * <p>Writing (Get): the service's exact form, element order included (which differs from the
 * REST reference's samples: {@code Read, Write, Delete} in logging and {@code AllowedMethods}
 * first in a CORS rule), byte order mark and declaration, no white space, {@code <Cors />} for
 * no rules.
 */
public final class ServicePropertiesXml {
    private static final String ROOT = "StorageServiceProperties";
    /** Characters of all CORS settings of a request, XML tags excluded. */
    static final int MAX_CORS_SETTINGS_CHARS = 2 * 1024;

    private ServicePropertiesXml() {
    }

    /** {@link #parse(byte[])} of a stream, read up to the size bound. */
    public static ServicePropertiesUpdate parse(InputStream body) {
        return parse(SecureXmlReader.readBounded(body));
    }

    /**
     * The groups of settings a Set Table Service Properties body carries.
     *
     * @throws TableServiceException {@code InvalidXmlDocument} for malformed XML, a DTD, an empty
     *         body, a group with a required element missing or an element repeated, {@code Days}
     *         in a disabled retention policy, or more than {@value CorsRule#MAX_RULES} CORS rules;
     *         {@code InvalidXmlNodeValue} for a value that is not of its type or breaks a limit
     *         (version, retention days outside 1..365, negative {@code MaxAgeInSeconds}, an unknown
     *         CORS method, too many or too long origins or headers); {@code RequestBodyTooLarge}
     *         past 64 KiB
     */
    public static ServicePropertiesUpdate parse(byte[] body) {
        if (SecureXmlReader.isBlank(body)) {
            throw invalidDocument("the body is empty.");
        }
        XmlElement root = SecureXmlReader.parse(body);
        if (!root.name().equals(ROOT)) {
            throw invalidDocument("the root element must be " + ROOT + ", not " + root.name() + ".");
        }
        XmlElement logging = root.optional("Logging");
        XmlElement hour = root.optional("HourMetrics");
        XmlElement minute = root.optional("MinuteMetrics");
        XmlElement cors = root.optional("Cors");
        return new ServicePropertiesUpdate(
                Optional.ofNullable(logging).map(ServicePropertiesXml::readLogging),
                Optional.ofNullable(hour).map(ServicePropertiesXml::readMetrics),
                Optional.ofNullable(minute).map(ServicePropertiesXml::readMetrics),
                Optional.ofNullable(cors).map(ServicePropertiesXml::readCors));
    }

    private static LoggingSettings readLogging(XmlElement e) {
        String version = e.required("Version").value().strip();
        boolean delete = XmlValues.bool(e.required("Delete"), "Logging/Delete");
        boolean read = XmlValues.bool(e.required("Read"), "Logging/Read");
        boolean write = XmlValues.bool(e.required("Write"), "Logging/Write");
        RetentionPolicy retention = readRetention(e.required("RetentionPolicy"), "Logging");
        if (!LoggingSettings.VERSIONS.contains(version)) {
            throw invalidValue("Logging/Version", version, "expected one of " + LoggingSettings.VERSIONS);
        }
        return LoggingSettings.of(version, read, write, delete, retention);
    }

    private static MetricsSettings readMetrics(XmlElement e) {
        String group = e.name();
        String version = e.required("Version").value().strip();
        boolean enabled = XmlValues.bool(e.required("Enabled"), group + "/Enabled");
        XmlElement includeApis = e.optional("IncludeAPIs");
        RetentionPolicy retention = readRetention(e.required("RetentionPolicy"), group);
        if (!MetricsSettings.VERSIONS.contains(version)) {
            throw invalidValue(group + "/Version", version, "expected one of " + MetricsSettings.VERSIONS);
        }
        if (!enabled) {
            // IncludeAPIs means nothing for disabled metrics; it is read (so it must be a boolean) and dropped.
            if (includeApis != null) {
                XmlValues.bool(includeApis, group + "/IncludeAPIs");
            }
            return MetricsSettings.disabled(version, retention);
        }
        if (includeApis == null) {
            throw invalidDocument("the element " + group + " must contain an IncludeAPIs element when metrics are enabled.");
        }
        return MetricsSettings.enabled(version, XmlValues.bool(includeApis, group + "/IncludeAPIs"), retention);
    }

    private static RetentionPolicy readRetention(XmlElement e, String group) {
        String path = group + "/RetentionPolicy";
        boolean enabled = XmlValues.bool(e.required("Enabled"), path + "/Enabled");
        XmlElement days = e.optional("Days");
        if (!enabled) {
            if (days != null) {
                throw invalidDocument("the element Days is only expected when " + path + " is enabled.");
            }
            return RetentionPolicy.disabled();
        }
        if (days == null) {
            throw invalidDocument("the element " + path + " must contain a Days element when it is enabled.");
        }
        int n = XmlValues.integer(days, path + "/Days");
        if (n < RetentionPolicy.MIN_DAYS || n > RetentionPolicy.MAX_DAYS) {
            throw invalidValue(path + "/Days", days.value(),
                    "expected " + RetentionPolicy.MIN_DAYS + " to " + RetentionPolicy.MAX_DAYS + " days");
        }
        return RetentionPolicy.ofDays(n);
    }

    private static List<CorsRule> readCors(XmlElement cors) {
        List<XmlElement> rules = cors.all("CorsRule");
        if (rules.size() > CorsRule.MAX_RULES) {
            throw invalidDocument("at most " + CorsRule.MAX_RULES + " CorsRule elements are allowed, not "
                    + rules.size() + ".");
        }
        List<CorsRule> out = new ArrayList<>(rules.size());
        int settingsChars = 0;
        for (XmlElement r : rules) {
            String origins = r.required("AllowedOrigins").value();
            String methods = r.required("AllowedMethods").value();
            String allowedHeaders = r.required("AllowedHeaders").value();
            String exposedHeaders = r.required("ExposedHeaders").value();
            XmlElement maxAge = r.required("MaxAgeInSeconds");
            int seconds = XmlValues.integer(maxAge, "CorsRule/MaxAgeInSeconds");
            if (seconds < 0) {
                throw invalidValue("CorsRule/MaxAgeInSeconds", maxAge.value(), "must not be negative");
            }
            settingsChars += origins.length() + methods.length() + allowedHeaders.length() + exposedHeaders.length()
                    + maxAge.value().length();
            if (settingsChars > MAX_CORS_SETTINGS_CHARS) {
                throw invalidValue("the CORS settings of a request may have at most " + MAX_CORS_SETTINGS_CHARS
                        + " characters, XML tags excluded.");
            }
            out.add(readRule(origins, methods, allowedHeaders, exposedHeaders, seconds));
        }
        return out;
    }

    private static CorsRule readRule(String origins, String methods, String allowedHeaders, String exposedHeaders,
                                     int seconds) {
        try {
            return CorsRule.parse(origins, methods, allowedHeaders, exposedHeaders, seconds);
        } catch (IllegalArgumentException e) {
            throw invalidValue(e.getMessage() + ".");
        }
    }

    /** The Get Table Service Properties body for {@code properties}. */
    public static byte[] write(ServiceProperties properties) {
        XmlOutput out = new XmlOutput().start(ROOT);
        LoggingSettings log = properties.logging();
        out.start("Logging")
                .leaf("Version", log.version())
                .leaf("Read", log.read())
                .leaf("Write", log.write())
                .leaf("Delete", log.delete());
        writeRetention(out, log.retentionPolicy());
        out.end("Logging");
        writeMetrics(out, "HourMetrics", properties.hourMetrics());
        writeMetrics(out, "MinuteMetrics", properties.minuteMetrics());
        if (properties.cors().isEmpty()) {
            out.empty("Cors");
        } else {
            out.start("Cors");
            for (CorsRule r : properties.cors()) {
                out.start("CorsRule")
                        .leaf("AllowedMethods", r.allowedMethods().stream().map(Enum::name).collect(Collectors.joining(",")))
                        .leaf("AllowedOrigins", String.join(",", r.allowedOrigins()))
                        .leaf("AllowedHeaders", String.join(",", r.allowedHeaders()))
                        .leaf("ExposedHeaders", String.join(",", r.exposedHeaders()))
                        .leaf("MaxAgeInSeconds", r.maxAgeInSeconds())
                        .end("CorsRule");
            }
            out.end("Cors");
        }
        return out.end(ROOT).toBytes();
    }

    private static void writeMetrics(XmlOutput out, String name, MetricsSettings m) {
        out.start(name).leaf("Version", m.version()).leaf("Enabled", m.enabled());
        if (m.enabled()) {
            out.leaf("IncludeAPIs", m.includeApis());
        }
        writeRetention(out, m.retentionPolicy());
        out.end(name);
    }

    private static void writeRetention(XmlOutput out, RetentionPolicy r) {
        out.start("RetentionPolicy").leaf("Enabled", r.enabled());
        if (r.enabled()) {
            out.leaf("Days", r.days().getAsInt());
        }
        out.end("RetentionPolicy");
    }
}
