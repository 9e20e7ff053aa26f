package io.tablestream.ingest.http;

import io.javalin.http.Context;
import io.tablestream.core.command.Outcome;
import io.tablestream.core.command.SessionToken;
import io.tablestream.core.command.TransactionCommand;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.model.ETag;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.odata.ODataContext;
import io.tablestream.ingest.command.CommandSubmitter;
import io.tablestream.protocol.batch.BatchRequest;
import io.tablestream.protocol.batch.BatchResponse;
import io.tablestream.protocol.batch.OperationResponse;
import io.tablestream.protocol.http.Headers;
import io.tablestream.protocol.http.ODataResponses;
import io.tablestream.protocol.http.RequestContext;
import io.tablestream.protocol.http.ResponseHeaders;
import io.tablestream.protocol.request.Operation;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Executor;

/**
 * {@code $batch}: one change set becomes ONE command holding all its operations, so the task that
 * owns the PartitionKey applies them all or none. A change set that fails — here while checking it,
 * or at the processor — is answered 202 with one error response naming the failing operation.
 */
final class BatchWriteHandler {
    private final CommandSubmitter submitter;
    private final EntityWritePlanner planner;
    private final Clock clock;
    private final Executor responders;

    BatchWriteHandler(CommandSubmitter submitter, EntityWritePlanner planner, Clock clock, Executor responders) {
        this.submitter = submitter;
        this.planner = planner;
        this.clock = clock;
        this.responders = responders;
    }

    void handle(RequestContext request, Context http) {
        request.caller().authorize(Operation.BATCH, null, null, null);
        BatchRequest batch;
        try {
            batch = BatchRequest.parse(http.bodyAsBytes(), http.contentType());
        } catch (TableServiceException e) {
            if (e.failedIndex().isEmpty()) {
                throw e; // a batch that cannot be taken apart: a plain error response
            }
            // a change set that fails at one of its operations: answered inside the batch response
            respond(request, http, BatchResponse.failedChangeSet(failure(request, null, e)), null);
            return;
        }
        if (batch.isQuery()) {
            throw TableServiceException.of(ErrorCode.NOT_IMPLEMENTED,
                    "A query inside $batch is not supported; send the query on its own.");
        }
        EntityWritePlanner.ChangeSet changeSet;
        try {
            changeSet = planner.changeSet(request.account(), request.caller(), batch.operations());
        } catch (TableServiceException e) {
            if (e.failedIndex().isEmpty()) {
                throw e;
            }
            respond(request, http, BatchResponse.failedChangeSet(failure(request, batch, e)), null);
            return;
        }
        ODataContext tableContext = ODataResponses.context(http, request).withTable(changeSet.table().name());
        http.future(() -> submitter.submit(changeSet.command()).handleAsync((outcome, error) -> {
            if (error != null) {
                TableServiceException e = unwrap(error);
                if (e == null || e.failedIndex().isEmpty()) {
                    throw error instanceof RuntimeException r ? r : new IllegalStateException(error);
                }
                respond(request, http, BatchResponse.failedChangeSet(failure(request, batch, e)), null);
                return null;
            }
            respond(request, http, BatchResponse.changeSet(responses(changeSet, outcome, tableContext)), outcome);
            return null;
        }, responders));
    }

    /**
     * Submit Transaction (an extension): a {@code $batch} body whose one change set may act on several
     * PartitionKeys of several tables of the account. Its operations are grouped into parts, one per
     * (table, PartitionKey) in the order they first appear, each applied all or none by its owner;
     * the whole is appended to the log as ONE command and answered {@code 202} as soon as the log has
     * it, with the transaction's id ({@code Location: .../$transactions('<id>')}, and the body
     * {@code {"TransactionId":..,"Parts":n}}) and the session token of the command. An operation
     * that breaks a rule, names a missing table, or that the caller may not perform refuses the
     * whole request (400/403/404, nothing appended), naming the operation's index.
     */
    void submitTransaction(RequestContext request, Context http) {
        request.caller().authorize(Operation.SUBMIT_TRANSACTION, null, null, null);
        BatchRequest batch = BatchRequest.parse(http.bodyAsBytes(), http.contentType());
        if (batch.isQuery()) {
            throw TableServiceException.of(ErrorCode.INVALID_INPUT, "A transaction holds no query.");
        }
        TransactionCommand command = planner.transaction(request.account(), request.caller(), batch.operations());
        String transactionId = command.transactionId();
        int parts = command.parts().size();
        String location = ODataResponses.context(http, request).baseUrl() + "/$transactions('" + transactionId + "')";
        http.future(() -> submitter.submitAsync(command).thenAcceptAsync(position -> {
            ResponseHeaders.standard(http, request);
            http.header(Headers.SESSION_TOKEN, new SessionToken(List.of(position)).toString());
            http.header("Location", location);
            http.contentType("application/json;charset=utf-8");
            http.status(202);
            http.result("{\"TransactionId\":\"" + transactionId + "\",\"Parts\":" + parts + "}");
        }, responders));
    }

    private static List<OperationResponse> responses(EntityWritePlanner.ChangeSet changeSet, Outcome outcome,
                                                     ODataContext odata) {
        List<OperationResponse> responses = new ArrayList<>(changeSet.writes().size());
        for (int i = 0; i < changeSet.writes().size(); i++) {
            EntityWritePlanner.PlannedWrite write = changeSet.writes().get(i);
            EdmDateTime timestamp = outcome.results().get(i).timestamp();
            Optional<String> contentId = changeSet.sources().get(i).contentId();
            responses.add(switch (write.operation().type()) {
                case INSERT -> {
                    ETag etag = ETag.forTimestamp(timestamp);
                    String url = odata.entityUrl(write.partitionKey(), write.operation().rowKey());
                    yield write.returnsContent()
                            ? OperationResponse.inserted(contentId, url, etag, write.contentLevel().contentType(),
                                    EntityWriteHandlers.entityJson(odata, write.written(timestamp), write.contentLevel()))
                            : OperationResponse.insertedWithoutContent(contentId, url, etag);
                }
                case DELETE -> OperationResponse.deleted(contentId);
                default -> OperationResponse.updated(contentId, ETag.forTimestamp(timestamp));
            });
        }
        return responses;
    }

    /** The failed operation's response; {@code batch} is null when the change set could not be parsed. */
    private OperationResponse failure(RequestContext request, BatchRequest batch, TableServiceException e) {
        int index = e.failedIndex().getAsInt();
        Optional<String> contentId = batch != null && index < batch.operations().size()
                ? batch.operations().get(index).contentId() : Optional.empty();
        return OperationResponse.failed(contentId, e, request.requestId(), clock.instant());
    }

    private static void respond(RequestContext request, Context http, BatchResponse response, Outcome outcome) {
        ResponseHeaders.standard(http, request);
        if (outcome != null) {
            http.header(Headers.SESSION_TOKEN, SessionToken.of(outcome.partition(), outcome.offset()).toString());
        }
        http.status(202);
        http.contentType(response.contentType());
        http.result(response.body());
    }

    private static TableServiceException unwrap(Throwable error) {
        Throwable t = error;
        while (t instanceof java.util.concurrent.CompletionException && t.getCause() != null) {
            t = t.getCause();
        }
        return t instanceof TableServiceException e ? e : null;
    }
}
