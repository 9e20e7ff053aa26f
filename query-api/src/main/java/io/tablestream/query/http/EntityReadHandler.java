package io.tablestream.query.http;

import io.javalin.http.Context;
import io.tablestream.core.command.CommandKey;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.filter.Select;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.Entity;
import io.tablestream.core.model.EntityKey;
import io.tablestream.core.model.TableRecord;
import io.tablestream.core.odata.EntityJsonWriter;
import io.tablestream.core.odata.HistoryJsonWriter;
import io.tablestream.core.odata.MetadataLevel;
import io.tablestream.core.odata.ODataContext;
import io.tablestream.core.rules.History;
import io.tablestream.processor.store.EntityStore;
import io.tablestream.processor.store.StoreReplica;
import io.tablestream.protocol.http.Headers;
import io.tablestream.protocol.http.ODataResponses;
import io.tablestream.protocol.http.RequestContext;
import io.tablestream.protocol.http.ResponseHeaders;
import io.tablestream.protocol.http.TableLookup;
import io.tablestream.protocol.request.Operation;
import io.tablestream.protocol.request.ResourcePath;
import io.tablestream.query.plan.EntityQuery;
import io.tablestream.query.plan.HistoryPage;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Get Entity — one entity by its keys, as it is or as of a past time on a table that keeps history
 * ({@code asOf}) — and Get Entity History (an extension: its versions within the table's retention),
 * each from the partition that holds the entity: read here or forwarded to the instance holding it
 * ({@link PartitionReads}).
 */
record EntityReadHandler(TableLookup tables, EntityStore store, PartitionReads reads) {
    void get(RequestContext request, Context http) {
        ResourcePath.EntityItem item = (ResourcePath.EntityItem) request.resource();
        TableRecord table = tables.require(request.account(), item.table());
        request.caller().authorize(Operation.GET_ENTITY, table.name().value(), item.partitionKey(), item.rowKey());
        Select select = Select.parse(request.queryParam("$select"));
        MetadataLevel level = ODataResponses.level(request, http);
        ODataContext odata = ODataResponses.context(http, request).withTable(table.name());
        Optional<EdmDateTime> asOf = PartitionReads.asOf(request, http, table);
        readWhereTheEntityIs(request, http, table, item.partitionKey(), item.rowKey(),
                (copy, partition, entityKey) -> asOf.isPresent()
                        ? store.getAsOf(copy, partition, entityKey, asOf.get())
                        : store.get(copy, partition, entityKey),
                found -> {
                    Entity entity = found.orElseThrow(() -> TableServiceException.of(ErrorCode.RESOURCE_NOT_FOUND))
                            .entity();
                    ResponseHeaders.odata(http, request, level.contentType());
                    http.header(Headers.ETAG, entity.etag().value());
                    http.result(ResponseBodies.write(out -> EntityJsonWriter.writeEntity(out, odata, entity, level, select)));
                });
    }

    /**
     * Get Entity History ({@code GET <table>(PartitionKey='p',RowKey='r')/$history}, an extension):
     * the entity's versions within the table's retention, newest first, at most {@code $top} (1,000
     * by default) per page; {@code x-ms-continuation-NextVersion} names the time of the next older
     * one, passed back as {@code NextVersion}. Routed like Get Entity (read where the partition is).
     */
    void history(RequestContext request, Context http) {
        ResourcePath.EntityHistory item = (ResourcePath.EntityHistory) request.resource();
        TableRecord table = tables.require(request.account(), item.table());
        request.caller().authorize(Operation.GET_ENTITY_HISTORY, table.name().value(), item.partitionKey(),
                item.rowKey());
        if (!table.keepsHistory()) {
            throw TableServiceException.of(ErrorCode.RESOURCE_NOT_FOUND, "The table keeps no entity history: create"
                    + " it with " + History.RETENTION_PROPERTY + " in the Create Table body to keep one.");
        }
        int top = EntityQuery.top(request.queryParam("$top"));
        EdmDateTime from = HistoryPage.resumeAt(request.queryParam(HistoryPage.NEXT_VERSION));
        MetadataLevel level = ODataResponses.level(request, http);
        ODataContext odata = ODataResponses.context(http, request).withTable(table.name());
        EdmDateTime horizon = History.horizon(EdmDateTime.of(request.receivedAt()), table.historyRetentionSeconds());
        readWhereTheEntityIs(request, http, table, item.partitionKey(), item.rowKey(),
                (copy, partition, entityKey) -> HistoryPage.read(store, copy, partition, entityKey, from, horizon, top),
                page -> {
                    ResponseHeaders.odata(http, request, level.contentType());
                    page.next().ifPresent(next -> http.header(HistoryPage.CONTINUATION_NEXT_VERSION,
                            Long.toString(next.epochTicks())));
                    http.result(ResponseBodies.write(out -> HistoryJsonWriter.write(out, odata, page.versions(), level)));
                });
    }

    /** A read of one entity's partition copy. */
    @FunctionalInterface
    private interface EntityRead<T> {
        T read(StoreReplica copy, int partition, EntityKey key);
    }

    /**
     * Runs {@code read} on the copy of the partition holding the entity {@code (partitionKey, rowKey)}
     * — here, or forwarded to the instance holding it, after the writes the request's session token
     * names — and answers with what it found.
     */
    private <T> void readWhereTheEntityIs(RequestContext request, Context http, TableRecord table, String partitionKey,
                                          String rowKey, EntityRead<T> read, Consumer<T> answer) {
        CommandKey key = CommandKey.forEntity(request.account(), table.tableId(), partitionKey);
        int partition = reads.locator().partitionOf(key);
        EntityKey entityKey = EntityKey.of(table.tableId(), partitionKey, rowKey);
        String token = http.header(Headers.SESSION_TOKEN);
        ReplicaRouting.LocalRead local = replica -> reads.readHere(List.of(partition), replica, token,
                copies -> read.read(copies.apply(partition), partition, entityKey)).thenAccept(answer);
        reads.respond(request, http, List.of(partition), token, () -> reads.locator().locate(key), local);
    }
}
