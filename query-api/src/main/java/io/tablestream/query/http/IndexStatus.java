package io.tablestream.query.http;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.javalin.http.Context;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.model.IndexDefinition;
import io.tablestream.core.model.TableRecord;
import io.tablestream.processor.store.EntityStore;
import io.tablestream.processor.store.IndexBuild;
import io.tablestream.processor.store.StoreReplica;
import io.tablestream.protocol.http.RequestContext;
import io.tablestream.protocol.http.ResponseHeaders;
import io.tablestream.protocol.http.TableLookup;
import io.tablestream.protocol.request.Operation;
import io.tablestream.protocol.request.ResourcePath;
import io.tablestream.query.routing.KeyLocator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * List Indexes (an extension): {@code GET /{table}?comp=indexes} — the table's secondary indexes
 * and, for each partition whose active copy this instance hosts, how far the index is built there:
 *
 * <pre>{@code
 * {"value": [{"Name": "ByEmail", "Property": "Email",
 *   "Partitions": {"0": {"State": "Ready", "RowsIndexed": 125000, "Entries": 124000},
 *                  "1": {"State": "Building", "RowsIndexed": 4000, "Entries": 3990}},
 *   "Elsewhere": [2, 3]}]}
 * }</pre>
 * A partition hosted by another instance is listed under {@code Elsewhere} (ask that instance, or
 * see {@code GET /_cluster}); one whose store is not readable right now under {@code Unavailable}.
 * Queries read a partition through the index once it is Ready there, and scan it until then.
 * {@code RowsIndexed} is the build's progress (rows walked); {@code Entries} the index's size there
 * (one per stored row with an indexable value of the property). {@code State} is one of {@link #STATES}.
 */
final class IndexStatus {
    /**
     * Every state a partition can show: Announcing (the index's creation has not reached the
     * partition's task yet: it builds next), Building, Ready, Dropping. docs/indexes.md lists them all.
     */
    static final List<String> STATES = List.of("Announcing", "Building", "Ready", "Dropping");

    private static final JsonFactory JSON = new JsonFactory();

    private final TableLookup tables;
    private final EntityStore store;
    private final KeyLocator locator;

    IndexStatus(TableLookup tables, EntityStore store, KeyLocator locator) {
        this.tables = tables;
        this.store = store;
        this.locator = locator;
    }

    void list(RequestContext request, Context http) {
        String raw = ((ResourcePath.EntityCollection) request.resource()).table();
        request.caller().authorize(Operation.LIST_INDEXES, raw, null, null);
        TableRecord table = tables.require(request.account(), raw);
        Map<Integer, List<IndexBuild>> builds = new HashMap<>();
        List<Integer> elsewhere = new java.util.ArrayList<>();
        List<Integer> unavailable = new java.util.ArrayList<>();
        for (int p = 0; p < locator.partitions(); p++) {
            Optional<StoreReplica> copy = locator.localCopy(p, false);
            if (copy.isEmpty()) {
                elsewhere.add(p);
                continue;
            }
            try {
                builds.put(p, store.indexBuilds(copy.get(), p, table.tableId()));
            } catch (TableServiceException e) {
                unavailable.add(p);
            }
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(512);
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.writeStartObject();
            g.writeArrayFieldStart("value");
            for (IndexDefinition index : table.indexes()) {
                g.writeStartObject();
                g.writeStringField("Name", index.name());
                g.writeStringField("Property", index.property());
                g.writeObjectFieldStart("Partitions");
                for (Map.Entry<Integer, List<IndexBuild>> e : new java.util.TreeMap<>(builds).entrySet()) {
                    g.writeObjectFieldStart(Integer.toString(e.getKey()));
                    IndexBuild build = e.getValue().stream().filter(b -> b.indexId() == index.indexId()).findFirst()
                            .orElse(null);
                    g.writeStringField("State", state(build));
                    g.writeNumberField("RowsIndexed", build == null ? 0 : build.rowsIndexed());
                    g.writeNumberField("Entries", build == null ? 0 : build.entries());
                    g.writeEndObject();
                }
                g.writeEndObject();
                numbers(g, "Elsewhere", elsewhere);
                numbers(g, "Unavailable", unavailable);
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ResponseHeaders.odata(http, request, "application/json;odata=nometadata;charset=utf-8");
        http.result(out.toByteArray());
    }

    /** The state a partition shows for an index: its build's, or Announcing before the build exists. */
    static String state(IndexBuild build) {
        return build == null ? STATES.get(0) : switch (build.state()) {
            case BUILDING -> STATES.get(1);
            case READY -> STATES.get(2);
            case DROPPING -> STATES.get(3);
        };
    }

    private static void numbers(JsonGenerator g, String field, List<Integer> values) throws IOException {
        g.writeArrayFieldStart(field);
        for (int v : values) {
            g.writeNumber(v);
        }
        g.writeEndArray();
    }
}
