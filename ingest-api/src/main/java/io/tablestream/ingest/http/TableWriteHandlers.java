package io.tablestream.ingest.http;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.tablestream.core.model.EdmString;
import io.tablestream.core.model.IndexDefinition;
import io.tablestream.core.odata.EntityBody;

import io.javalin.http.Context;
import io.tablestream.core.command.Outcome;
import io.tablestream.core.command.SessionToken;
import io.tablestream.core.command.TableCommand;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.model.AccessPolicy;
import io.tablestream.core.model.TableName;
import io.tablestream.core.odata.CreateTableBody;
import io.tablestream.core.odata.MetadataLevel;
import io.tablestream.core.odata.ODataContext;
import io.tablestream.core.odata.ODataJsonReader;
import io.tablestream.core.odata.TableJsonWriter;
import io.tablestream.core.registry.TableRegistry;
import io.tablestream.core.rules.History;
import io.tablestream.core.rules.IndexRules;
import io.tablestream.core.rules.TimeToLive;
import io.tablestream.ingest.command.CommandSubmitter;
import io.tablestream.protocol.http.Headers;
import io.tablestream.protocol.http.ODataResponses;
import io.tablestream.protocol.http.Preferences;
import io.tablestream.protocol.http.RequestContext;
import io.tablestream.protocol.http.ResponseHeaders;
import io.tablestream.protocol.request.Operation;
import io.tablestream.protocol.request.ResourcePath;
import io.tablestream.protocol.xml.SignedIdentifiersXml;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * Create Table, Delete Table and Set Table ACL. All go through the log; the answer waits until
 * this instance's registry view shows the result, so the client's next request here never
 * contradicts it (no 404 right after a 201, no old policies right after a 204).
 */
final class TableWriteHandlers {
    private static final JsonFactory JSON = new JsonFactory();
    private final CommandSubmitter submitter;
    private final TableRegistry registry;
    private final RegistryWait registryWait;
    private final Executor responders;

    TableWriteHandlers(CommandSubmitter submitter, TableRegistry registry, RegistryWait registryWait,
                       Executor responders) {
        this.submitter = submitter;
        this.registry = registry;
        this.registryWait = registryWait;
        this.responders = responders;
    }

    void create(RequestContext request, Context http) {
        CreateTableBody body = ODataJsonReader.readCreateTable(http.bodyAsBytes());
        TableName name = TableName.of(body.tableName());
        Integer ttl = body.ttlInSeconds().isPresent() ? body.ttlInSeconds().getAsInt() : null;
        TimeToLive.validateTableDefault(ttl);
        Integer history = body.historyRetentionInSeconds().isPresent()
                ? body.historyRetentionInSeconds().getAsInt() : null;
        History.validateRetention(history);
        request.caller().authorize(Operation.CREATE_TABLE, name.value(), null, null);
        Preferences prefs = Preferences.parse(Collections.list(http.req().getHeaders(Headers.PREFER)));
        boolean content = prefs.returnContentOr(true);
        MetadataLevel level = content ? ODataResponses.level(request, http) : null;
        ODataContext odata = ODataResponses.context(http, request);
        TableCommand command = TableCommand.create(
                submitter.header(request.account(), request.caller().principal(), true), name, ttl, history);
        http.future(() -> submitter.submit(command)
                .thenCompose(outcome -> registryWait.tableCreated(request.account(), name, outcome))
                .thenAcceptAsync(outcome -> {
                    ResponseHeaders.odata(http, request, content ? level.contentType() : null);
                    http.header(Headers.SESSION_TOKEN, SessionToken.of(outcome.partition(), outcome.offset()).toString());
                    String url = odata.tableUrl(TableName.of(outcome.table().tableName()));
                    http.header("Location", url);
                    http.header(Headers.DATA_SERVICE_ID, url);
                    if (content) {
                        if (prefs.returnContent() != null) { // only a preference the client stated is "applied"
                            http.header(Headers.PREFERENCE_APPLIED, Preferences.RETURN_CONTENT);
                        }
                        http.status(201);
                        http.result(tableJson(odata, TableName.of(outcome.table().tableName()), level));
                    } else {
                        http.header(Headers.PREFERENCE_APPLIED, Preferences.RETURN_NO_CONTENT);
                        http.status(204);
                    }
                }, responders));
    }

    void delete(RequestContext request, Context http) {
        String raw = ((ResourcePath.TableItem) request.resource()).name();
        if (!TableName.isValid(raw)) {
            throw TableServiceException.of(ErrorCode.RESOURCE_NOT_FOUND, "No table of that name can exist.");
        }
        TableName name = TableName.of(raw);
        request.caller().authorize(Operation.DELETE_TABLE, name.value(), null, null);
        TableCommand command = TableCommand.delete(
                submitter.header(request.account(), request.caller().principal(), true), name);
        http.future(() -> submitter.submit(command)
                .thenCompose(outcome -> gone(request.account(), name, outcome))
                .thenAcceptAsync(outcome -> {
                    ResponseHeaders.standard(http, request);
                    http.header(Headers.SESSION_TOKEN, SessionToken.of(outcome.partition(), outcome.offset()).toString());
                    http.status(204);
                }, responders));
    }

