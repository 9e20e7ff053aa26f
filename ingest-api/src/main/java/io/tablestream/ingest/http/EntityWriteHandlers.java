package io.tablestream.ingest.http;

import io.javalin.http.Context;
import io.tablestream.core.command.Command;
import io.tablestream.core.command.EntityOperation;
import io.tablestream.core.command.Outcome;
import io.tablestream.core.command.PartitionDeletion;
import io.tablestream.core.command.SessionToken;
import io.tablestream.core.model.ETag;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.Entity;
import io.tablestream.core.odata.EntityJsonWriter;
import io.tablestream.core.odata.MetadataLevel;
import io.tablestream.core.odata.ODataContext;
import io.tablestream.ingest.command.CommandSubmitter;
import io.tablestream.protocol.http.Headers;
import io.tablestream.protocol.http.ODataResponses;
import io.tablestream.protocol.http.Preferences;
import io.tablestream.protocol.http.RequestContext;
import io.tablestream.protocol.http.ResponseHeaders;
import io.tablestream.protocol.request.ResourcePath;
import io.tablestream.protocol.write.EntityWriteRequest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * Insert, Update (replace), Merge, Insert-or-Replace, Insert-or-Merge and Delete of one entity:
 * planned by the {@link EntityWritePlanner} (checked by the same rules the processor applies again,
 * authorized at the entity's keys), then submitted — synchronously by default, or answered with 202
 * once the log has it when the client prefers {@code respond-async}.
 */
final class EntityWriteHandlers {
    private final CommandSubmitter submitter;
    private final EntityWritePlanner planner;
    private final Executor responders;

    EntityWriteHandlers(CommandSubmitter submitter, EntityWritePlanner planner, Executor responders) {
        this.submitter = submitter;
        this.planner = planner;
        this.responders = responders;
    }

    void handle(RequestContext request, Context http) {
        EntityWritePlanner.SingleWrite single = planner.single(request.account(), request.caller(),
                EntityWriteRequest.fromRequest(request, http));
        EntityWritePlanner.PlannedWrite write = single.write();
        if (single.async()) {
            answerAccepted(request, http, single.command());
            return;
        }
        ODataContext odata = ODataResponses.context(http, request).withTable(write.table().name());
        http.future(() -> submitter.submit(single.command()).thenAcceptAsync(outcome -> respond(request, http, write,
                odata, outcome), responders));
    }

    /**
     * Delete Partition ({@code DELETE <table>(PartitionKey='p')/$partition}, an extension): one
     * command that deletes every entity of the PartitionKey, planned by the {@link EntityWritePlanner}.
     * 204 once applied (the rows are invisible from then on and swept in the background), 202 with
     * {@code Prefer: respond-async}.
     */
    void deletePartition(RequestContext request, Context http) {
        boolean async = Preferences.parse(Collections.list(http.req().getHeaders(Headers.PREFER))).respondAsync();
        PartitionDeletion command = planner.partitionDeletion(request.account(), request.caller(),
                (ResourcePath.EntityPartition) request.resource(), async);
        if (async) {
            answerAccepted(request, http, command);
            return;
        }
        http.future(() -> submitter.submit(command).thenAcceptAsync(outcome -> {
            ResponseHeaders.odata(http, request, null);
            http.header(Headers.SESSION_TOKEN, SessionToken.of(outcome.partition(), outcome.offset()).toString());
            http.status(204);
        }, responders));
    }

    /** 202 once the log has {@code command}, with the session token of its position (respond-async). */
    private void answerAccepted(RequestContext request, Context http, Command command) {
        http.future(() -> submitter.submitAsync(command).thenAcceptAsync(position -> {
            ResponseHeaders.standard(http, request);
            http.header(Headers.SESSION_TOKEN, new SessionToken(List.of(position)).toString());
            http.header(Headers.PREFERENCE_APPLIED, Preferences.RESPOND_ASYNC);
            http.status(202);
        }, responders));
    }

    private static void respond(RequestContext request, Context http, EntityWritePlanner.PlannedWrite write,
                                ODataContext odata, Outcome outcome) {
        boolean content = write.returnsContent();
        ResponseHeaders.odata(http, request, content ? write.contentLevel().contentType() : null);
        http.header(Headers.SESSION_TOKEN, SessionToken.of(outcome.partition(), outcome.offset()).toString());
        EdmDateTime timestamp = outcome.results().get(0).timestamp();
        if (timestamp != null) {
            http.header(Headers.ETAG, ETag.forTimestamp(timestamp).value());
        }
        if (write.operation().type() != EntityOperation.Type.INSERT) {
            http.status(204);
            return;
        }
        String url = odata.entityUrl(write.partitionKey(), write.operation().rowKey());
        http.header("Location", url);
        if (content) {
            if (write.request().preferences().returnContent() != null) {
                http.header(Headers.PREFERENCE_APPLIED, Preferences.RETURN_CONTENT);
            }
            http.status(201);
            http.result(entityJson(odata, write.written(timestamp), write.contentLevel()));
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
