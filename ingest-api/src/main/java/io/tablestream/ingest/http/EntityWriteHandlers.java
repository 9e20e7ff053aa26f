package io.tablestream.ingest.http;

import io.javalin.http.Context;
import io.tablestream.core.command.EntityCommand;
import io.tablestream.core.command.EntityOperation;
import io.tablestream.core.command.Outcome;
import io.tablestream.core.command.SessionToken;
import io.tablestream.core.model.ETag;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.Entity;
import io.tablestream.core.model.TableRecord;
import io.tablestream.core.odata.EntityBody;
import io.tablestream.core.odata.EntityJsonWriter;
import io.tablestream.core.odata.MetadataLevel;
import io.tablestream.core.odata.ODataContext;
import io.tablestream.core.odata.ODataJsonReader;
import io.tablestream.core.rules.CommandRules;
import io.tablestream.ingest.command.CommandSubmitter;
import io.tablestream.protocol.http.Headers;
import io.tablestream.protocol.http.ODataResponses;
import io.tablestream.protocol.http.Operation;
import io.tablestream.protocol.http.Preferences;
import io.tablestream.protocol.http.RequestContext;
import io.tablestream.protocol.http.ResourcePath;
import io.tablestream.protocol.http.ResponseHeaders;
import io.tablestream.protocol.http.TableLookup;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collections;
import java.util.Map;
import java.util.concurrent.Executor;

/**
 * Insert, Update (replace), Merge, Insert-or-Replace, Insert-or-Merge and Delete of one entity:
 * parse, check (the same rules the processor applies again), authorize at the entity's keys, and
 * submit — synchronously by default, or answered with 202 once the log has it when the client
 * prefers {@code respond-async}.
 */
final class EntityWriteHandlers {
    private final CommandSubmitter submitter;
    private final TableLookup tables;
    private final Executor responders;

    EntityWriteHandlers(CommandSubmitter submitter, TableLookup tables, Executor responders) {
        this.submitter = submitter;
        this.tables = tables;
        this.responders = responders;
    }

    void handle(RequestContext request, Context http) {
        Operation operation = request.operation();
        EntityOperation.Type type = EntityRequests.typeOf(operation);
        String tableName;
        String partitionKey;
        String rowKey;
        Map<String, io.tablestream.core.model.EdmValue> properties = Map.of();
        if (request.resource() instanceof ResourcePath.EntityItem item) {
            tableName = item.table();
            partitionKey = item.partitionKey();
            rowKey = item.rowKey();
        } else {
            tableName = ((ResourcePath.EntityCollection) request.resource()).table();
            partitionKey = null;
            rowKey = null;
        }
        TableRecord table = tables.require(request.account(), tableName);
        if (type != EntityOperation.Type.DELETE) {
            EntityBody body = ODataJsonReader.readEntity(http.bodyAsBytes());
            if (type == EntityOperation.Type.INSERT) {
                Entity entity = body.toEntity(); // an insert names its keys in the body
                partitionKey = entity.partitionKey();
                rowKey = entity.rowKey();
            }
            properties = body.properties();
        }
        String condition = EntityRequests.condition(type, Collections.list(http.req().getHeaders(Headers.IF_MATCH)),
                http.header(Headers.IF_NONE_MATCH) != null);
        request.caller().authorize(operation, table.name().value(), partitionKey, rowKey);
        Preferences prefs = Preferences.parse(Collections.list(http.req().getHeaders(Headers.PREFER)));
        boolean async = prefs.respondAsync();
        EntityCommand command = EntityCommand.single(
                submitter.header(request.account(), request.caller().principal(), !async), table.tableId(), table.name(),
                partitionKey, EntityOperation.of(type, rowKey, condition, properties));
        CommandRules.validate(command);
        if (async) {
            http.future(() -> submitter.submitAsync(command).thenAcceptAsync(position -> {
                ResponseHeaders.standard(http, request);
                http.header(Headers.SESSION_TOKEN, new SessionToken(java.util.List.of(position)).toString());
                http.header(Headers.PREFERENCE_APPLIED, Preferences.RESPOND_ASYNC);
                http.status(202);
            }, responders));
            return;
        }
        boolean content = type == EntityOperation.Type.INSERT && prefs.returnContentOr(true);
        MetadataLevel level = content ? ODataResponses.level(http) : null;
        ODataContext odata = ODataResponses.context(http, request).withTable(table.name());
        Entity written = Entity.of(partitionKey, rowKey, properties);
        http.future(() -> submitter.submit(command).thenAcceptAsync(outcome -> respond(request, http, type, prefs,
                content, level, odata, written, outcome), responders));
    }

    private static void respond(RequestContext request, Context http, EntityOperation.Type type, Preferences prefs,
                                boolean content, MetadataLevel level, ODataContext odata, Entity written,
                                Outcome outcome) {
        ResponseHeaders.odata(http, request, content ? level.contentType() : null);
        http.header(Headers.SESSION_TOKEN, SessionToken.of(outcome.partition(), outcome.offset()).toString());
        EdmDateTime timestamp = outcome.results().get(0).timestamp();
        if (timestamp != null) {
            http.header(Headers.ETAG, ETag.forTimestamp(timestamp).value());
        }
        if (type != EntityOperation.Type.INSERT) {
            http.status(204);
            return;
        }
        String url = odata.entityUrl(written.partitionKey(), written.rowKey());
        http.header("Location", url);
        if (content) {
            if (prefs.returnContent() != null) {
                http.header(Headers.PREFERENCE_APPLIED, Preferences.RETURN_CONTENT);
            }
            http.status(201);
            http.result(entityJson(odata, written.withVersion(timestamp), level));
        } else {
            http.header(Headers.PREFERENCE_APPLIED, Preferences.RETURN_NO_CONTENT);
            http.header(Headers.DATA_SERVICE_ID, url);
            http.status(204);
        }
    }

    static byte[] entityJson(ODataContext odata, Entity entity, MetadataLevel level) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(512);
        try {
            EntityJsonWriter.writeEntity(out, odata, entity, level);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
