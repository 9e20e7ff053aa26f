package io.tablestream.protocol.http;

import io.javalin.http.Context;

/** Establishes who sent a request (throws the service's 403/400 when it cannot). */
@FunctionalInterface
public interface Authenticator {
    Caller authenticate(RequestContext request, Context http);

    /**
     * Establishes who sent a request to an endpoint outside every account ({@code /_cluster}):
     * only an account key (SharedKey, SharedKeyLite) will do. Refuses everything by default.
     */
    default Caller authenticateAccountKey(RequestContext request, Context http) {
        throw io.tablestream.core.error.TableServiceException.of(io.tablestream.core.error.ErrorCode.AUTHORIZATION_FAILURE,
                "This endpoint needs a request signed with an account key.");
    }
}
