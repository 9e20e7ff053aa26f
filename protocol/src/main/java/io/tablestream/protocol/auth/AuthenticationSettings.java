package io.tablestream.protocol.auth;

import java.time.Duration;
import java.util.Objects;

/**
 * What the operator decides about authentication.
 *
 * @param anonymousAccess whether a request without any credentials is let in (with full access to
 *     the account it addresses); off unless the operator turns it on
 * @param requestDateTolerance how far the signed request date of a SharedKey or SharedKeyLite
 *     request may lie from the server's clock, either way; the service allows 15 minutes.
 *     {@code null} turns the check off.
 */
public record AuthenticationSettings(boolean anonymousAccess, Duration requestDateTolerance) {
    /** The storage service's limit on a signed request's age. */
    public static final Duration SERVICE_REQUEST_DATE_TOLERANCE = Duration.ofMinutes(15);

    public AuthenticationSettings {
        if (requestDateTolerance != null && requestDateTolerance.isNegative()) {
            throw new IllegalArgumentException("requestDateTolerance must not be negative");
        }
    }

    /** No anonymous access; request dates checked as the service does. */
    public static AuthenticationSettings defaults() {
        return new AuthenticationSettings(false, SERVICE_REQUEST_DATE_TOLERANCE);
    }

    public AuthenticationSettings withAnonymousAccess(boolean allowed) {
        return new AuthenticationSettings(allowed, requestDateTolerance);
    }

    public AuthenticationSettings withRequestDateTolerance(Duration tolerance) {
        return new AuthenticationSettings(anonymousAccess, Objects.requireNonNull(tolerance, "tolerance"));
    }

    /** Accepts any signed request date (for replaying recorded traffic). */
    public AuthenticationSettings withoutRequestDateCheck() {
        return new AuthenticationSettings(anonymousAccess, null);
    }
}
