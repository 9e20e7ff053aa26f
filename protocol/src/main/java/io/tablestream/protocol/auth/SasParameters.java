package io.tablestream.protocol.auth;

import static io.tablestream.protocol.auth.AuthenticationErrors.authenticationFailed;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The query parameters of a shared access signature, each at most once, an empty value counting as
 * absent, and the checks both kinds of SAS (service and account) make of them: the time window, the
 * protocol and the client address (the signature: {@link SasSignatures}).
 */
final class SasParameters {
    private static final Pattern VERSION = Pattern.compile("^[0-9]{4}-[0-9]{2}-[0-9]{2}$");

    private final SignedRequest request;

    SasParameters(SignedRequest request) {
        this.request = request;
    }

    String optional(String name) {
        List<String> values = request.query().get(name);
        if (values == null || values.isEmpty()) {
            return null;
        }
        if (values.size() > 1) {
            throw authenticationFailed("The shared access signature parameter '" + name + "' appears more than once.");
        }
        return values.get(0).isEmpty() ? null : values.get(0);
    }

    String required(String name) {
        String value = optional(name);
        if (value == null) {
            throw authenticationFailed("The shared access signature lacks the parameter '" + name + "'.");
        }
        return value;
    }

    /** The signed version {@code sv}, which must be {@code minimum} or later. */
    String version(String minimum) {
        String version = required("sv");
        if (!VERSION.matcher(version).matches() || version.compareTo(minimum) < 0) {
            throw authenticationFailed("The shared access signature's version (sv) must be a service version"
                    + " from " + minimum + " on.");
        }
        return version;
    }

    Instant time(String name, String value) {
        if (value == null) {
            return null;
        }
        Instant t = SasTime.parse(value);
        if (t == null) {
            throw authenticationFailed("The shared access signature's '" + name + "' is not an ISO 8601 UTC time.");
        }
        return t;
    }

    IpRange ipRange(String value) {
        if (value == null) {
            return null;
        }
        IpRange range = IpRange.parse(value);
        if (range == null) {
            throw authenticationFailed("The shared access signature's IP range (sip) is not an IPv4 address or range.");
        }
        return range;
    }

    String protocol() {
        String value = optional("spr");
        if (value != null && !value.equals("https") && !value.equals("https,http") && !value.equals("http,https")) {
            throw authenticationFailed("The shared access signature's protocol (spr) must be 'https' or 'https,http'.");
        }
        return value;
    }

    /** The signature; a space stands for a '+' that reached us unencoded. */
    String signature() {
        return required("sig").replace(' ', '+');
    }

    static void checkValidity(Clock clock, Instant start, Instant expiry) {
        Instant now = clock.instant();
        if (start != null && now.isBefore(start)) {
            throw authenticationFailed("The shared access signature is not valid yet.");
        }
        if (now.isAfter(expiry)) {
            throw authenticationFailed("The shared access signature has expired.");
        }
    }

    static void checkProtocol(String protocol, SignedRequest request) {
        if ("https".equals(protocol) && !request.https()) {
            // Azure's own message, word for word: clients and their logs match on it
            throw TableServiceException.of(ErrorCode.AUTHORIZATION_PROTOCOL_MISMATCH);
        }
    }

    static void checkIp(IpRange range, SignedRequest request) {
        if (range != null && (request.clientAddress() == null || !range.contains(request.clientAddress()))) {
            throw TableServiceException.of(ErrorCode.AUTHORIZATION_SOURCE_IP_MISMATCH,
                    "The shared access signature does not allow requests from this IP address.");
        }
    }

    static String orEmpty(String s) {
        return s == null ? "" : s;
    }
}
