package io.tablestream.protocol.http;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.protocol.auth.Principal;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@code x-ms-version} a request names: a service version is a date written {@code YYYY-MM-DD}
 * ("Versioning for the Azure Storage services"). Tablestream speaks the JSON protocol, which the
 * service has had since {@value #FIRST_JSON_VERSION}; a version that is not a valid date, or is
 * older than that, is refused with 400 InvalidHeaderValue. A request signed with an account key
 * (SharedKey, SharedKeyLite) must name a version, as the service has required since it stopped
 * serving unversioned account-key requests (400 MissingRequiredHeader); a SAS request (whose
 * {@code sv} names its version) or an anonymous one without the header is served as
 * {@value RequestContext#DEFAULT_VERSION} (the version the SDKs send).
 */
public final class ServiceVersion {
    /** The first service version whose Table service speaks JSON. */
    public static final String FIRST_JSON_VERSION = "2013-08-15";
    private static final DateTimeFormatter FORMAT = DateTimeFormatter.ofPattern("uuuu-MM-dd")
            .withResolverStyle(ResolverStyle.STRICT);
    /** Versions seen to parse, so that the few that clients send are parsed once (at most {@value #MAX_KNOWN}). */
    private static final Set<String> PARSED = ConcurrentHashMap.newKeySet();
    private static final int MAX_KNOWN = 256;

    private ServiceVersion() {
    }

    /** Whether {@code header} (null when absent) is a version Tablestream serves, or absent. */
    public static boolean isServed(String header) {
        return header == null || header.isBlank() || parses(header) && header.compareTo(FIRST_JSON_VERSION) >= 0;
    }

    /**
     * @throws TableServiceException 400 InvalidHeaderValue for a version that is not {@code YYYY-MM-DD}, or older
     *     than {@value #FIRST_JSON_VERSION}
     */
    public static void require(String header) {
        if (isServed(header)) {
            return;
        }
        if (!parses(header)) {
            throw TableServiceException.of(ErrorCode.INVALID_HEADER_VALUE, "The value of the x-ms-version header is"
                    + " not a service version: versions are dates written YYYY-MM-DD, e.g. "
                    + RequestContext.DEFAULT_VERSION + ".");
        }
        throw TableServiceException.of(ErrorCode.INVALID_HEADER_VALUE, "The service version " + header
                + " predates the JSON protocol; this service speaks versions from " + FIRST_JSON_VERSION + " on.");
    }

    /**
     * @throws TableServiceException 400 MissingRequiredHeader when {@code kind} signs with an account key
     *     and {@code header} (null when absent) names no version
     */
    public static void requireNamedBy(Principal.Kind kind, String header) {
        boolean accountKey = kind == Principal.Kind.SHARED_KEY || kind == Principal.Kind.SHARED_KEY_LITE;
        if (accountKey && (header == null || header.isBlank())) {
            throw TableServiceException.of(ErrorCode.MISSING_REQUIRED_HEADER, "A request signed with an account key"
                    + " must name the service version in the x-ms-version header, e.g. " + RequestContext.DEFAULT_VERSION
                    + ".");
        }
    }

    private static boolean parses(String header) {
        if (header.length() != 10) {
            return false;
        }
        if (PARSED.contains(header)) {
            return true;
        }
        try {
            LocalDate.parse(header, FORMAT);
        } catch (DateTimeParseException e) {
            return false;
        }
        if (PARSED.size() < MAX_KNOWN) {
            PARSED.add(header);
        }
        return true;
    }
}
