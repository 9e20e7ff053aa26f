package io.tablestream.protocol.auth;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.model.AccessPolicy;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.TablePermission;
import io.tablestream.core.model.TableName;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Establishes who sent a request: verifies a SharedKey or SharedKeyLite {@code Authorization}
 * header, a service SAS or an account SAS, or lets an unsigned request in as anonymous when the
 * operator allows it. Every failure is a {@link TableServiceException}; no message quotes a
 * signature, a key or a string-to-sign, and signatures are compared in constant time.
 *
 * <p>Forms accepted (the canonicalized resource is {@code /account} followed by the raw request
 * path, so with path-style addressing the account appears twice, plus {@code ?comp=v} when the
 * request has a {@code comp} parameter):
 * <ul>
 *   <li>SharedKey: {@code VERB\nContent-MD5\nContent-Type\nDate\nCanonicalizedResource};</li>
 *   <li>SharedKeyLite: {@code Date\nCanonicalizedResource};</li>
 * </ul>
 * where Date is {@code x-ms-date} when present, else {@code Date} (when both are present, a
 * signature over {@code Date} is accepted too). The signed date must lie within
 * {@link AuthenticationSettings#requestDateTolerance()} of the clock.
 */
public final class Authenticator {
    private static final Logger LOG = LoggerFactory.getLogger(Authenticator.class);

    private static final Pattern VERSION = Pattern.compile("^[0-9]{4}-[0-9]{2}-[0-9]{2}$");
    /** First version with table SAS. */
    private static final String SAS_MIN_VERSION = "2012-02-12";
    /** From this version the canonicalized resource of a service SAS names the service. */
    private static final String SAS_SERVICE_PREFIX_VERSION = "2015-02-21";
    /** From this version SAS sign {@code sip} and {@code spr}; first version with account SAS. */
    private static final String SAS_IP_PROTOCOL_VERSION = "2015-04-05";
    /** From this version account SAS sign the encryption scope {@code ses}. */
    private static final String SAS_ENCRYPTION_SCOPE_VERSION = "2020-12-06";
    private static final Pattern ACCOUNT_PERMISSIONS = Pattern.compile("^[a-z]+$");
    private static final Pattern ACCOUNT_SERVICES = Pattern.compile("^[bqtf]+$");
    private static final Pattern ACCOUNT_RESOURCE_TYPES = Pattern.compile("^[sco]+$");

    private final AccountKeys keys;
    private final StoredAccessPolicies policies;
    private final Clock clock;
    private final AuthenticationSettings settings;

    public Authenticator(AccountKeys keys, StoredAccessPolicies policies, Clock clock,
                         AuthenticationSettings settings) {
        this.keys = Objects.requireNonNull(keys, "keys");
        this.policies = Objects.requireNonNull(policies, "policies");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    /**
     * The principal behind {@code request}. An {@code Authorization} header decides; without one a
     * {@code sig} query parameter makes it a SAS (an account SAS when it has {@code ss} or
     * {@code srt}, else a service SAS); without either the request is anonymous, let in only when
     * the settings allow it.
     */
    public Principal authenticate(SignedRequest request) {
        Objects.requireNonNull(request, "request");
        String account = request.account();
        request = asTheClientSentIt(request, account);
        List<String> authorization = request.headers().getOrDefault("Authorization", List.of());
        if (!authorization.isEmpty()) {
            if (authorization.size() > 1) {
                throw invalidAuthenticationInfo("The request has more than one Authorization header.");
            }
            return sharedKey(request, account, authorization.get(0));
        }
        if (request.query().containsKey("sig")) {
            if (request.query().containsKey("ss") || request.query().containsKey("srt")) {
                return accountSas(request, account);
            }
            if (request.query().containsKey("tn")) {
                return serviceSas(request, account);
            }
            throw authenticationFailed("The shared access signature is not well formed: it names neither a table"
                    + " (tn) nor services and resource types (ss, srt).");
        }
        if (settings.anonymousAccess() && keys.contains(account)) {
            return Principal.anonymous(account);
        }
        throw TableServiceException.of(ErrorCode.AUTHORIZATION_FAILURE,
                "The request carries no credentials: sign it with the account key or a shared access signature.");
    }

    /**
     * The principal behind a request to an endpoint outside every account ({@code /_cluster}): only
     * SharedKey or SharedKeyLite, for the account the {@code Authorization} header names, whose
     * canonicalized resource is {@code /<that account>} followed by the raw path.
     */
    public Principal authenticateAccountKey(SignedRequest request) {
        Objects.requireNonNull(request, "request");
        List<String> authorization = request.headers().getOrDefault("Authorization", List.of());
        if (authorization.size() != 1) {
            throw TableServiceException.of(ErrorCode.AUTHORIZATION_FAILURE,
                    "This endpoint takes one Authorization header, SharedKey or SharedKeyLite with an account key.");
        }
        String value = authorization.get(0).strip();
        int space = value.indexOf(' ');
        int colon = value.indexOf(':');
        if (space < 0 || colon < space) {
            throw invalidAuthenticationInfo("The Authorization header is not in the form '<scheme> <account>:<signature>'.");
        }
        String account = value.substring(space + 1, colon).strip();
        return sharedKey(asTheClientSentIt(request, account), account, value);
    }

    /**
     * The header value with which an instance forwarding {@code request} (already authenticated
     * here) vouches to the receiving instance for the client's address and scheme; see
     * {@link ForwardedClient}.
     */
    public String attestForwarding(SignedRequest request, String account) {
        List<AccountKey> accountKeys = keys.keysOf(account);
        if (accountKeys.isEmpty()) {
            throw new IllegalStateException("no key to vouch for a request of an unknown account");
        }
        return ForwardedClient.attest(request, accountKeys.get(0));
    }

    /** The name of the header {@link #attestForwarding} fills. */
    public static String forwardedClientHeader() {
        return ForwardedClient.HEADER;
    }

    /** {@code request} with the client address and scheme a forwarding instance vouched for, if it did. */
    private SignedRequest asTheClientSentIt(SignedRequest request, String account) {
        return ForwardedClient.verify(request, keys.keysOf(account)).map(c -> c.applyTo(request)).orElse(request);
    }

    // ---------------------------------------------------------------- SharedKey, SharedKeyLite

    private Principal sharedKey(SignedRequest request, String account, String header) {
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

        String resource = canonicalizedResource(account, request);
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
            for (String signedDate : dates) {
                String stringToSign = prefix + signedDate + "\n" + resource;
                if (signatureMatches(key.sign(stringToSign), signature)) {
                    checkRequestDate(signedDate);
                    return lite ? Principal.sharedKeyLite(account, key.label()) : Principal.sharedKey(account, key.label());
                }
                if (LOG.isDebugEnabled()) {
                    LOG.debug("{} signature mismatch with {} over [{}]", scheme, key.label(), printable(stringToSign));
                }
            }
        }
        throw TableServiceException.of(ErrorCode.AUTHORIZATION_FAILURE,
                "The " + scheme + " signature does not match the request: sign the date and the canonicalized"
                        + " resource '" + printable(resource) + "' with an account key.");
    }

    /** {@code /account} + the raw path + {@code ?comp=...} when the request has a comp parameter. */
    static String canonicalizedResource(String account, SignedRequest request) {
        StringBuilder sb = new StringBuilder("/").append(account);
        sb.append(request.rawPath().isEmpty() ? "/" : request.rawPath());
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

    // ---------------------------------------------------------------- service SAS

    private static boolean isTablePermissions(String letters) {
        try {
            TablePermission.parse(letters);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static Instant instantOrNull(EdmDateTime t) {
        return t == null ? null : t.toInstant();
    }

    private Principal serviceSas(SignedRequest request, String account) {
        SasParameters p = new SasParameters(request);
        String version = p.version(SAS_MIN_VERSION);
        String tableName = p.required("tn");
        if (!TableName.isValid(tableName)) {
            throw authenticationFailed("The shared access signature's table name (tn) is not a valid table name.");
        }
        TableName table = TableName.of(tableName);
        String permissions = p.optional("sp");
        if (permissions != null && !isTablePermissions(permissions)) {
            throw authenticationFailed("The shared access signature's permissions (sp) must be letters of 'raud'.");
        }
        String start = p.optional("st");
        String expiry = p.optional("se");
        Instant startTime = p.time("st", start);
        Instant expiryTime = p.time("se", expiry);
        String identifier = p.optional("si");
        String ip = p.optional("sip");
        IpRange ipRange = p.ipRange(ip);
        String protocol = p.protocol();
        String startPk = p.optional("spk");
        String startRk = p.optional("srk");
        String endPk = p.optional("epk");
        String endRk = p.optional("erk");
        if ((startRk != null && startPk == null) || (endRk != null && endPk == null)) {
            throw authenticationFailed("The shared access signature is not well formed: a RowKey bound (srk, erk)"
                    + " needs its PartitionKey bound (spk, epk).");
        }
        String signature = p.signature();

        String resource = version.compareTo(SAS_SERVICE_PREFIX_VERSION) >= 0
                ? "/table/" + account + "/" + table.key()
                : "/" + account + "/" + table.key();
        List<String> fields = new ArrayList<>(List.of(nz(permissions), nz(start), nz(expiry), resource, nz(identifier)));
        if (version.compareTo(SAS_IP_PROTOCOL_VERSION) >= 0) {
            fields.add(nz(ip));
            fields.add(nz(protocol));
        }
        fields.addAll(List.of(version, nz(startPk), nz(startRk), nz(endPk), nz(endRk)));
        AccountKey key = verifySas(account, String.join("\n", fields), signature, "service");

        if (identifier != null) {
            AccessPolicy policy = policies.find(account, table, identifier).orElseThrow(() -> authenticationFailed(
                    "The table has no stored access policy with the signed identifier (si) of the shared access signature."));
            if ((start != null && policy.start() != null) || (expiry != null && policy.expiry() != null)
                    || (permissions != null && !policy.permissions().isEmpty())) {
                throw authenticationFailed("A start, expiry or permission is given both by the shared access"
                        + " signature and by its stored access policy; give each in one place only.");
            }
            startTime = startTime != null ? startTime : instantOrNull(policy.start());
            expiryTime = expiryTime != null ? expiryTime : instantOrNull(policy.expiry());
            permissions = permissions != null ? permissions
                    : policy.permissions().isEmpty() ? null : policy.permissionSymbols();
        }
        if (expiryTime == null) {
            throw authenticationFailed("The shared access signature has no expiry (se), nor has its stored access policy.");
        }
        if (permissions == null) {
            throw authenticationFailed("The shared access signature has no permissions (sp), nor has its stored access policy.");
        }
        checkValidity(startTime, expiryTime);
        checkProtocol(protocol, request);
        checkIp(ipRange, request);
        return Principal.serviceSas(account, table, permissions,
                new TableAccessRange(startPk, startRk, endPk, endRk), identifier, key.label());
    }

    // ---------------------------------------------------------------- account SAS

    private Principal accountSas(SignedRequest request, String account) {
        SasParameters p = new SasParameters(request);
        String version = p.version(SAS_IP_PROTOCOL_VERSION);
        String services = p.required("ss");
        String resourceTypes = p.required("srt");
        String permissions = p.required("sp");
        if (!ACCOUNT_SERVICES.matcher(services).matches() || !ACCOUNT_RESOURCE_TYPES.matcher(resourceTypes).matches()
                || !ACCOUNT_PERMISSIONS.matcher(permissions).matches()) {
            throw authenticationFailed("The account SAS is not well formed: ss, srt or sp holds an unknown letter.");
        }
        String start = p.optional("st");
        String expiry = p.required("se");
        Instant startTime = p.time("st", start);
        Instant expiryTime = p.time("se", expiry);
        String ip = p.optional("sip");
        IpRange ipRange = p.ipRange(ip);
        String protocol = p.protocol();
        String signature = p.signature();

        List<String> fields = new ArrayList<>(List.of(account, permissions, services, resourceTypes, nz(start),
                expiry, nz(ip), nz(protocol), version));
        if (version.compareTo(SAS_ENCRYPTION_SCOPE_VERSION) >= 0) {
            fields.add(nz(p.optional("ses")));
        }
        fields.add(""); // the account SAS string-to-sign ends with a newline
        AccountKey key = verifySas(account, String.join("\n", fields), signature, "account");

        checkValidity(startTime, expiryTime);
        checkProtocol(protocol, request);
        checkIp(ipRange, request);
        if (services.indexOf('t') < 0) {
            throw TableServiceException.of(ErrorCode.AUTHORIZATION_SERVICE_MISMATCH,
                    "The account SAS does not include the Table service (ss must include 't').");
        }
        return Principal.accountSas(account, resourceTypes, permissions, key.label());
    }

    // ---------------------------------------------------------------- shared SAS checks

    private AccountKey verifySas(String account, String stringToSign, String signature, String kind) {
        List<AccountKey> accountKeys = keys.keysOf(account);
        for (AccountKey key : accountKeys) {
            if (signatureMatches(key.sign(stringToSign), signature)) {
                return key;
            }
        }
        if (LOG.isDebugEnabled()) {
            LOG.debug("{} SAS signature mismatch over [{}]", kind, printable(stringToSign));
        }
        throw TableServiceException.of(ErrorCode.AUTHORIZATION_FAILURE,
                "The " + kind + " SAS signature does not match its fields, or was not made with a key of the account"
                        + " the request addresses.");
    }

    private void checkValidity(Instant start, Instant expiry) {
        Instant now = clock.instant();
        if (start != null && now.isBefore(start)) {
            throw authenticationFailed("The shared access signature is not valid yet.");
        }
        if (now.isAfter(expiry)) {
            throw authenticationFailed("The shared access signature has expired.");
        }
    }

    private static void checkProtocol(String protocol, SignedRequest request) {
        if ("https".equals(protocol) && !request.https()) {
            throw TableServiceException.of(ErrorCode.AUTHORIZATION_PROTOCOL_MISMATCH,
                    "The shared access signature allows https only.");
        }
    }

    private static void checkIp(IpRange range, SignedRequest request) {
        if (range != null && (request.clientAddress() == null || !range.contains(request.clientAddress()))) {
            throw TableServiceException.of(ErrorCode.AUTHORIZATION_SOURCE_IP_MISMATCH,
                    "The shared access signature does not allow requests from this IP address.");
        }
    }

    /** Constant-time comparison of the expected base64 signature with the one the client sent. */
    static boolean signatureMatches(String expected, String provided) {
        return MessageDigest.isEqual(expected.getBytes(StandardCharsets.US_ASCII),
                provided.getBytes(StandardCharsets.UTF_8));
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }

    private static String printable(String s) {
        return s.replace("\n", "\\n");
    }

    static TableServiceException authenticationFailed(String message) {
        return TableServiceException.of(ErrorCode.AUTHENTICATION_FAILED, message);
    }

    private static TableServiceException invalidAuthenticationInfo(String message) {
        return TableServiceException.of(ErrorCode.INVALID_AUTHENTICATION_INFO, message);
    }

    /** The SAS query parameters of a request: each at most once, an empty value counting as absent. */
    private static final class SasParameters {
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
    }
}
