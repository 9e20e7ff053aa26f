package io.tablestream.protocol.http;

/** Header names of the Table service protocol. */
public final class Headers {
    public static final String REQUEST_ID = "x-ms-request-id";
    public static final String CLIENT_REQUEST_ID = "x-ms-client-request-id";
    public static final String VERSION = "x-ms-version";
    public static final String DATE = "x-ms-date";
    public static final String ERROR_CODE = "x-ms-error-code";
    public static final String SESSION_TOKEN = "x-ms-session-token";
    public static final String CONTINUATION_NEXT_PARTITION_KEY = "x-ms-continuation-NextPartitionKey";
    public static final String CONTINUATION_NEXT_ROW_KEY = "x-ms-continuation-NextRowKey";
    public static final String CONTINUATION_NEXT_TABLE_NAME = "x-ms-continuation-NextTableName";
    public static final String X_HTTP_METHOD = "X-HTTP-Method";
    public static final String PREFER = "Prefer";
    public static final String PREFERENCE_APPLIED = "Preference-Applied";
    public static final String DATA_SERVICE_VERSION = "DataServiceVersion";
    public static final String DATA_SERVICE_ID = "DataServiceId";
    public static final String IF_MATCH = "If-Match";
    public static final String IF_NONE_MATCH = "If-None-Match";
    public static final String ETAG = "ETag";
    public static final String RETRY_AFTER = "Retry-After";
    public static final String CONNECTION = "Connection";

    // Tablestream's own headers between its instances. Honoured only on authenticated requests, and
    // never changing what a request without them gets.
    /**
     * On a request one instance forwards to another: which copy of the partition to read there,
     * {@code active} or {@code standby} (a standby, or the active if it is there). A forwarded request is
     * served where it arrives or refused with {@link #REPLICA_UNAVAILABLE}, never forwarded again.
     */
    public static final String FORWARDED = "x-tablestream-forwarded";
    /**
     * On a forwarded request: where the client addressed the forwarding instance,
     * {@code <scheme>://<host>[:<port>]}, so the service URLs of the answer (OData metadata and ids)
     * name that instance, as they would had it answered itself.
     */
    public static final String FORWARDED_ORIGIN = "x-tablestream-forwarded-origin";
    /** On a Query Entities answer (an extension): the secondary index the query was planned to read. */
    public static final String INDEX = "x-tablestream-index";
    /**
     * On a forwarded Query Entities request: the partitions to read (comma-separated), for a
     * scatter-gather; the answer is then the internal page format, for the forwarding instance to merge.
     */
    public static final String READ_PARTITIONS = "x-tablestream-partitions";
    /** With {@link #READ_PARTITIONS}: the rows the partial read may examine (at most the instance's own budget). */
    public static final String ROW_BUDGET = "x-tablestream-row-budget";
    /** On a 503 answer to a forwarded request: the copy asked for is not served here (moved, restoring, too far behind). */
    public static final String REPLICA_UNAVAILABLE = "x-tablestream-replica-unavailable";

    private Headers() {
    }
}
