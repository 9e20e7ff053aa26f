package io.tablestream.protocol.auth;

import static io.tablestream.protocol.auth.AuthenticationErrors.authenticationFailed;
import static io.tablestream.protocol.auth.AuthenticationErrors.invalidAuthenticationInfo;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The account-key schemes of the {@code Authorization} header, {@code SharedKey} and
 * {@code SharedKeyLite}, which differ only in what they sign:
 * <ul>
 *   <li>SharedKey: {@code VERB\nContent-MD5\nContent-Type\nDate\nCanonicalizedResource};</li>
 *   <li>SharedKeyLite: {@code Date\nCanonicalizedResource};</li>
 * </ul>
 * where Date is {@code x-ms-date} when present, else {@code Date} (when both are present, a
 * signature over {@code Date} is accepted too), and the canonicalized resource is {@code /account}
 * followed by the raw request path — so with path-style addressing the account appears twice —
 * plus {@code ?comp=v} when the request has a {@code comp} parameter. For a request to the
 * secondary location ({@code /account-secondary/...}) the Java and JavaScript SDKs sign the path
 * as sent, while the Python SDK signs the primary's path ({@code /account/...}, before it moves
 * the request to the secondary host), which is also the service's rule (leave {@code -secondary}
 * out of the canonicalized resource): both are accepted. The signed date must lie
 * within {@link AuthenticationSettings#requestDateTolerance()} of the clock.
 */
final class SharedKeyAuthentication {
    private static final Logger LOG = LoggerFactory.getLogger(SharedKeyAuthentication.class);

    private final AccountKeys keys;
    private final Clock clock;
    private final AuthenticationSettings settings;

    SharedKeyAuthentication(AccountKeys keys, Clock clock, AuthenticationSettings settings) {
        this.keys = keys;
        this.clock = clock;
        this.settings = settings;
    }

    /** @param header the one {@code Authorization} header of the request */
    Principal authenticate(SignedRequest request, String account, String header) {
        String value = header.strip();
        int space = value.indexOf(' ');
        if (space < 0) {
            throw invalidAuthenticationInfo("The Authorization header is not in the form '<scheme> <account>:<signature>'.");
        }
        String scheme = value.substring(0, space);
        boolean lite;
        if (scheme.equals("SharedKey")) {
            lite = false;
        } else if (scheme.equals("SharedKeyLite")) {
            lite = true;
        } else {
            throw invalidAuthenticationInfo("The authorization scheme is not supported: use SharedKey or SharedKeyLite.");
        }
        String credential = value.substring(space + 1).strip();
        int colon = credential.indexOf(':');
        if (colon <= 0 || colon == credential.length() - 1) {
            throw invalidAuthenticationInfo("The Authorization header is not in the form '" + scheme
                    + " <account>:<signature>'.");
        }
        String signedAccount = credential.substring(0, colon);
        String signature = credential.substring(colon + 1);
        List<AccountKey> accountKeys = keys.keysOf(account);
        if (accountKeys.isEmpty() || !signedAccount.equals(account)) {
            throw TableServiceException.of(ErrorCode.AUTHORIZATION_FAILURE,
                    "The request is not signed with a key of the account it addresses.");
        }

        List<String> resources = canonicalizedResources(account, request);
        String xmsDate = request.header("x-ms-date").orElse(null);
        String date = request.header("Date").orElse(null);
        List<String> dates = new ArrayList<>(2);
        dates.add(xmsDate != null ? xmsDate : date == null ? "" : date);
        if (xmsDate != null && date != null && !date.equals(xmsDate)) {
            dates.add(date); // some clients sign Date even when they send x-ms-date
        }
        String prefix = lite ? "" : request.method() + "\n" + request.header("Content-MD5").orElse("") + "\n"
                + request.header("Content-Type").orElse("") + "\n";
        for (AccountKey key : accountKeys) {
            for (String resource : resources) {
                for (String signedDate : dates) {
                    String stringToSign = prefix + signedDate + "\n" + resource;
                    if (key.signed(stringToSign, signature)) {
                        checkRequestDate(signedDate);
                        return lite ? Principal.sharedKeyLite(account, key.label())
                                : Principal.sharedKey(account, key.label());
                    }
                    if (LOG.isDebugEnabled()) {
                        LOG.debug("{} signature mismatch with {} over [{}]", scheme, key.label(), printable(stringToSign));
                    }
                }
            }
        }
        throw AuthenticationErrors.signatureMismatch("The " + scheme + " signature does not match the request: sign"
                + " the date and the canonicalized resource '" + printable(resources.get(0)) + "' with an account key.");
    }

    /** {@code /account} + the raw path + {@code ?comp=...} when the request has a comp parameter. */
    static String canonicalizedResource(String account, SignedRequest request) {
        return canonicalizedResource(account, request.rawPath(), request);
    }

    /** The resources a signature may cover: the path as sent, and for the secondary location also without the suffix. */
    private static List<String> canonicalizedResources(String account, SignedRequest request) {
        String asSent = canonicalizedResource(account, request);
        if (!request.secondaryLocation()) {
            return List.of(asSent);
        }
        return List.of(asSent, canonicalizedResource(account, request.rawPathOfPrimary(), request));
    }

    private static String canonicalizedResource(String account, String rawPath, SignedRequest request) {
        StringBuilder sb = new StringBuilder("/").append(account);
        sb.append(rawPath.isEmpty() ? "/" : rawPath);
        List<String> comp = new ArrayList<>();
        for (String v : request.queryValuesIgnoringCase("comp")) {
            comp.addAll(List.of(v.split(",", -1)));
        }
        if (!comp.isEmpty()) {
            comp.sort(null);
            sb.append("?comp=").append(String.join(",", comp));
        }
        return sb.toString();
    }

    private void checkRequestDate(String signedDate) {
        Duration tolerance = settings.requestDateTolerance();
        if (tolerance == null) {
            return;
        }
        if (signedDate.isEmpty()) {
            throw authenticationFailed("The request has no date: send x-ms-date or Date and sign it.");
        }
        Instant when;
        try {
            when = ZonedDateTime.parse(signedDate, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
        } catch (DateTimeParseException e) {
            throw authenticationFailed("The request date is not an RFC 1123 date.");
        }
        Duration skew = Duration.between(when, clock.instant()).abs();
        if (skew.compareTo(tolerance) > 0) {
            throw authenticationFailed("The request date is more than " + tolerance.toMinutes()
                    + " minutes away from the server's time.");
        }
    }

    private static String printable(String s) {
        return s.replace("\n", "\\n");
    }
}
