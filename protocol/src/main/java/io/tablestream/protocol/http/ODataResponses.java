package io.tablestream.protocol.http;

import io.javalin.http.Context;
import io.tablestream.core.odata.MetadataLevel;
import io.tablestream.core.odata.ODataContext;
import java.util.regex.Pattern;

/** What OData responses need from the request: the service base URL and the metadata level asked for. */
public final class ODataResponses {
    /** A scheme and an authority, nothing else: what {@link Headers#FORWARDED_ORIGIN} may carry. */
    private static final Pattern ORIGIN = Pattern.compile("https?://[A-Za-z0-9.\\-]+(:[0-9]{1,5})?|https?://\\[[0-9A-Fa-f:.]+](:[0-9]{1,5})?");

    private ODataResponses() {
    }

    /**
     * {@code http://host:port/account}, as the client addressed us (path-style) — or, on a request
     * another instance forwarded, as the client addressed that instance.
     */
    public static ODataContext context(Context http, RequestContext request) {
        String origin = http.header(Headers.FORWARDED) != null ? http.header(Headers.FORWARDED_ORIGIN) : null;
        if (origin == null || !ORIGIN.matcher(origin).matches()) {
            origin = origin(http);
        }
        return ODataContext.forService(origin + "/" + request.account(), request.account());
    }

    /** {@code <scheme>://<host>[:<port>]} of this request as the client addressed it (its Host header). */
    public static String origin(Context http) {
        String host = http.header("Host");
        if (host == null || host.isBlank()) {
            host = http.req().getServerName() + ":" + http.req().getServerPort();
        }
        return http.scheme() + "://" + host;
    }

    /** The metadata level of the response body, from {@code $format} and {@code Accept}. */
    public static MetadataLevel level(RequestContext request, Context http) {
        return MetadataLevel.negotiate(request.queryParam("$format"), http.header("Accept"));
    }
}
