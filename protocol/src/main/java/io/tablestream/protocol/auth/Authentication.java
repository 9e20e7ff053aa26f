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
        this.serviceSas = new ServiceSasAuthentication(keys, policies, clock);
        this.accountSas = new AccountSasAuthentication(keys, clock);
    }

    /** The principal behind {@code request}. */
    public Principal authenticate(SignedRequest request) {
        Objects.requireNonNull(request, "request");
        String account = request.account();
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
}
