package io.tablestream.query.http;

import io.javalin.http.Context;
import io.tablestream.core.command.CommandKey;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.filter.KeyRange;
import io.tablestream.core.filter.OrderBy;
import io.tablestream.core.model.Entity;
import io.tablestream.core.model.TableRecord;
import io.tablestream.core.odata.EntityFeedWriter;
import io.tablestream.core.odata.MetadataLevel;
import io.tablestream.core.odata.ODataContext;
import io.tablestream.processor.store.StoreReplica;
import io.tablestream.protocol.http.Headers;
import io.tablestream.protocol.http.ODataResponses;
import io.tablestream.protocol.http.RequestContext;
import io.tablestream.protocol.http.ResponseHeaders;
import io.tablestream.protocol.http.TableLookup;
import io.tablestream.protocol.request.Operation;
import io.tablestream.protocol.request.ResourcePath;
import io.tablestream.query.plan.EntityQuery;
import io.tablestream.query.plan.Page;
import io.tablestream.query.plan.PartialPages;
import io.tablestream.query.routing.Placement;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.stream.IntStream;

/**
 * Query Entities and Count Entities (an extension: {@code GET <table>()/$count}): a page of a
 * table's entities matching {@code $filter}, read where its partitions are — here or forwarded for
 * one partition, scatter-gathered for several ({@link ScatterGather}), or, for a request another
 * instance forwarded naming its partitions, a partial page answered in {@link PartialPages}' format.
 */
record EntityQueryHandler(TableLookup tables, PartitionReads reads) {
    /** What a count answers: the number alone, as OData's {@code $count} segment. */
    private static final String COUNT_CONTENT_TYPE = "text/plain;charset=utf-8";

    void query(RequestContext request, Context http) {
        String tableName = ((ResourcePath.EntityCollection) request.resource()).table();
        TableRecord table = tables.require(request.account(), tableName);
        request.caller().authorize(Operation.QUERY_ENTITIES, table.name().value(), null, null);
        EntityQuery asked = EntityQuery.of(request.queryParam("$filter"), request.queryParam("$select"),
                request.queryParam("$top"), request.queryParam(OrderBy.PARAMETER), request.queryParam("NextPartitionKey"),
                request.queryParam("NextRowKey"), request.caller().readableKeys(table.name().value()));
        EntityQuery query = asked.onTable(table.indexes(), PartitionReads.asOf(request, http, table));
        query.indexName().ifPresent(name -> http.header(Headers.INDEX, name));
        MetadataLevel level = ODataResponses.level(request, http);
        ODataContext odata = ODataResponses.context(http, request).withTable(table.name());
        read(request, http, table, query, page -> writeFeed(request, http, level, odata, query, page));
    }

    /**
     * Count Entities ({@code GET <table>()/$count?$filter=…}, an extension): the number of matching
     * entities as plain text, read like a Query Entities page of keys only — routed, scatter-gathered
     * and bounded by the same row budget; when the budget runs out the answer counts the matches
     * before the continuation it carries, and the client adds up the counts of every continuation.
     */
    void count(RequestContext request, Context http) {
        String tableName = ((ResourcePath.EntityCount) request.resource()).table();
        TableRecord table = tables.require(request.account(), tableName);
        request.caller().authorize(Operation.COUNT_ENTITIES, table.name().value(), null, null);
        for (String option : List.of("$top", "$select", OrderBy.PARAMETER)) {
            if (request.queryParam(option) != null) {
                throw TableServiceException.of(ErrorCode.INVALID_QUERY_PARAMETER_VALUE,
                        "A count takes $filter (and a continuation) only, not " + option + ".");
            }
        }
        EntityQuery counted = EntityQuery.count(request.queryParam("$filter"), request.queryParam("NextPartitionKey"),
                request.queryParam("NextRowKey"), request.caller().readableKeys(table.name().value()));
        EntityQuery query = PartitionReads.asOf(request, http, table).map(counted::asOf).orElse(counted);
        read(request, http, table, query, page -> {
            ResponseHeaders.standard(http, request);
            continuationHeaders(http, page);
            http.contentType(COUNT_CONTENT_TYPE);
            http.result(Integer.toString(page.entities().size()));
        });
    }

