package io.tablestream.protocol.http;

import io.javalin.http.Context;

/**
 * Told of every request the pipeline took, once its answer is complete (errors included), on the
 * thread that completes it: metrics. Must be fast and must not throw.
 */
@FunctionalInterface
public interface RequestObserver {
    /**
     * @param request what the pipeline knew of the request (its operation may be null: a request
     *     refused before it was resolved, or one to an endpoint outside the Table service)
     * @param status the answer's HTTP status
     * @param nanos how long the pipeline took, from taking the request to completing the answer
     */
    void completed(RequestContext request, Context http, int status, long nanos);
}
