package io.tablestream.client;

import io.tablestream.client.ChangeSet;
import io.tablestream.client.Continuation;
import io.tablestream.client.ServiceError;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The Table service's REST protocol as the command needs it — Query Tables, Create Table, Query
 * Entities page by page, {@code $batch} — over {@link HttpClient} (HTTP/1.1, one pooled connection
 * per request in flight), authenticated as {@link TableAccount} says. Every call is asynchronous.
 * A page's continuation is known from its headers, before its body has arrived, so a reader can ask
 * for the next page while the previous one is still coming in.
 */
public final class TableServiceHttp implements AutoCloseable {
    /** The protocol version the official Java SDK speaks (and every Table service serves). */
    public static final String VERSION = "2019-02-02";
    public static final String MINIMAL_METADATA = "application/json;odata=minimalmetadata";
    public static final String NO_METADATA = "application/json;odata=nometadata";
    /** Each request: what one may take (a page of a long query, a batch of 100 under load), with room to spare. */
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private final TableAccount account;
    private final String basePath;
    private final ExecutorService executor;
    private final HttpClient http;

    public TableServiceHttp(TableAccount account) {
        this.account = account;
        this.basePath = URI.create(account.endpoint()).getRawPath();
        this.executor = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "http");
            t.setDaemon(true);
            return t;
        });
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).executor(executor)
                .connectTimeout(Duration.ofSeconds(10)).build();
    }

    public TableAccount account() {
        return account;
    }

    /** A whole answer. */
    public record Answer(int status, Map<String, String> headers, byte[] body) {
        public boolean succeeded() {
            return status >= 200 && status < 300;
        }

        /** A header's value (name in lower case), or null. */
        public String header(String lowerCaseName) {
            return headers.get(lowerCaseName);
        }

        /** "404 TableNotFound: The table specified does not exist." from the service's error body. */
        public String describe() {
            return ServiceError.describe(status, body);
        }
    }

    /** The head of a Query Entities answer: its status and where the next page starts (null: none). */
    public record PageHead(int status, Continuation next) {
    }

    /** A Query Entities page in flight: its head first, then its whole answer. */
    public record PageRequest(CompletableFuture<PageHead> head, CompletableFuture<Answer> answer) {
    }

    /** Query Tables from {@code nextTableName} (null: the first page). */
    public CompletableFuture<Answer> queryTables(String nextTableName) {
        Map<String, String> query = new LinkedHashMap<>();
        if (nextTableName != null) {
            query.put("NextTableName", nextTableName);
        }
        return send(request("/Tables", query, null).GET());
    }

    /** Create Table: 204 when created, 409 TableAlreadyExists when it was there. */
    public CompletableFuture<Answer> createTable(String table) {
        byte[] body = ("{\"TableName\":\"" + table + "\"}").getBytes(StandardCharsets.UTF_8);
        return send(request("/Tables", Map.of(), null).header("Content-Type", "application/json")
                .header("Prefer", "return-no-content").POST(HttpRequest.BodyPublishers.ofByteArray(body)));
    }

    /** Get Table: 200 with the table, 404 TableNotFound when there is none. */
    public CompletableFuture<Answer> getTable(String table) {
        return send(request("/Tables('" + keyLiteral(table) + "')", Map.of(), null).GET());
    }

    /**
     * A page of the table's change feed ({@code $changes}, a Tablestream extension): from
     * {@code cursor}, or when it is null from {@code from} ({@code now}, {@code beginning} or a UTC
     * time); waiting up to {@code waitSeconds} for a first change.
     */
    public CompletableFuture<Answer> changes(String table, String cursor, String from, int waitSeconds) {
        Map<String, String> query = new LinkedHashMap<>();
        query.put(cursor != null ? "cursor" : "from", cursor != null ? cursor : from);
        query.put("wait", Integer.toString(waitSeconds));
        query.put("$top", "1000");
        return http.sendAsync(request("/" + table + "()/$changes", query, null)
                        .timeout(TIMEOUT.plusSeconds(waitSeconds)).GET().build(), HttpResponse.BodyHandlers.ofByteArray())
                .thenApply(TableServiceHttp::answer);
    }

    /**
     * Delete by filter (a Tablestream job, {@code DELETE /<table>()?$filter=}): {@code 202 Accepted} with
     * the job's status, to follow with {@link #job}.
     */
    public CompletableFuture<Answer> deleteWhere(String table, String filter) {
        return send(request("/" + table + "()", Map.of("$filter", filter), null).DELETE());
    }

    /**
     * Restore to a point in time (a Tablestream job, {@code POST /<table>()/$restore}): {@code table} into
     * the new table {@code target} as it was at {@code asOf} (a UTC time; null: a copy as of now);
     * {@code 202 Accepted} with the job's status.
     */
    public CompletableFuture<Answer> restore(String table, String target, String asOf) {
        String body = "{\"TableName\":" + jsonString(target) + (asOf == null ? "" : ",\"AsOf\":" + jsonString(asOf)) + "}";
        return send(request("/" + table + "()/$restore", Map.of(), null).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)));
    }

    /** A job's status ({@code GET /$jobs/<id>}, Tablestream). */
    public CompletableFuture<Answer> job(String id) {
        return send(request("/$jobs/" + encode(id), Map.of(), null).GET());
    }

    private static String jsonString(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    /**
     * A refusal of a request on {@code table} itself (not on one of its entities) in words: a missing
     * table named with its account and endpoint, anything else as the service's status, code and message.
     */
    public String refusal(String table, Answer answer) {
        String code = answer.header("x-ms-error-code");
        if (answer.status() == 404 && ("TableNotFound".equals(code) || "ResourceNotFound".equals(code))) {
            return "The table " + table + " does not exist in the account " + account.name() + " at " + account.endpoint();
        }
        if (answer.status() == 403) {
            return "The service at " + account.endpoint() + " refused the account's credentials for " + table + " ("
                    + answer.describe() + ")";
        }
        return answer.describe();
    }

    /**
     * One page of Query Entities on {@code table}: {@code $filter}, {@code $select} and {@code $top}
     * when not null, from {@code from} (null: the first page), at minimal metadata.
     */
    public PageRequest queryEntities(String table, String filter, String select, Integer top, Continuation from) {
        return queryEntities(table, filter, select, top, null, from);
    }

    /**
     * As {@link #queryEntities(String, String, String, Integer, Continuation)}, the table as it was at
     * {@code asOf} (a UTC time; a Tablestream table with history) when it is not null.
     */
    public PageRequest queryEntities(String table, String filter, String select, Integer top, String asOf,
                                     Continuation from) {
        Map<String, String> query = new LinkedHashMap<>();
        if (asOf != null && !asOf.isBlank()) {
            query.put("asOf", asOf);
        }
        if (filter != null && !filter.isBlank()) {
            query.put("$filter", filter);
        }
        if (select != null && !select.isBlank()) {
            query.put("$select", select);
        }
        if (top != null) {
            query.put("$top", Integer.toString(top));
        }
        if (from != null) {
            query.put("NextPartitionKey", from.partitionKey());
            if (from.rowKey() != null) {
                query.put("NextRowKey", from.rowKey());
            }
        }
        CompletableFuture<PageHead> head = new CompletableFuture<>();
        HttpResponse.BodyHandler<byte[]> handler = info -> {
            String pk = info.headers().firstValue("x-ms-continuation-NextPartitionKey").orElse(null);
            String rk = info.headers().firstValue("x-ms-continuation-NextRowKey").orElse(null);
            head.complete(new PageHead(info.statusCode(), pk == null ? null : new Continuation(pk, rk)));
            return HttpResponse.BodySubscribers.ofByteArray();
        };
        CompletableFuture<Answer> answer = http.sendAsync(request("/" + table + "()", query, null).GET().build(), handler)
                .thenApply(TableServiceHttp::answer);
        answer.whenComplete((a, error) -> {
            if (error != null) {
                head.completeExceptionally(error);
            }
        });
        return new PageRequest(head, answer);
    }

    /** {@code $batch} with a multipart body (see {@link ChangeSet}). */
    public CompletableFuture<Answer> batch(ChangeSet changeSet) {
        return send(request("/$batch", Map.of(), null)
                .header("Content-Type", "multipart/mixed; boundary=" + changeSet.batchBoundary())
                .POST(HttpRequest.BodyPublishers.ofByteArray(changeSet.body())));
    }

    /** The URL of an entity, as a change set's operation names it. */
    public String entityUrl(String table, String partitionKey, String rowKey) {
        return account.endpoint() + entityPath(table, partitionKey, rowKey);
    }

    /** The path of an entity below the account: {@code /Table(PartitionKey='pk',RowKey='rk')}, keys as {@link #keyLiteral}. */
    public static String entityPath(String table, String partitionKey, String rowKey) {
        return "/" + table + "(PartitionKey='" + keyLiteral(partitionKey) + "',RowKey='" + keyLiteral(rowKey) + "')";
    }

    /** A key in an entity's address: quotes doubled, then percent-encoded (space as %20). */
    public static String keyLiteral(String key) {
        return encode(key.replace("'", "''"));
    }

    /** Sends a request made by {@link #request(String, String)}; completes with the whole answer. */
    public CompletableFuture<Answer> send(HttpRequest.Builder request) {
        return http.sendAsync(request.build(), HttpResponse.BodyHandlers.ofByteArray()).thenApply(TableServiceHttp::answer);
    }

    private static Answer answer(HttpResponse<byte[]> r) {
        Map<String, String> headers = new LinkedHashMap<>();
        r.headers().map().forEach((k, v) -> headers.put(k.toLowerCase(java.util.Locale.ROOT), v.isEmpty() ? "" : v.get(0)));
        return new Answer(r.statusCode(), headers, r.body());
    }

    private HttpRequest.Builder request(String path, Map<String, String> query, String comp) {
        StringBuilder pathAndQuery = new StringBuilder(path);
        char separator = '?';
        for (Map.Entry<String, String> q : query.entrySet()) {
            pathAndQuery.append(separator).append(encode(q.getKey())).append('=').append(encode(q.getValue()));
            separator = '&';
        }
        return request(pathAndQuery.toString(), comp, MINIMAL_METADATA);
    }

    /**
     * A request to {@code pathAndQuery} below the account (a path such as {@code /Orders()}, its query
     * already encoded, or none), authenticated as the account says (its SAS appended, or signed with its
     * key) and carrying the protocol's headers, answered in {@code accept}. The method and body are the
     * caller's to add.
     */
    public HttpRequest.Builder request(String pathAndQuery, String accept) {
        int q = pathAndQuery.indexOf('?');
        String comp = null;
        if (q >= 0) {
            for (String param : pathAndQuery.substring(q + 1).split("&")) {
                if (param.startsWith("comp=")) {
                    comp = param.substring("comp=".length());
                }
            }
        }
        return request(pathAndQuery, comp, accept);
    }

    private HttpRequest.Builder request(String pathAndQuery, String comp, String accept) {
        int q = pathAndQuery.indexOf('?');
        String rawPath = basePath + (q < 0 ? pathAndQuery : pathAndQuery.substring(0, q));
        StringBuilder url = new StringBuilder(account.endpoint()).append(pathAndQuery);
        if (account.sas() != null) {
            url.append(q < 0 ? '?' : '&').append(account.sas());
        }
        String date = TableAccount.now();
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url.toString())).timeout(TIMEOUT)
                .header("x-ms-date", date)
                .header("x-ms-version", VERSION)
                .header("Accept", accept)
                .header("DataServiceVersion", "3.0")
                .header("MaxDataServiceVersion", "3.0;NetFx");
        String authorization = account.authorization(date, rawPath, comp);
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        return b;
    }

    /** A query value as a URL carries it: percent-encoded, a space as {@code %20}. */
    public static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** Whether a failed call is worth trying again: the service was busy or unreachable for a moment. */
    public static boolean retriable(int status) {
        return status == 408 || status == 429 || status == 500 || status == 502 || status == 503 || status == 504;
    }

    /** Whether a failure of the call itself (no answer) is worth trying again: an I/O error or a timeout. */
    public static boolean retriable(Throwable error) {
        Throwable t = error;
        while (t != null) {
            if (t instanceof IOException || t instanceof java.net.http.HttpTimeoutException) {
                return true;
            }
            t = t.getCause();
        }
        return false;
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
