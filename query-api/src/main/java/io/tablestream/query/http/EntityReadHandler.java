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
        Select select = Select.parse(http.queryParam("$select"));
        MetadataLevel level = ODataResponses.level(http);
        ODataContext odata = ODataResponses.context(http, request).withTable(table.name());
        CommandKey key = CommandKey.forEntity(request.account(), table.tableId(), item.partitionKey());
        int partition = reads.locator().partitionOf(key);
        EntityKey entityKey = EntityKey.of(table.tableId(), item.partitionKey(), item.rowKey());
        String token = http.header(Headers.SESSION_TOKEN);
        Optional<EdmDateTime> asOf = PartitionReads.asOf(request, http, table);
        ReplicaRouting.LocalRead local = replica -> reads.readHere(List.of(partition), replica, token,
                copies -> asOf.isPresent()
                        ? store.getAsOf(copies.apply(partition), partition, entityKey, asOf.get())
                        : store.get(copies.apply(partition), partition, entityKey)).thenAccept(found -> {
                    Entity entity = found.orElseThrow(() -> TableServiceException.of(ErrorCode.RESOURCE_NOT_FOUND))
                            .entity();
                    ResponseHeaders.odata(http, request, level.contentType());
                    http.header(Headers.ETAG, entity.etag().value());
                    http.result(ResponseBodies.write(out -> EntityJsonWriter.writeEntity(out, odata, entity, level, select)));
                });
        reads.respond(request, http, List.of(partition), token, () -> reads.locator().locate(key), local);
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
        int top = EntityQuery.top(http.queryParam("$top"));
        EdmDateTime from = HistoryPage.resumeAt(http.queryParam(HistoryPage.NEXT_VERSION));
        MetadataLevel level = ODataResponses.level(http);
        ODataContext odata = ODataResponses.context(http, request).withTable(table.name());
        CommandKey key = CommandKey.forEntity(request.account(), table.tableId(), item.partitionKey());
        int partition = reads.locator().partitionOf(key);
        EntityKey entityKey = EntityKey.of(table.tableId(), item.partitionKey(), item.rowKey());
        String token = http.header(Headers.SESSION_TOKEN);
        EdmDateTime horizon = History.horizon(EdmDateTime.of(request.receivedAt()), table.historyRetentionSeconds());
        ReplicaRouting.LocalRead local = replica -> reads.readHere(List.of(partition), replica, token,
                copies -> HistoryPage.read(store, copies.apply(partition), partition, entityKey, from, horizon, top))
                .thenAccept(page -> {
                    ResponseHeaders.odata(http, request, level.contentType());
                    page.next().ifPresent(next -> http.header(HistoryPage.CONTINUATION_NEXT_VERSION,
                            Long.toString(next.epochTicks())));
                    http.result(ResponseBodies.write(out -> HistoryJsonWriter.write(out, odata, page.versions(), level)));
                });
        reads.respond(request, http, List.of(partition), token, () -> reads.locator().locate(key), local);
    }
}
