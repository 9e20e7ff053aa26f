package io.tablestream.ingest.http;

import io.javalin.http.Context;
import io.tablestream.core.command.CommandHeader;
import io.tablestream.core.command.EntityCommand;
import io.tablestream.core.command.EntityOperation;
import io.tablestream.core.command.Outcome;
import io.tablestream.core.command.SessionToken;
import io.tablestream.core.command.TransactionCommand;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.model.ETag;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.EdmValue;
import io.tablestream.core.model.Entity;
import io.tablestream.core.model.TableRecord;
import io.tablestream.core.odata.EntityBody;
import io.tablestream.core.odata.MetadataLevel;
import io.tablestream.core.odata.ODataContext;
import io.tablestream.core.odata.ODataJsonReader;
import io.tablestream.core.rules.CommandRules;
import io.tablestream.ingest.command.CommandSubmitter;
import io.tablestream.protocol.batch.BatchOperation;
import io.tablestream.protocol.batch.BatchRequest;
import io.tablestream.protocol.batch.BatchResponse;
import io.tablestream.protocol.batch.OperationResponse;
import io.tablestream.protocol.http.Headers;
import io.tablestream.protocol.http.ODataResponses;
import io.tablestream.protocol.http.Operation;
import io.tablestream.protocol.http.OperationResolver;
import io.tablestream.protocol.http.Preferences;
import io.tablestream.protocol.http.RequestContext;
import io.tablestream.protocol.http.ResourcePath;
import io.tablestream.protocol.http.ResponseHeaders;
import io.tablestream.protocol.http.TableLookup;
import io.tablestream.schemas.LogCodecs;
import java.net.URI;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
    private final TableLookup tables;
    private final Clock clock;
    private final Executor responders;

    BatchWriteHandler(CommandSubmitter submitter, TableLookup tables, Clock clock, Executor responders) {
        this.submitter = submitter;
        this.tables = tables;
        this.clock = clock;
        this.responders = responders;
    }

    /** One parsed operation of the change set. */
    private record Planned(BatchOperation source, Operation operation, EntityOperation entityOperation,
                           String partitionKey, boolean returnContent, MetadataLevel level) {
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
        List<Planned> planned = new ArrayList<>(batch.operations().size());
        TableRecord table = null;
        EntityCommand command;
        ODataContext odata = ODataResponses.context(http, request);
        try {
            for (BatchOperation op : batch.operations()) {
                try {
                    ResourcePath resource = resourceOf(request.account(), op.url());
                    String tableName = resource instanceof ResourcePath.EntityItem item ? item.table()
                            : resource instanceof ResourcePath.EntityCollection c ? c.table() : null;
                    if (tableName == null) {
                        throw TableServiceException.of(ErrorCode.INVALID_INPUT,
                                "An operation of a change set addresses an entity or a table's entities.");
                    }
                    if (table == null) {
                        table = tables.require(request.account(), tableName);
                    } else if (!table.name().sameTableAs(io.tablestream.core.model.TableName.of(tableName))) {
                        throw TableServiceException.of(ErrorCode.INVALID_INPUT,
                                "All operations of a change set must act on the same table.");
                    }
                    planned.add(plan(request, op, resource, table));
                    String firstPk = planned.get(0).partitionKey();
                    if (!firstPk.equals(planned.get(planned.size() - 1).partitionKey())) {
                        throw TableServiceException.of(ErrorCode.COMMANDS_IN_BATCH_ACT_ON_DIFFERENT_PARTITIONS);
                    }
                } catch (TableServiceException e) {
                    throw e.failedIndex().isPresent() ? e : e.atIndex(op.index());
                }
            }
            List<EntityOperation> ops = planned.stream().map(Planned::entityOperation).toList();
            command = EntityCommand.batch(submitter.header(request.account(), request.caller().principal(), true),
                    table.tableId(), table.name(), planned.get(0).partitionKey(), ops);
            CommandRules.validate(command);
        } catch (TableServiceException e) {
            if (e.failedIndex().isEmpty()) {
                throw e;
            }
            respond(request, http, BatchResponse.failedChangeSet(failure(request, batch, e)), null);
            return;
        }
        ODataContext tableContext = odata.withTable(table.name());
        http.future(() -> submitter.submit(command).handleAsync((outcome, error) -> {
            if (error != null) {
                TableServiceException e = unwrap(error);
                if (e == null || e.failedIndex().isEmpty()) {
                    throw error instanceof RuntimeException r ? r : new IllegalStateException(error);
                }
                respond(request, http, BatchResponse.failedChangeSet(failure(request, batch, e)), null);
                return null;
            }
            respond(request, http, BatchResponse.changeSet(responses(planned, outcome, tableContext)), outcome);
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
        if (batch.operations().size() > TransactionCommand.MAX_OPERATIONS) {
            throw TableServiceException.of(ErrorCode.INVALID_INPUT,
                    "A transaction holds at most " + TransactionCommand.MAX_OPERATIONS + " operations.");
        }
        String transactionId = UUID.randomUUID().toString();
        CommandHeader header = submitter.header(request.account(), request.caller().principal(), false);
        Map<String, TableRecord> tablesByName = new HashMap<>();
        Map<String, List<Planned>> groups = new LinkedHashMap<>();
        Map<String, TableRecord> tableOfGroup = new HashMap<>();
        for (BatchOperation op : batch.operations()) {
            try {
                ResourcePath resource = resourceOf(request.account(), op.url());
                String tableName = resource instanceof ResourcePath.EntityItem item ? item.table()
                        : resource instanceof ResourcePath.EntityCollection c ? c.table() : null;
                if (tableName == null) {
                    throw TableServiceException.of(ErrorCode.INVALID_INPUT,
                            "An operation of a transaction addresses an entity or a table's entities.");
                }
                TableRecord table = tablesByName.computeIfAbsent(tableName.toLowerCase(java.util.Locale.ROOT),
                        n -> tables.require(request.account(), tableName));
                Planned planned = plan(request, op, resource, table);
                String group = table.tableId() + "/" + planned.partitionKey();
                groups.computeIfAbsent(group, g -> new ArrayList<>()).add(planned);
                tableOfGroup.put(group, table);
            } catch (TableServiceException e) {
                throw e.failedIndex().isPresent() ? e : e.atIndex(op.index());
            }
        }
        List<EntityCommand> parts = new ArrayList<>(groups.size());
        for (Map.Entry<String, List<Planned>> g : groups.entrySet()) {
            TableRecord table = tableOfGroup.get(g.getKey());
            int index = parts.size();
            EntityCommand part = EntityCommand.part(LogCodecs.partHeader(header, transactionId, index), table.tableId(),
                    table.name(), g.getValue().get(0).partitionKey(),
                    g.getValue().stream().map(Planned::entityOperation).toList(), transactionId, index);
            try {
                CommandRules.validate(part);
            } catch (TableServiceException e) {
                // the index within the part, as the index within the request
                throw e.failedIndex().isPresent()
                        ? e.atIndex(g.getValue().get(e.failedIndex().getAsInt()).source().index()) : e;
            }
            parts.add(part);
        }
        TransactionCommand command = new TransactionCommand(header, transactionId, parts);
        String location = ODataResponses.context(http, request).baseUrl() + "/$transactions('" + transactionId + "')";
        http.future(() -> submitter.submitAsync(command).thenAcceptAsync(position -> {
            ResponseHeaders.standard(http, request);
            http.header(Headers.SESSION_TOKEN, new SessionToken(List.of(position)).toString());
            http.header("Location", location);
            http.contentType("application/json;charset=utf-8");
            http.status(202);
            http.result("{\"TransactionId\":\"" + transactionId + "\",\"Parts\":" + parts.size() + "}");
        }, responders));
    }

    private Planned plan(RequestContext request, BatchOperation op, ResourcePath resource, TableRecord table) {
        String ifMatch = op.headers().first(Headers.IF_MATCH).orElse(null);
        Operation operation = OperationResolver.resolve(op.method().name(), List.of(), resource, null, null,
                ifMatch != null);
        EntityOperation.Type type = EntityRequests.typeOf(operation);
        String pk;
        String rk;
        Map<String, EdmValue> properties = Map.of();
        if (resource instanceof ResourcePath.EntityItem item) {
            pk = item.partitionKey();
            rk = item.rowKey();
        } else {
            pk = null;
            rk = null;
        }
        if (type != EntityOperation.Type.DELETE) {
            EntityBody body = ODataJsonReader.readEntity(op.body());
            if (type == EntityOperation.Type.INSERT) {
                Entity e = body.toEntity();
                pk = e.partitionKey();
                rk = e.rowKey();
            }
            properties = body.properties();
        }
        String condition = EntityRequests.condition(type, op.headers().all(Headers.IF_MATCH),
                op.headers().first(Headers.IF_NONE_MATCH).isPresent());
        request.caller().authorize(operation, table.name().value(), pk, rk);
        Preferences prefs = Preferences.parse(op.headers().all(Headers.PREFER));
        boolean content = type == EntityOperation.Type.INSERT && prefs.returnContentOr(true);
        MetadataLevel level = content ? io.tablestream.core.odata.MetadataLevel.negotiate(null,
                op.headers().first("Accept").orElse("application/json;odata=minimalmetadata")) : null;
        return new Planned(op, operation, EntityOperation.of(type, rk, condition, properties), pk, content, level);
    }

    /** The path an operation's URL addresses (absolute, or relative to the account). */
    private static ResourcePath resourceOf(String account, String url) {
        String path;
        try {
            URI uri = URI.create(url.strip());
            path = uri.isAbsolute() ? uri.getRawPath() : "/" + account + "/" + uri.getRawPath();
        } catch (IllegalArgumentException e) {
            throw TableServiceException.of(ErrorCode.INVALID_URI, "An operation of the change set has an invalid URL.");
        }
        ResourcePath.Target target = ResourcePath.parse(path);
        if (!target.account().equals(account)) {
            throw TableServiceException.of(ErrorCode.INVALID_INPUT,
                    "An operation of the change set addresses another account.");
        }
        return target.resource();
    }

    private List<OperationResponse> responses(List<Planned> planned, Outcome outcome, ODataContext odata) {
        List<OperationResponse> responses = new ArrayList<>(planned.size());
        for (int i = 0; i < planned.size(); i++) {
            Planned p = planned.get(i);
            EdmDateTime timestamp = outcome.results().get(i).timestamp();
            Optional<String> contentId = p.source().contentId();
            EntityOperation op = p.entityOperation();
            responses.add(switch (op.type()) {
                case INSERT -> {
                    ETag etag = ETag.forTimestamp(timestamp);
                    String url = odata.entityUrl(p.partitionKey(), op.rowKey());
                    yield p.returnContent()
                            ? OperationResponse.inserted(contentId, url, etag, p.level().contentType(),
                                    EntityWriteHandlers.entityJson(odata,
                                            Entity.of(p.partitionKey(), op.rowKey(), op.properties()).withVersion(timestamp),
                                            p.level()))
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