    /**
     * Set Table ACL: the body's policies replace the table's stored access policies (204). The
     * processor decides whether the table exists.
     */
    void setAcl(RequestContext request, Context http) {
        TableName name = existingName(((ResourcePath.EntityCollection) request.resource()).table());
        request.caller().authorize(Operation.SET_TABLE_ACL, name.value(), null, null);
        List<AccessPolicy> policies = SignedIdentifiersXml.parse(http.bodyInputStream());
        TableCommand command = TableCommand.setAcl(
                submitter.header(request.account(), request.caller().principal(), true), name, policies);
        http.future(() -> submitter.submit(command)
                .thenCompose(outcome -> policiesVisible(request.account(), name, policies, outcome))
                .thenAcceptAsync(outcome -> {
                    ResponseHeaders.standard(http, request);
                    http.header(Headers.SESSION_TOKEN, SessionToken.of(outcome.partition(), outcome.offset()).toString());
                    http.status(204);
                }, responders));
    }

    /**
     * Create Index (an extension): {@code POST /{table}?comp=indexes} with
     * {@code {"Name":"ByEmail","Property":"Email"}}. Answered 201 with the index once this
     * instance's registry view lists it; each partition then builds it over its existing rows in the
     * background (progress: {@code GET ?comp=indexes}), while queries scan partitions not built yet.
     */
    void createIndex(RequestContext request, Context http) {
        TableName name = existingName(((ResourcePath.EntityCollection) request.resource()).table());
        request.caller().authorize(Operation.CREATE_INDEX, name.value(), null, null);
        EntityBody body = ODataJsonReader.readEntity(http.bodyAsBytes());
        IndexDefinition index = IndexRules.requested(text(body, "Name"), text(body, "Property"));
        TableCommand command = TableCommand.createIndex(
                submitter.header(request.account(), request.caller().principal(), true), name, index);
        http.future(() -> submitter.submit(command)
                .thenCompose(outcome -> indexVisible(request.account(), name, index.name(), true, outcome))
                .thenAcceptAsync(outcome -> {
                    ResponseHeaders.odata(http, request, "application/json;odata=nometadata;charset=utf-8");
                    http.header(Headers.SESSION_TOKEN, SessionToken.of(outcome.partition(), outcome.offset()).toString());
                    http.status(201);
                    http.result(indexJson(index));
                }, responders));
    }

    /** Drop Index (an extension): {@code DELETE /{table}?comp=indexes&name=ByEmail}, 204. */
    void dropIndex(RequestContext request, Context http) {
        TableName name = existingName(((ResourcePath.EntityCollection) request.resource()).table());
        request.caller().authorize(Operation.DROP_INDEX, name.value(), null, null);
        String indexName = request.queryParam("name");
        IndexRules.validateName(indexName);
        TableCommand command = TableCommand.dropIndex(
                submitter.header(request.account(), request.caller().principal(), true), name, indexName);
        http.future(() -> submitter.submit(command)
                .thenCompose(outcome -> indexVisible(request.account(), name, indexName, false, outcome))
                .thenAcceptAsync(outcome -> {
                    ResponseHeaders.standard(http, request);
                    http.header(Headers.SESSION_TOKEN, SessionToken.of(outcome.partition(), outcome.offset()).toString());
                    http.status(204);
                }, responders));
    }

    private static byte[] indexJson(IndexDefinition index) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(128);
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.writeStartObject();
            g.writeStringField("Name", index.name());
            g.writeStringField("Property", index.property());
            g.writeEndObject();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static String text(EntityBody body, String member) {
        return body.properties().get(member) instanceof EdmString s ? s.value() : null;
    }

    /** The view shows the index (or no longer does), or the table is gone or replaced since. */
    private CompletableFuture<Outcome> indexVisible(String account, TableName name, String index, boolean present,
                                                   Outcome outcome) {
        long id = outcome.table().tableId();
        return registryWait.until(() -> registry.byName(account, name)
                .map(t -> t.tableId() != id || t.index(index).isPresent() == present).orElse(true), outcome);
    }

    /** A name from the path; one that cannot be a table's is a table that does not exist. */
    private static TableName existingName(String raw) {
        if (!TableName.isValid(raw)) {
            throw TableServiceException.of(ErrorCode.TABLE_NOT_FOUND, "The table specified does not exist.");
        }
        return TableName.of(raw);
    }

    private CompletableFuture<Outcome> gone(String account, TableName name, Outcome outcome) {
        long id = outcome.table().tableId();
        return registryWait.until(() -> registry.byName(account, name).map(t -> t.tableId() != id).orElse(true),
                outcome);
    }

    /** The view shows these policies on the table, or the table is gone or replaced since. */
    private CompletableFuture<Outcome> policiesVisible(String account, TableName name, List<AccessPolicy> policies,
                                                      Outcome outcome) {
        long id = outcome.table().tableId();
        return registryWait.until(() -> registry.byName(account, name)
                .map(t -> t.tableId() != id || t.accessPolicies().equals(policies)).orElse(true), outcome);
    }

    private static byte[] tableJson(ODataContext odata, TableName name, MetadataLevel level) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        try {
            TableJsonWriter.writeTable(out, odata, name, level);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
