package io.tablestream.ingest.http;

import io.javalin.http.Context;
import io.tablestream.core.codec.CreateTableBody;
import io.tablestream.core.codec.MetadataLevel;
import io.tablestream.core.codec.ODataContext;
import io.tablestream.core.codec.ODataJsonReader;
import io.tablestream.core.codec.TableJsonWriter;
import io.tablestream.core.command.Outcome;
import io.tablestream.core.command.SessionToken;
import io.tablestream.core.command.TableCommand;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.model.TableName;
import io.tablestream.core.registry.TableRegistry;
import io.tablestream.core.rules.TimeToLive;
import io.tablestream.ingest.command.CommandSubmitter;
import io.tablestream.protocol.http.Headers;
import io.tablestream.protocol.http.ODataResponses;
import io.tablestream.protocol.http.Operation;
import io.tablestream.protocol.http.Preferences;
import io.tablestream.protocol.http.RequestContext;
import io.tablestream.protocol.http.ResourcePath;
import io.tablestream.protocol.http.ResponseHeaders;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.Collections;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Create Table and Delete Table. Both go through the log; the answer waits until this instance's
 * registry view shows the result, so the client's next request here never contradicts it (no 404
 * right after a 201).
 */
final class TableWriteHandlers {
    private final CommandSubmitter submitter;
    private final TableRegistry registry;
    private final Duration registryTimeout;
    private final Executor responders;

    TableWriteHandlers(CommandSubmitter submitter, TableRegistry registry, Duration registryTimeout,
                       Executor responders) {
        this.submitter = submitter;
        this.registry = registry;
        this.registryTimeout = registryTimeout;
        this.responders = responders;
    }

    void create(RequestContext request, Context http) {
        CreateTableBody body = ODataJsonReader.readCreateTable(http.bodyAsBytes());
        TableName name = TableName.of(body.tableName());
        Integer ttl = body.ttlInSeconds().isPresent() ? body.ttlInSeconds().getAsInt() : null;
        TimeToLive.validateTableDefault(ttl);
        request.caller().authorize(Operation.CREATE_TABLE, name.value(), null, null);
        Preferences prefs = Preferences.parse(Collections.list(http.req().getHeaders(Headers.PREFER)));
        boolean content = prefs.returnContentOr(true);
        MetadataLevel level = content ? ODataResponses.level(http) : null;
        ODataContext odata = ODataResponses.context(http, request);
        TableCommand command = TableCommand.create(
                submitter.header(request.account(), request.caller().principal(), true), name, ttl);
        http.future(() -> submitter.submit(command)
                .thenCompose(outcome -> visible(request.account(), name, outcome))
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

    private CompletableFuture<Outcome> visible(String account, TableName name, Outcome outcome) {
        long id = outcome.table().tableId();
        return bounded(registry.awaitChange(() -> registry.byName(account, name)
                .map(t -> t.tableId() == id).orElse(false)), outcome);
    }

    private CompletableFuture<Outcome> gone(String account, TableName name, Outcome outcome) {
        long id = outcome.table().tableId();
        return bounded(registry.awaitChange(() -> registry.byName(account, name)
                .map(t -> t.tableId() != id).orElse(true)), outcome);
    }

    private CompletableFuture<Outcome> bounded(CompletableFuture<Void> wait, Outcome outcome) {
        return wait.orTimeout(registryTimeout.toMillis(), TimeUnit.MILLISECONDS).handle((v, e) -> {
            if (e instanceof TimeoutException) {
                throw TableServiceException.of(ErrorCode.SERVER_BUSY,
                        "The table change was applied but this instance has not seen it yet; retry shortly.");
            }
            if (e != null) {
                throw e instanceof RuntimeException r ? r : new IllegalStateException(e);
            }
            return outcome;
        });
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
