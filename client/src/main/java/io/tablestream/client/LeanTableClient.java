package io.tablestream.client;

import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A table's entities as maps, over {@link TableServiceHttp} (requests, entity addresses and change
 * sets built as the {@code tablestream} command builds them), with an account SAS in the query
 * string (made once by {@link #accountSas}; nothing is signed per request): what a lean client
 * costs, so a benchmark measures the server rather than the SDK sharing its cores. Every call is
 * asynchronous, so one client keeps many requests in flight (HTTP/1.1, one connection per request
 * in flight).
 *
 * <p>Entities are maps of property name to {@link String}, {@link Integer} (Edm.Int32), {@link Long}
 * (Edm.Int64), {@link Double}, {@link Boolean} or {@link OffsetDateTime} (Edm.DateTime).
 */
public final class LeanTableClient implements AutoCloseable {
    private static final String JSON = "application/json";
    private static final String NO_METADATA = TableServiceHttp.NO_METADATA;
    /** A bulk write of up to 100,000 entities is answered once they are all decided: longer than one request. */
    private static final Duration BULK_TIMEOUT = Duration.ofSeconds(120);
    private static final Pattern STATUS_LINE = Pattern.compile("^HTTP/1\\.1 (\\d{3})");
    private static final Pattern ETAG_LINE = Pattern.compile("^etag:\\s*(.+)$", Pattern.CASE_INSENSITIVE);

    private final TableServiceHttp http;
    private final String endpoint;
    private final String accept;

    /**
     * @param endpoint the account's URL, e.g. {@code http://127.0.0.1:10002/devstoreaccount1}
     * @param sas an account SAS (query string without the '?'), see {@link #accountSas}
     */
    public LeanTableClient(String endpoint, String sas) {
        this(TableAccount.parse("TableEndpoint=" + endpoint + ";SharedAccessSignature=" + sas), NO_METADATA);
    }

    /**
     * A client of {@code account} (an account SAS, or a key: each request then signed with
     * SharedKeyLite, as the official SDK signs), asking for answers in {@code accept}
     * ({@link TableServiceHttp#NO_METADATA} or {@link TableServiceHttp#MINIMAL_METADATA}, the SDK's).
     */
    public LeanTableClient(TableAccount account, String accept) {
        this.endpoint = account.endpoint();
        this.accept = accept;
        this.http = new TableServiceHttp(account);
    }

    /** An account SAS for the Table service, every resource type and permission, valid for a day. */
    public static String accountSas(String endpoint, String accountName, String accountKey) {
        return new SharedKeySigning(accountName, Base64.getDecoder().decode(accountKey))
                .accountSas("rwdlacu", Instant.now().plus(Duration.ofDays(1)));
    }

    /** What the service answered: the status, the ETag and session-token headers (or null), the body. */
    public record Answer(int status, String etag, String body, String sessionToken) {
        public Answer(int status, String etag, String body) {
            this(status, etag, body, null);
        }

        public boolean succeeded() {
            return status >= 200 && status < 300;
        }
    }

    /** A $batch answer: the outer status and one answer per operation (a failed change set: just the failure). */
    public record BatchAnswer(int status, List<Answer> operations) {
        /** Whether the whole change set applied (every operation answered with a success). */
        public boolean succeeded() {
            return status == 202 && !operations.isEmpty() && operations.stream().allMatch(Answer::succeeded);
        }
    }

    /** One operation of a change set. */
    public record BatchOperation(String method, String rowKey, String ifMatch, Map<String, Object> properties) {
        public static BatchOperation insert(String rowKey, Map<String, Object> properties) {
            return new BatchOperation("POST", rowKey, null, properties);
        }

        public static BatchOperation upsert(String rowKey, Map<String, Object> properties) {
            return new BatchOperation("PUT", rowKey, null, properties);
        }

        public static BatchOperation merge(String rowKey, String ifMatch, Map<String, Object> properties) {
            return new BatchOperation("PATCH", rowKey, ifMatch, properties);
        }
    }

    /** Create Table, asking for no content: 204, or 409 if it exists. */
    public CompletableFuture<Answer> createTable(String table) {
        return send(request("/Tables").header("Content-Type", JSON).header("Prefer", "return-no-content")
                .POST(body("{\"TableName\":\"" + table + "\"}")));
    }

    /** Insert Entity: 201 with the entity when {@code returnContent}, else 204. */
    public CompletableFuture<Answer> insert(String table, String partitionKey, String rowKey, Map<String, Object> properties,
                                            boolean returnContent) {
        return send(request("/" + table).header("Content-Type", JSON)
                .header("Prefer", returnContent ? "return-content" : "return-no-content")
                .POST(body(entityJson(partitionKey, rowKey, properties))));
    }

    /**
     * Insert Entity with {@code Prefer: respond-async}: Tablestream answers 202 (with an
     * {@code x-ms-session-token}) once its command log has the write; a service that does not know the
     * preference (Azure, Azurite) answers 201 with the entity after the write.
     */
    public CompletableFuture<Answer> insertAsync(String table, String partitionKey, String rowKey,
                                                 Map<String, Object> properties) {
        return send(request("/" + table).header("Content-Type", JSON).header("Prefer", "respond-async")
                .POST(body(entityJson(partitionKey, rowKey, properties))));
    }

    /** Get Entity carrying {@code x-ms-session-token}: served after the writes the token names are applied. */
    public CompletableFuture<Answer> get(String table, String partitionKey, String rowKey, String sessionToken) {
        return send(request(entityPath(table, partitionKey, rowKey)).header("x-ms-session-token", sessionToken).GET());
    }

    /** Insert Or Replace Entity (PUT without If-Match): 204. */
    public CompletableFuture<Answer> upsert(String table, String partitionKey, String rowKey, Map<String, Object> properties) {
        return send(request(entityPath(table, partitionKey, rowKey)).header("Content-Type", JSON)
                .PUT(body(entityJson(partitionKey, rowKey, properties))));
    }

    /** Update Entity (PUT with If-Match, "*" for any version): 204, 404 or 412. */
    public CompletableFuture<Answer> replace(String table, String partitionKey, String rowKey, String ifMatch,
                                             Map<String, Object> properties) {
        return send(request(entityPath(table, partitionKey, rowKey)).header("Content-Type", JSON)
                .header("If-Match", ifMatch).PUT(body(entityJson(partitionKey, rowKey, properties))));
    }

    /**
     * Merge Entity (PATCH with If-Match: 204, 404 or 412), or Insert Or Merge Entity ({@code ifMatch}
     * null: 204).
     */
    public CompletableFuture<Answer> merge(String table, String partitionKey, String rowKey, String ifMatch,
                                           Map<String, Object> properties) {
        HttpRequest.Builder r = request(entityPath(table, partitionKey, rowKey)).header("Content-Type", JSON);
        if (ifMatch != null) {
            r.header("If-Match", ifMatch);
        }
        return send(r.method("PATCH", body(entityJson(partitionKey, rowKey, properties))));
    }

    /** Get Entity: 200 with the entity (no metadata), or 404. */
    public CompletableFuture<Answer> get(String table, String partitionKey, String rowKey) {
        return send(request(entityPath(table, partitionKey, rowKey)).GET());
    }

    /** Query Entities with a {@code $filter}: the first page. */
    public CompletableFuture<Answer> query(String table, String filter) {
        return send(request("/" + table + "()?$filter=" + encode(filter)).GET());
    }

    /** One page of a query: the status, the rows it held, and the continuation (null PartitionKey: the last page). */
    public record Page(int status, int rows, String nextPartitionKey, String nextRowKey) {
    }

    /** Query Entities with a {@code $filter} (or null: the whole table) from a continuation (or null). */
    public CompletableFuture<Page> page(String table, String filter, String nextPartitionKey, String nextRowKey) {
        return http.send(request("/" + table + "()" + queryFrom(filter, nextPartitionKey, nextRowKey)).GET())
                .thenApply(r -> new Page(r.status(), rows(new String(r.body(), StandardCharsets.UTF_8)),
                        r.header("x-ms-continuation-nextpartitionkey"), r.header("x-ms-continuation-nextrowkey")));
    }

    /** The entities in a no-metadata answer: each has exactly one PartitionKey property. */
    private static int rows(String body) {
        int n = 0;
        for (int i = body.indexOf("\"PartitionKey\":"); i >= 0; i = body.indexOf("\"PartitionKey\":", i + 1)) {
            n++;
        }
        return n;
    }

    /** What Count Entities answered: the status, the count, and the continuation when the row budget ran out. */
    public record Count(int status, long value, String nextPartitionKey, String nextRowKey) {
    }

    /**
     * {@code GET <table>()/$count} (an extension) with a {@code $filter} (or null) and a
     * continuation from an earlier answer (or null).
     */
    public CompletableFuture<Count> count(String table, String filter, String nextPartitionKey, String nextRowKey) {
        return http.send(request("/" + table + "()/$count" + queryFrom(filter, nextPartitionKey, nextRowKey)).GET())
                .thenApply(r -> new Count(r.status(),
                        r.status() == 200 ? Long.parseLong(new String(r.body(), StandardCharsets.UTF_8).strip()) : -1,
                        r.header("x-ms-continuation-nextpartitionkey"), r.header("x-ms-continuation-nextrowkey")));
    }

    /** {@code ?$filter} (or none) and a continuation (or none) as a query string; empty when there is none. */
    private static String queryFrom(String filter, String nextPartitionKey, String nextRowKey) {
        StringBuilder query = new StringBuilder();
        if (filter != null) {
            query.append("&$filter=").append(encode(filter));
        }
        if (nextPartitionKey != null) {
            query.append("&NextPartitionKey=").append(encode(nextPartitionKey));
        }
        if (nextRowKey != null) {
            query.append("&NextRowKey=").append(encode(nextRowKey));
        }
        return query.length() == 0 ? "" : "?" + query.substring(1);
    }

    private static String encode(String value) {
        return TableServiceHttp.encode(value);
    }

    /** A POST of a raw JSON body to {@code pathAndQuery} below the account (e.g. an extension). */
    public CompletableFuture<Answer> post(String pathAndQuery, String json) {
        return send(request("/" + pathAndQuery).header("Content-Type", JSON).POST(body(json)));
    }

    /**
     * A bulk write ({@code POST <table>()/$bulk}, an extension): {@code ndjson} holds one entity per
     * line; {@code mode} is replace, merge or insert. Answered 200 (202 with {@code async}) and
     * {@code {"Entities":n,"Failed":[…]}}.
     */
    public CompletableFuture<Answer> bulk(String table, String mode, byte[] ndjson, boolean async) {
        HttpRequest.Builder r = request("/" + table + "()/$bulk?mode=" + encode(mode)).timeout(BULK_TIMEOUT)
                .header("Content-Type", "application/x-ndjson")
                .POST(HttpRequest.BodyPublishers.ofByteArray(ndjson));
        if (async) {
            r.header("Prefer", "respond-async");
        }
        return send(r);
    }

    /** A GET of {@code pathAndQuery} below the account (e.g. an extension). */
    public CompletableFuture<Answer> getRaw(String pathAndQuery) {
        return send(request("/" + pathAndQuery).GET());
    }

    /** A DELETE of {@code pathAndQuery} below the account (e.g. an extension's deletion by filter). */
    public CompletableFuture<Answer> deleteRaw(String pathAndQuery) {
        return send(request("/" + pathAndQuery).DELETE());
    }

    /** A $batch of one change set on one PartitionKey. */
    public CompletableFuture<BatchAnswer> batch(String table, String partitionKey, List<BatchOperation> operations) {
        ChangeSet changeSet = changeSet(operations.stream().map(op -> new Addressed(table, partitionKey, op)).toList());
        return http.batch(changeSet).thenApply(r -> new BatchAnswer(r.status(),
                r.status() == 202 ? parts(new String(r.body(), StandardCharsets.UTF_8)) : List.of()));
    }

    /** An operation of a cross-partition transaction: its table and PartitionKey, and what it does. */
    public record Addressed(String table, String partitionKey, BatchOperation operation) {
    }

    /**
     * A cross-partition transaction (a Tablestream extension): the change set posted to
     * {@code $transactions}; answered 202 with {@code {"TransactionId":..}}.
     */
    public CompletableFuture<Answer> transaction(List<Addressed> operations) {
        ChangeSet changeSet = changeSet(operations);
        return send(request("/$transactions")
                .header("Content-Type", "multipart/mixed; boundary=" + changeSet.batchBoundary())
                .POST(HttpRequest.BodyPublishers.ofByteArray(changeSet.body())));
    }

    /** A cross-partition transaction's status, read after the writes {@code sessionToken} names. */
    public CompletableFuture<Answer> transactionStatus(String transactionId, String sessionToken) {
        return send(request("/$transactions('" + transactionId + "')").header("x-ms-session-token", sessionToken).GET());
    }

    /** The change set of {@code operations}, in the protocol's multipart form ({@link ChangeSet}). */
    private ChangeSet changeSet(List<Addressed> operations) {
        ChangeSet changeSet = new ChangeSet(operations.isEmpty() ? "" : operations.get(0).partitionKey());
        for (Addressed a : operations) {
            BatchOperation op = a.operation();
            String url = endpoint + (op.method().equals("POST") ? "/" + a.table()
                    : entityPath(a.table(), a.partitionKey(), op.rowKey()));
            changeSet.add(op.method(), url, op.rowKey(), op.ifMatch(),
                    entityJson(a.partitionKey(), op.rowKey(), op.properties()).getBytes(StandardCharsets.UTF_8));
        }
        return changeSet;
    }

    /** The sub-responses of a $batch answer: status and ETag of each, in order. */
    static List<Answer> parts(String body) {
        List<Answer> answers = new ArrayList<>();
        int status = -1;
        String etag = null;
        for (String line : body.split("\r?\n")) {
            Matcher s = STATUS_LINE.matcher(line);
            if (s.find()) {
                if (status >= 0) {
                    answers.add(new Answer(status, etag, null));
                }
                status = Integer.parseInt(s.group(1));
                etag = null;
                continue;
            }
            Matcher e = ETAG_LINE.matcher(line);
            if (status >= 0 && e.find()) {
                etag = e.group(1).strip();
            }
        }
        if (status >= 0) {
            answers.add(new Answer(status, etag, null));
        }
        return answers;
    }

    private CompletableFuture<Answer> send(HttpRequest.Builder request) {
        return http.send(request).thenApply(r -> new Answer(r.status(), r.header("etag"),
                new String(r.body(), StandardCharsets.UTF_8), r.header("x-ms-session-token")));
    }

    private HttpRequest.Builder request(String pathAndQuery) {
        return http.request(pathAndQuery, accept);
    }

    /** Stops the client's threads; requests still in flight fail. */
    @Override
    public void close() {
        http.close();
    }

    private static HttpRequest.BodyPublisher body(String text) {
        return HttpRequest.BodyPublishers.ofString(text, StandardCharsets.UTF_8);
    }

    /** The path of one entity: {@code /Table(PartitionKey='pk',RowKey='rk')}, quotes doubled and encoded. */
    static String entityPath(String table, String partitionKey, String rowKey) {
        return TableServiceHttp.entityPath(table, partitionKey, rowKey);
    }

    /** An entity as the service's JSON, with the type annotations the values need (one line of a {@link #bulk} body too). */
    public static String entityJson(String partitionKey, String rowKey, Map<String, Object> properties) {
        StringBuilder b = new StringBuilder(64 + properties.size() * 40);
        b.append("{\"PartitionKey\":");
        string(b, partitionKey);
        b.append(",\"RowKey\":");
        string(b, rowKey);
        for (Map.Entry<String, Object> p : properties.entrySet()) {
            Object v = Objects.requireNonNull(p.getValue(), p.getKey());
            if (v instanceof Long || v instanceof OffsetDateTime) {
                b.append(",\"").append(p.getKey()).append("@odata.type\":\"")
                        .append(v instanceof Long ? "Edm.Int64" : "Edm.DateTime").append('"');
            }
            b.append(",\"").append(p.getKey()).append("\":");
            if (v instanceof String s) {
                string(b, s);
            } else if (v instanceof Long l) {
                b.append('"').append(l).append('"');
            } else if (v instanceof OffsetDateTime t) {
                b.append('"').append(DateTimeFormatter.ISO_INSTANT.format(t.withOffsetSameInstant(ZoneOffset.UTC)))
                        .append('"');
            } else if (v instanceof Integer || v instanceof Boolean) {
                b.append(v);
            } else if (v instanceof Double d) {
                b.append(String.format(Locale.ROOT, "%s", d));
            } else {
                throw new IllegalArgumentException("unsupported property type " + v.getClass());
            }
        }
        return b.append('}').toString();
    }

    private static void string(StringBuilder b, String s) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        b.append('"');
    }
}
