package io.tablestream.protocol.http;

import io.javalin.http.Context;

/** Establishes who sent a request (throws the service's 403/400 when it cannot). */
@FunctionalInterface
public interface Authenticator {
    Caller authenticate(RequestContext request, Context http);
}
