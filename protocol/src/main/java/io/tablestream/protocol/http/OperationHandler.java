package io.tablestream.protocol.http;

import io.javalin.http.Context;

/**
 * Serves one operation once the pipeline has parsed, resolved and authenticated the request.
 * Handlers are thin: they parse what is specific to the operation, call the write or read side,
 * and serialize. A handler that waits (for an outcome, a session token) hands Javalin a future
 * ({@link Context#future}) instead of blocking the request thread.
 */
@FunctionalInterface
public interface OperationHandler {
    void handle(RequestContext request, Context http) throws Exception;
}
