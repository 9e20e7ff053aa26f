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
import io.tablestream.core.odata.MetadataLevel;
import io.tablestream.core.odata.ODataContext;
import io.tablestream.processor.store.EntityStore;
import io.tablestream.protocol.http.Headers;
import io.tablestream.protocol.http.ODataResponses;
import io.tablestream.protocol.http.RequestContext;
import io.tablestream.protocol.http.ResponseHeaders;
import io.tablestream.protocol.http.TableLookup;
import io.tablestream.protocol.request.Operation;
import io.tablestream.protocol.request.ResourcePath;
import java.util.List;
import java.util.Optional;

/**
 * Get Entity: one entity by its keys, from the partition that holds it — read here or forwarded to
 * the instance holding it ({@link PartitionReads}) — as it is, or as of a past time on a table that
 * keeps history ({@code asOf}).
 */
final class EntityReadHandler {
    private final TableLookup tables;
    private final EntityStore store;
    private final PartitionReads reads;

    EntityReadHandler(TableLookup tables, EntityStore store, PartitionReads reads) {
        this.tables = tables;
        this.store = store;
        this.reads = reads;
    }

    void handle(RequestContext request, Context http) {
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
}
