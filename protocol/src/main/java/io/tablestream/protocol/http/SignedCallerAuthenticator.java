package io.tablestream.protocol.http;

import io.javalin.http.Context;
import io.tablestream.core.filter.KeyRange;
import io.tablestream.core.model.TableName;
import io.tablestream.protocol.auth.Access;
import io.tablestream.protocol.auth.Authentication;
import io.tablestream.protocol.auth.Principal;
import io.tablestream.protocol.auth.SignedRequest;
import io.tablestream.protocol.request.Operation;
import jakarta.servlet.http.HttpServletRequest;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Enumeration;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Authenticates requests with the storage schemes (SharedKey, SharedKeyLite, service and account
 * SAS) of {@link Authentication}, and authorizes each operation
 * against what the credentials allow.
 */
public final class SignedCallerAuthenticator implements Authenticator {
    private final Authentication authentication;

    public SignedCallerAuthenticator(Authentication authentication) {
        this.authentication = authentication;
    }

    @Override
    public Caller authenticate(RequestContext request, Context http) {
        SignedRequest signed = signedRequest(request, http);
        Principal principal = authentication.authenticate(signed);
        ServiceVersion.requireNamedBy(principal.kind(), http.header(Headers.VERSION));
        return new PrincipalCaller(principal,
                () -> Map.of(Authentication.forwardedClientHeader(),
                        authentication.attestForwarding(signed, request.account())));
    }

    @Override
    public Caller authenticateAccountKey(RequestContext request, Context http) {
        SignedRequest signed = signedRequest(request, http);
        io.tablestream.protocol.auth.Principal principal = authentication.authenticateAccountKey(signed);
        return new PrincipalCaller(principal, () -> Map.of(Authentication.forwardedClientHeader(),
                authentication.attestForwarding(signed, principal.account())));
    }

    /**
     * The request as signatures see it: the path exactly as received, the headers authentication
     * reads ({@link SignedRequest#HEADERS_READ}), the query as the pipeline split it.
     */
    static SignedRequest signedRequest(RequestContext request, Context http) {
        HttpServletRequest req = http.req();
        SignedRequest.Builder b = SignedRequest.builder()
                .method(req.getMethod())
                .rawPath(req.getRequestURI())
                .query(request.query())
                .https(req.isSecure());
        for (String name : SignedRequest.HEADERS_READ) {
            Enumeration<String> values = req.getHeaders(name);
            while (values.hasMoreElements()) {
                b.header(name, values.nextElement());
            }
        }
        try {
            b.clientAddress(InetAddress.getByName(req.getRemoteAddr()));
        } catch (UnknownHostException e) {
            // a literal address never needs a lookup; leave it unknown
        }
        return b.build();
    }

    /** A {@link Caller} backed by an authenticated {@link Principal}. */
    static final class PrincipalCaller implements Caller {
        private final Principal principal;
        private final Supplier<Map<String, String>> forwarding;

        PrincipalCaller(Principal principal, Supplier<Map<String, String>> forwarding) {
            this.principal = principal;
            this.forwarding = forwarding;
        }

        @Override
        public Map<String, String> forwardingHeaders() {
            return forwarding.get();
        }

        @Override
        public String principal() {
            return principal.audit();
        }

        @Override
        public void authorize(Operation operation, String table, String partitionKey, String rowKey) {
            principal.authorize(Access.of(operation, table == null ? null : TableName.of(table), partitionKey, rowKey));
        }

        @Override
        public void authorize(Operation operation, String table, KeyRange keys) {
            principal.authorize(new Access(operation, TableName.of(table), null, null, keys));
        }

        @Override
        public KeyRange readableKeys(String table) {
            return principal.keyRange();
        }

        @Override
        public boolean mayRead(String table, String partitionKey, String rowKey) {
            return principal.contains(partitionKey, rowKey);
        }

        @Override
        public boolean mayReadSomeOf(String table, String partitionKey) {
            return principal.touchesPartition(partitionKey);
        }
    }
}