    /**
     * Reads a page of {@code query} where its partitions are: here or forwarded for one partition,
     * scatter-gathered for several, or — for a request another instance forwarded naming its
     * partitions — a partial page answered in {@link PartialPages}' format.
     */
    private void read(RequestContext request, Context http, TableRecord table, EntityQuery query,
                      Consumer<Page> answer) {
        String name = table.name().value();
        Predicate<Entity> visible = e -> request.caller().mayRead(name, e.partitionKey(), e.rowKey());
        long tableId = table.tableId();
        String token = http.header(Headers.SESSION_TOKEN);

        String forwarded = http.header(Headers.FORWARDED);
        if (forwarded != null && http.header(Headers.READ_PARTITIONS) != null) {
            List<Integer> partitions = reads.requestedPartitions(http.header(Headers.READ_PARTITIONS));
            int budget = Math.min(reads.rowBudget(), reads.requestedBudget(http.header(Headers.ROW_BUDGET)));
            boolean standbyAllowed = PartitionReads.STANDBY.equals(forwarded) && token == null;
            PartitionReads.complete(http, PartitionReads.refusedHereWhenUnavailable(http, partitions,
                    reads.readPage(tableId, query, visible, partitions, standbyAllowed, token, budget).thenAccept(page -> {
                        ResponseHeaders.standard(http, request);
                        http.contentType(PartialPages.CONTENT_TYPE);
                        http.result(PartialPages.encode(page));
                    })));
            return;
        }
        if (query.keys().kind() == KeyRange.Kind.EMPTY) {
            answer.accept(new Page(List.of(), Optional.empty()));
            return;
        }
        String partitionKey = query.keys().singlePartitionKey();
        if (partitionKey != null) {
            CommandKey key = CommandKey.forEntity(request.account(), tableId, partitionKey);
            int partition = reads.locator().partitionOf(key);
            reads.respond(request, http, List.of(partition), token, () -> reads.locator().locate(key),
                    replica -> reads.readPage(tableId, query, visible, List.of(partition),
                            replica == StoreReplica.ACTIVE_OR_STANDBY, token, reads.rowBudget()).thenAccept(answer));
            return;
        }
        if (forwarded != null) {
            // Only a client sends this header on a scan (the router never does): it gets what this
            // instance holds of every partition, or a refusal.
            List<Integer> all = IntStream.range(0, reads.locator().partitions()).boxed().toList();
            reads.respond(request, http, all, token, () -> new Placement(-1, List.of()), replica -> reads.readPage(tableId,
                    query, visible, all, replica == StoreReplica.ACTIVE_OR_STANDBY, token, reads.rowBudget())
                    .thenAccept(answer));
            return;
        }
        PartitionReads.complete(http, new ScatterGather(reads, request, http, tableId, query, visible, token).run()
                .thenAccept(answer));
    }

    private static void continuationHeaders(Context http, Page page) {
        page.next().ifPresent(next -> {
            http.header(Headers.CONTINUATION_NEXT_PARTITION_KEY, next.nextPartitionKeyToken());
            http.header(Headers.CONTINUATION_NEXT_ROW_KEY, next.nextRowKeyToken());
        });
    }

    /** Writes a page as the OData feed, with its continuation headers. */
    private static void writeFeed(RequestContext request, Context http, MetadataLevel level, ODataContext odata,
                                  EntityQuery query, Page page) {
        ResponseHeaders.odata(http, request, level.contentType());
        continuationHeaders(http, page);
        http.result(ResponseBodies.write(out -> {
            EntityFeedWriter feed = EntityFeedWriter.begin(out, odata, level, query.select());
            for (Entity e : page.entities()) {
                feed.write(e);
            }
            feed.finish();
        }));
    }
}
