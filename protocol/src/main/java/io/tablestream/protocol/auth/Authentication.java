package io.tablestream.protocol.auth;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import java.time.Clock;
import java.util.List;
import java.util.Objects;

/**
 * Establishes who sent a request, choosing the scheme from what it carries: an
 * {@code Authorization} header is SharedKey or SharedKeyLite ({@link SharedKeyAuthentication});
 * without one, a {@code sig} query parameter makes it an account SAS when it has {@code ss} or
 * {@code srt} ({@link AccountSasAuthentication}), else a service SAS
 * ({@link ServiceSasAuthentication}); without either the request is anonymous, let in only when the
 * operator allows it. Every failure is a {@link TableServiceException}; no message quotes a
 * signature, a key or a string-to-sign, and signatures are compared in constant time.
 */
public final class Authentication {
    private final AccountKeys keys;
    private final AuthenticationSettings settings;
    private final SharedKeyAuthentication sharedKey;
    private final ServiceSasAuthentication serviceSas;
    private final AccountSasAuthentication accountSas;

    public Authentication(AccountKeys keys, StoredAccessPolicies policies, Clock clock,
                          AuthenticationSettings settings) {
        this.keys = Objects.requireNonNull(keys, "keys");
        this.settings = Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(policies, "policies");
        Objects.requireNonNull(clock, "clock");
        this.sharedKey = new SharedKeyAuthentication(keys, clock, settings);
        SasSignatures signatures = new SasSignatures(keys);
        this.serviceSas = new ServiceSasAuthentication(signatures, policies, clock);
        this.accountSas = new AccountSasAuthentication(signatures, clock);
    }

    /** The principal behind {@code request}. */
    public Principal authenticate(SignedRequest request) {
        Objects.requireNonNull(request, "request");
        String account = request.account();
        request = asTheClientSentIt(request, account);
        List<String> authorization = request.headers().getOrDefault("Authorization", List.of());
        if (!authorization.isEmpty()) {
            if (authorization.size() > 1) {
                throw AuthenticationErrors.invalidAuthenticationInfo("The request has more than one Authorization header.");
            }
            return sharedKey.authenticate(request, account, authorization.get(0));
        }
        if (request.query().containsKey("sig")) {
            if (request.query().containsKey("ss") || request.query().containsKey("srt")) {
                return accountSas.authenticate(request, account);
            }
            if (request.query().containsKey("tn")) {
                return serviceSas.authenticate(request, account);
            }
            throw AuthenticationErrors.authenticationFailed("The shared access signature is not well formed: it names"
                    + " neither a table (tn) nor services and resource types (ss, srt).");
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
            throw AuthenticationErrors.invalidAuthenticationInfo(
                    "The Authorization header is not in the form '<scheme> <account>:<signature>'.");
        }
        String account = value.substring(space + 1, colon).strip();
        return sharedKey.authenticate(asTheClientSentIt(request, account), account, value);
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
}
