package io.tablestream.server;

import static io.tablestream.testsupport.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Test vocabulary for the secondary-index extension, over raw HTTP. */
public final class IndexRequests {
    private final RawTableClient raw;

    public IndexRequests(RawTableClient raw) {
        this.raw = raw;
    }

    public RawTableClient.Response create(String table, String name, String property) {
        return raw.send("POST", table + "?comp=indexes", "{\"Name\":\"" + name + "\",\"Property\":\"" + property + "\"}");
    }

    public RawTableClient.Response drop(String table, String name) {
        return raw.send("DELETE", table + "?comp=indexes&name=" + name, null);
    }

    public RawTableClient.Response list(String table) {
        return raw.read(table + "?comp=indexes");
    }

    /** Waits until every partition of this (single) instance reports the index Ready. */
    public void awaitReady(String table, String name, Duration timeout) {
        eventually(() -> list(table), r -> r.status() == 200 && ready(r, name), timeout);
    }

    @SuppressWarnings("unchecked")
    private static boolean ready(RawTableClient.Response r, String name) {
        for (Object o : (List<Object>) r.json().get("value")) {
            Map<String, Object> index = (Map<String, Object>) o;
            if (index.get("Name").equals(name)) {
                Map<String, Object> partitions = (Map<String, Object>) index.get("Partitions");
                return !partitions.isEmpty() && ((List<Object>) index.get("Elsewhere")).isEmpty()
                        && partitions.values().stream().allMatch(p -> "Ready".equals(((Map<String, Object>) p).get("State")));
            }
        }
        return false;
    }

    /** Every row of a query, following continuations, and the index the answers named (null when none). */
    public record Result(List<Map<String, Object>> rows, String index) {
        public List<String> keys() {
            return rows.stream().map(r -> r.get("PartitionKey") + "/" + r.get("RowKey")).toList();
        }
    }

    public Result query(String table, String filter, String... headers) {
        List<Map<String, Object>> rows = new ArrayList<>();
        String index = null;
        String next = "";
        for (int page = 0; page < 10_000; page++) {
            String target = table + "()?" + (filter == null ? "" : RawTableClient.query("$filter", filter)) + next;
            RawTableClient.Response r = raw.read(target, headers);
            assertThat(r.status()).as(r.toString()).isEqualTo(200);
            rows.addAll(r.rows());
            if (page == 0) {
                index = r.header("x-tablestream-index");
            }
            String npk = r.header("x-ms-continuation-NextPartitionKey");
            if (npk == null) {
                return new Result(rows, index);
            }
            String nrk = r.header("x-ms-continuation-NextRowKey");
            next = "&NextPartitionKey=" + RawTableClient.encode(npk)
                    + (nrk == null ? "" : "&NextRowKey=" + RawTableClient.encode(nrk));
        }
        throw new AssertionError("more than 10,000 pages");
    }
}
