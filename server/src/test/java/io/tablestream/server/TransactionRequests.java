package io.tablestream.server;

import static io.tablestream.testsupport.Eventually.eventually;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** Test vocabulary for cross-partition transactions over raw HTTP: a {@code $batch} body to {@code $transactions}. */
public final class TransactionRequests {
    private static final String BATCH = "batch_tx";
    private static final String CHANGE_SET = "changeset_tx";

    private final RawTableClient raw;
    private final String base;

    public TransactionRequests(RawTableClient raw) {
        this.raw = raw;
        this.base = "http://127.0.0.1:" + raw.port() + "/" + RawTableClient.ACCOUNT + "/";
    }

    /** An insert of {@code {PartitionKey, RowKey, ...json}} into {@code table}. */
    public String insert(String table, String partitionKey, String rowKey, String moreJson) {
        String json = "{\"PartitionKey\":\"" + partitionKey + "\",\"RowKey\":\"" + rowKey + "\""
                + (moreJson.isEmpty() ? "" : "," + moreJson) + "}";
        return operation("POST " + base + table, null, json);
    }

    /** A delete of one entity, with {@code If-Match} ({@code *} for any version). */
    public String delete(String table, String partitionKey, String rowKey, String ifMatch) {
        return operation("DELETE " + base + table + "(PartitionKey='" + partitionKey + "',RowKey='" + rowKey + "')",
                ifMatch, null);
    }

    private static String operation(String requestLine, String ifMatch, String json) {
        StringBuilder b = new StringBuilder("Content-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n")
                .append(requestLine).append(" HTTP/1.1\r\nAccept: application/json;odata=minimalmetadata\r\n")
                .append("Prefer: return-no-content\r\n");
        if (ifMatch != null) {
            b.append("If-Match: ").append(ifMatch).append("\r\n");
        }
        if (json != null) {
            b.append("Content-Type: application/json\r\nContent-Length: ")
                    .append(json.getBytes(StandardCharsets.UTF_8).length).append("\r\n\r\n").append(json).append("\r\n");
        } else {
            b.append("\r\n");
        }
        return b.toString();
    }

    /** Submits the operations as one transaction. */
    public RawTableClient.Response submit(List<String> operations) {
        StringBuilder cs = new StringBuilder("Content-Type: multipart/mixed; boundary=" + CHANGE_SET + "\r\n\r\n");
        for (String op : operations) {
            cs.append("--").append(CHANGE_SET).append("\r\n").append(op);
        }
        cs.append("--").append(CHANGE_SET).append("--\r\n");
        String body = "--" + BATCH + "\r\n" + cs + "--" + BATCH + "--\r\n";
        return raw.request("POST", "$transactions").contentType("multipart/mixed; boundary=" + BATCH)
                .body(body.getBytes(StandardCharsets.UTF_8)).send();
    }

    public RawTableClient.Response status(String id, String sessionToken) {
        return sessionToken == null ? raw.read("$transactions('" + id + "')")
                : raw.read("$transactions('" + id + "')", "x-ms-session-token", sessionToken);
    }

    /**
     * Polls the status until no part is pending and the coordinator recorded a report of each (a
     * part decided on this instance shows as decided before its report is recorded); returns it.
     */
    public Map<String, Object> awaitDone(String id, String sessionToken, Duration timeout) {
        return eventually(() -> status(id, sessionToken), r -> r.status() == 200 && done(r.json()), timeout).json();
    }

    @SuppressWarnings("unchecked")
    private static boolean done(Map<String, Object> status) {
        return !"Pending".equals(status.get("State")) && ((List<Object>) status.get("Parts")).stream()
                .allMatch(p -> ((Number) ((Map<String, Object>) p).get("Reports")).intValue() > 0);
    }
}
