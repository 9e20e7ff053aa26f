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

    /**
     * Every kind of read through the instance on {@code port}, each signing and each metadata level
     * covered without trying every combination (that took minutes): each PartitionKey's point read
     * and partition query with one of the nine signing × level pairs in turn (24 keys on 6 partitions,
     * so every pair meets forwarded and local reads), and every other kind of read with each signing,
     * the metadata level turning with the kind (so each kind meets each level, and each pair several
     * kinds). The failures; none when all is well.
     */
    List<Failure> through(int port) {
        List<Failure> failures = new ArrayList<>();
        for (int i = 0; i < partitionKeys.size(); i++) {
            String pk = partitionKeys.get(i);
            String signing = SIGNINGS.get(i % SIGNINGS.size());
            String level = LEVELS.get((i / SIGNINGS.size()) % LEVELS.size());
            check(failures, port, signing, level, "point read", table + "(PartitionKey='" + pk + "',RowKey='r01')", 1);
            check(failures, port, signing, level, "partition query", table + "()?"
                    + RawTableClient.query("$filter", "PartitionKey eq '" + pk + "'"), perPartitionKey);
        }
        int all = partitionKeys.size() * perPartitionKey;
        List<Read> others = List.of(
                new Read("scan", table + "()", all),
                new Read("filtered scan", table + "()?" + RawTableClient.query("$filter", "RowKey eq 'r01'"),
                        partitionKeys.size()),
                new Read("count", table + "()/$count", all),
                new Read("history", table + "(PartitionKey='" + partitionKeys.get(0) + "',RowKey='r01')/$history", 1),
                new Read("point-in-time scan", table + "()?" + RawTableClient.query("asOf", asOf), all),
                new Read("point-in-time point read", table + "(PartitionKey='"
                        + partitionKeys.get(partitionKeys.size() - 1) + "',RowKey='r01')?"
                        + RawTableClient.query("asOf", asOf), 1),
                new Read("change feed", table + "()/$changes?" + RawTableClient.query("from", "beginning"), -1));
        for (int k = 0; k < others.size(); k++) {
            Read read = others.get(k);
            for (int s = 0; s < SIGNINGS.size(); s++) {
                check(failures, port, SIGNINGS.get(s), LEVELS.get((k + s) % LEVELS.size()), read.kind(), read.target(),
                        read.expectedRows());
            }
        }
        return failures;
    }

    /** A kind of read, its request target and how many rows it answers over all its pages (-1: not checked). */
    private record Read(String kind, String target, int expectedRows) {
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
