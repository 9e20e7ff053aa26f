package io.tablestream.server.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablestream.server.RawTableClient;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.zip.GZIPInputStream;

/**
 * Reads sent the way the official SDKs send them — {@code Accept-Encoding: gzip}, each {@code Accept}
 * metadata level, signed with SharedKey, SharedKeyLite or carrying a SAS — through one instance, for
 * every kind of read that may be served by another instance: point reads and partition queries of
 * every PartitionKey (so some are forwarded), scans (scatter-gathered), {@code $count}, entity
 * history, point-in-time reads and the change feed. Each answer is checked as a client reads it: its
 * status, its body decoded as its {@code Content-Encoding} says, its rows (over every continuation),
 * and the service URL in a full-metadata answer (the instance the client addressed).
 *
 * @param table a table with entity history holding {@code perPartitionKey} entities (RowKeys
 *        {@code r00}…) on each of {@code partitionKeys}, unchanged since {@code asOf}
 * @param sas an account SAS (query string without {@code ?}) that may read the table
 */
record SdkShapedReads(String table, List<String> partitionKeys, int perPartitionKey, String asOf, String sas) {
    private static final List<String> LEVELS = List.of("application/json;odata=nometadata",
            "application/json;odata=minimalmetadata", "application/json;odata=fullmetadata");
    private static final List<String> SIGNINGS = List.of("SharedKey", "SharedKeyLite", "SAS");

    /** One read that did not answer as it should, with what it answered. */
    record Failure(String read, int status, String answer) {
    }

    /** Every read of the matrix through the instance on {@code port}; the failures (none when all is well). */
    List<Failure> through(int port) {
        List<Failure> failures = new ArrayList<>();
        for (String signing : SIGNINGS) {
            for (String level : LEVELS) {
                for (String pk : partitionKeys) {
                    check(failures, port, signing, level, "point read", table + "(PartitionKey='" + pk + "',RowKey='r01')",
                            1);
                    check(failures, port, signing, level, "partition query", table + "()?"
                            + RawTableClient.query("$filter", "PartitionKey eq '" + pk + "'"), perPartitionKey);
                }
                int all = partitionKeys.size() * perPartitionKey;
                check(failures, port, signing, level, "scan", table + "()", all);
                check(failures, port, signing, level, "filtered scan", table + "()?"
                        + RawTableClient.query("$filter", "RowKey eq 'r01'"), partitionKeys.size());
                check(failures, port, signing, level, "count", table + "()/$count", all);
                check(failures, port, signing, level, "history", table + "(PartitionKey='" + partitionKeys.get(0)
                        + "',RowKey='r01')/$history", 1);
                check(failures, port, signing, level, "point-in-time scan", table + "()?"
                        + RawTableClient.query("asOf", asOf), all);
                check(failures, port, signing, level, "point-in-time point read", table + "(PartitionKey='"
                        + partitionKeys.get(partitionKeys.size() - 1) + "',RowKey='r01')?"
                        + RawTableClient.query("asOf", asOf), 1);
                check(failures, port, signing, level, "change feed", table + "()/$changes?"
                        + RawTableClient.query("from", "beginning"), -1);
            }
        }
        return failures;
    }

    private void check(List<Failure> failures, int port, String signing, String level, String kind, String target,
                       int expectedRows) {
        String read = kind + " " + target + " via :" + port + " (" + signing + ", " + level + ", gzip)";
        int rows = 0;
        String continuation = "";
        for (int page = 0; page < 100; page++) {
            String pageTarget = target + continuation;
            RawTableClient.Request request;
            if (signing.equals("SAS")) {
                request = new RawTableClient(port).get(pageTarget + (pageTarget.contains("?") ? "&" : "?") + sas).unsigned();
            } else {
                request = new RawTableClient(port).get(pageTarget).signing(signing.equals("SharedKey")
                        ? RawTableClient.Signing.SHARED_KEY : RawTableClient.Signing.SHARED_KEY_LITE);
            }
            RawTableClient.Response r = request.accept(level)
                    .set("Accept-Encoding", "gzip")
                    .set("MaxDataServiceVersion", "3.0;NetFx")
                    .set("x-ms-client-request-id", UUID.randomUUID().toString())
                    .send();
            String body;
            try {
                body = decoded(r);
            } catch (RuntimeException e) {
                failures.add(new Failure(read, r.status(), "undecodable body (" + r.header("Content-Encoding") + "): " + e));
                return;
            }
            if (r.status() != 200) {
                failures.add(new Failure(read, r.status(), body));
                return;
            }
            if (kind.equals("count")) {
                rows += Integer.parseInt(body.strip());
            } else {
                Map<String, Object> json;
                try {
                    json = new RawTableClient.Response(r.status(), r.headers(), body.getBytes(StandardCharsets.UTF_8)).json();
                } catch (RuntimeException e) {
                    failures.add(new Failure(read, r.status(), "not JSON: " + body));
                    return;
                }
                rows += json.get("value") instanceof List<?> value ? value.size() : 1;
                Object metadata = json.get("odata.metadata");
                String service = "http://127.0.0.1:" + port + "/" + RawTableClient.ACCOUNT;
                if (level.endsWith("fullmetadata") && !kind.equals("change feed") && !kind.equals("history")
                        && !(metadata instanceof String m && m.startsWith(service + "/$metadata"))) {
                    failures.add(new Failure(read, r.status(), "odata.metadata " + metadata + " does not name " + service));
                    return;
                }
            }
            String nextPk = r.header("x-ms-continuation-NextPartitionKey");
            if (nextPk == null || kind.equals("change feed")) {
                break;
            }
            continuation = (target.contains("?") ? "&" : "?") + RawTableClient.query("NextPartitionKey", nextPk,
                    "NextRowKey", r.header("x-ms-continuation-NextRowKey"));
        }
        if (expectedRows >= 0 && rows != expectedRows) {
            failures.add(new Failure(read, 200, rows + " rows, expected " + expectedRows));
        }
    }

    /** The body as the client reads it: gunzipped when the answer says it is gzip. */
    static String decoded(RawTableClient.Response r) {
        String encoding = r.header("Content-Encoding");
        if (encoding == null || encoding.equalsIgnoreCase("identity")) {
            return r.body();
        }
        assertThat(encoding).as("Content-Encoding").isEqualToIgnoringCase("gzip");
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(r.bytes()))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
