package io.tablestream.protocol.http;

import io.javalin.http.Context;
import io.tablestream.protocol.cors.CorsHeaders;
import io.tablestream.protocol.cors.CorsPolicies;

/**
 * Answers a CORS preflight ({@code OPTIONS}, never authenticated) from the CORS rules of the
 * account the path names: 200 with the {@code Access-Control-*} headers when a rule allows the
 * origin, method and headers asked for; 403 CorsPreflightFailure when none does (or the account
 * has no rules); 400 InvalidHeaderValue without {@code Origin} or
 * {@code Access-Control-Request-Method}. Preflights are evaluated against the service, not the
 * resource the path names.
 */
final class PreflightHandler implements OperationHandler {
    static final String ORIGIN = "Origin";
    static final String REQUEST_METHOD = "Access-Control-Request-Method";
    static final String REQUEST_HEADERS = "Access-Control-Request-Headers";

    private final CorsPolicies cors;

    PreflightHandler(CorsPolicies cors) {
        this.cors = cors;
    }

    @Override
    public void handle(RequestContext request, Context http) {
        CorsHeaders headers = cors.forAccount(request.account())
                .preflight(http.header(ORIGIN), http.header(REQUEST_METHOD), http.header(REQUEST_HEADERS));
        ResponseHeaders.standard(http, request);
        headers.asMap().forEach(http::header);
        http.status(200);
    }
}
