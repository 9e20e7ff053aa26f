package io.tablestream.protocol.http;

import io.javalin.http.Context;
import io.tablestream.core.odata.MetadataLevel;
import io.tablestream.core.odata.ODataContext;

/** What OData responses need from the request: the service base URL and the metadata level asked for. */
public final class ODataResponses {
    private ODataResponses() {
    }

    /** {@code http://host:port/account}, as the client addressed us (path-style). */
    public static ODataContext context(Context http, RequestContext request) {
        String host = http.header("Host");
        if (host == null || host.isBlank()) {
            host = http.req().getServerName() + ":" + http.req().getServerPort();
        }
        return ODataContext.forService(http.scheme() + "://" + host + "/" + request.account(), request.account());
    }

    /** The metadata level of the response body, from {@code $format} and {@code Accept}. */
    public static MetadataLevel level(Context http) {
        return MetadataLevel.negotiate(http.queryParam("$format"), http.header("Accept"));
    }
}
