package io.tablestream.query.routing;

import java.util.Locale;
import java.util.Set;

/**
 * Which of a client's request headers travel with a request one instance forwards to another: only
 * what the owner needs to authenticate the request and to shape its answer — the credentials and
 * what a signature covers ({@code Authorization}, {@code Date}, {@code Content-Type},
 * {@code Content-MD5}, every {@code x-ms-*} header: the version, the date, the client request id,
 * the session token), and the OData negotiation ({@code Accept}, {@code DataServiceVersion},
 * {@code MaxDataServiceVersion}). Everything else stays with the client's own hop: its content
 * coding ({@code Accept-Encoding}: the forwarding instance asks for an identity-coded answer and
 * compresses the client's answer itself), its connection, cookies, CORS and cache headers, and this
 * cluster's own {@code x-tablestream-*} headers, which the forwarding instance sets afresh.
 */
public final class ForwardedHeaders {
    private static final Set<String> TRAVEL = Set.of("authorization", "date", "content-type", "content-md5",
            "accept", "dataserviceversion", "maxdataserviceversion");

    private ForwardedHeaders() {
    }

    /** Whether a client's request header of this name travels to the owner. */
    public static boolean travels(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        return TRAVEL.contains(lower) || lower.startsWith("x-ms-");
    }
}
