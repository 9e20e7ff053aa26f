package io.tablestream.ingest.http;

import io.javalin.http.Context;
import io.tablestream.core.command.CommandHeader;
import io.tablestream.core.command.JobCommand;
import io.tablestream.core.command.JobSpec;
import io.tablestream.core.command.JobStatus;
import io.tablestream.core.command.Outcome;
import io.tablestream.core.command.SessionToken;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.filter.Filter;
import io.tablestream.core.filter.KeyRange;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.TableName;
import io.tablestream.core.model.TableRecord;
import io.tablestream.core.odata.JobJsonWriter;
import io.tablestream.core.odata.ODataJsonReader;
import io.tablestream.core.odata.RestoreTableBody;
import io.tablestream.core.registry.TableRegistry;
import io.tablestream.core.rules.CommandRules;
import io.tablestream.core.rules.History;
import io.tablestream.ingest.command.CommandSubmitter;
import io.tablestream.protocol.http.Headers;
import io.tablestream.protocol.http.ODataResponses;
import io.tablestream.protocol.http.RequestContext;
import io.tablestream.protocol.http.ResponseHeaders;
import io.tablestream.protocol.http.TableLookup;
import io.tablestream.protocol.request.Operation;
import io.tablestream.protocol.request.ResourcePath;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * The requests that start jobs (extensions): a restore ({@code POST <table>()/$restore}) and a
 * deletion by filter ({@code DELETE <table>()?$filter=..}). Each is checked, authorized like the
 * operations it resembles, and submitted as one command; the answer is {@code 202 Accepted} with
 * the job's status and {@code Location: .../$jobs/<id>} once the job is recorded (a restore: once
 * its target table exists, as this instance's registry view shows). The work itself is done by
 * the stream processor a bounded step at a time.
 */
final class JobWriteHandlers {
    /**
     * How far inside the source's history retention a restore's {@code AsOf} must lie: the versions
     * it needs are kept (and no longer swept) once the restore reaches each partition, a moment after
     * it is accepted.
     */
    static final Duration AS_OF_MARGIN = Duration.ofMinutes(1);
    /** The query options of Query Entities, which a deletion by filter does not take. */
    private static final List<String> QUERY_OPTIONS = List.of("$select", "$top", "$orderby", "asOf",
            "NextPartitionKey", "NextRowKey");

    private final CommandSubmitter submitter;
    private final TableLookup tables;
    private final TableRegistry registry;
    private final RegistryWait registryWait;
    private final Executor responders;

    JobWriteHandlers(CommandSubmitter submitter, TableRegistry registry, RegistryWait registryWait,
                     Executor responders) {
        this.submitter = submitter;
        this.tables = new TableLookup(registry);
        this.registry = registry;
        this.registryWait = registryWait;
        this.responders = responders;
    }

    /**
     * Restore: a new table ({@code TableName}) with the source's settings, holding the entities the
     * source held at {@code AsOf} (or as the request is accepted). Authorized as Create Table of the
     * new table and a Query Entities of the whole source. 404 for a missing source, 409 for a target
     * that exists, 400 for an {@code AsOf} outside the source's retention.
     */
    void restore(RequestContext request, Context http) {
        TableRecord source = tables.require(request.account(), ((ResourcePath.TableRestore) request.resource()).table());
        RestoreTableBody body = ODataJsonReader.readRestore(http.bodyAsBytes());
        if (body.tableName() == null) {
            throw TableServiceException.of(ErrorCode.INVALID_INPUT, "The body names the new table: {\"TableName\":..}.");
        }
        TableName target = TableName.of(body.tableName());
        request.caller().authorize(Operation.CREATE_TABLE, target.value(), null, null);
        request.caller().authorize(Operation.QUERY_ENTITIES, source.name().value(), null, null);
        if (!request.caller().readableKeys(source.name().value()).equals(KeyRange.ALL)) {
            throw TableServiceException.of(ErrorCode.AUTHORIZATION_FAILURE,
                    "A restore copies the whole table: a signature restricted to a range of keys cannot authorize it.");
        }
        EdmDateTime asOf = asOf(body.asOf(), source, EdmDateTime.of(request.receivedAt()));
        if (registry.byName(request.account(), target).isPresent()) {
            throw TableServiceException.of(ErrorCode.TABLE_ALREADY_EXISTS);
        }
        JobCommand command = new JobCommand(submitter.header(request.account(), request.caller().principal(), true),
                new JobSpec.Restore(source.tableId(), source.name(), target, asOf));
        CommandRules.validate(command);
        http.future(() -> submitter.submit(command)
                .thenCompose(outcome -> registryWait.tableCreated(request.account(), target, outcome)) // no 404 here next
                .thenAcceptAsync(outcome -> accepted(request, http, command, outcome), responders));
    }

    /**
     * Delete by filter: every entity that matched {@code $filter} when the request was accepted.
     * Authorized as a delete of every entity the filter may match (a SAS needs {@code d} and a key
     * range holding the filter's). Without {@code $filter}, 400: Delete Table deletes a whole table.
     */
    void deleteEntities(RequestContext request, Context http) {
        String text = request.queryParam("$filter");
        if (text == null || text.isBlank()) {
            throw TableServiceException.of(ErrorCode.MISSING_REQUIRED_QUERY_PARAMETER, "DELETE of a table's entities"
                    + " takes a $filter saying which to delete (an extension); Delete Table (DELETE /Tables('name'))"
                    + " deletes a whole table.");
        }
        for (String option : QUERY_OPTIONS) {
            if (request.queryParam(option) != null) {
                throw TableServiceException.of(ErrorCode.INVALID_QUERY_PARAMETER_VALUE,
                        "A deletion by filter takes $filter only, not " + option + ".");
            }
        }
        TableRecord table = tables.require(request.account(), ((ResourcePath.EntityCollection) request.resource()).table());
        Filter filter = Filter.parse(text);
        request.caller().authorize(Operation.DELETE_ENTITIES, table.name().value(), filter.keyRange());
        JobCommand command = new JobCommand(submitter.header(request.account(), request.caller().principal(), true),
                new JobSpec.DeleteEntities(table.tableId(), table.name(), text));
        CommandRules.validate(command);
        http.future(() -> submitter.submit(command)
                .thenAcceptAsync(outcome -> accepted(request, http, command, outcome), responders));
    }

    /** {@code AsOf}: null for none; else a UTC time within the source's retention, with a margin, and not ahead. */
    private static EdmDateTime asOf(String text, TableRecord source, EdmDateTime receivedAt) {
        if (text == null) {
            return null;
        }
        EdmDateTime time = EdmDateTime.parse(text.strip()).orElseThrow(() -> TableServiceException.of(
                ErrorCode.INVALID_INPUT, "AsOf is a UTC time such as 2026-11-24T12:00:00Z: '" + text + "'."));
        if (!source.keepsHistory()) {
            throw TableServiceException.of(ErrorCode.INVALID_INPUT, "The table keeps no entity history, so it cannot be"
                    + " restored as of a past time; leave AsOf out for a copy as of now, or create tables with "
                    + History.RETENTION_PROPERTY + " to keep one.");
        }
        EdmDateTime earliest = History.horizon(receivedAt, source.historyRetentionSeconds())
                .plusTicks(AS_OF_MARGIN.toSeconds() * EdmDateTime.TICKS_PER_SECOND);
        if (time.compareTo(earliest) < 0 || time.compareTo(receivedAt) > 0) {
            throw TableServiceException.of(ErrorCode.INVALID_INPUT, "AsOf " + time.toIso() + " is outside the table's"
                    + " history retention: it must lie between " + earliest.toIso() + " (the retention's horizon, plus "
                    + AS_OF_MARGIN.toSeconds() + " s for the restore to start) and " + receivedAt.toIso() + ".");
        }
        return time;
    }

    /** 202 Accepted: the job as just recorded, where to follow it, and the session token of its command. */
    private static void accepted(RequestContext request, Context http, JobCommand command, Outcome outcome) {
        CommandHeader h = command.header();
        JobStatus job = JobStatus.running(command.jobId(), h.account(), command.spec(), h.principal(),
                EdmDateTime.ofEpochTicks(h.acceptedAtMillis() * (EdmDateTime.TICKS_PER_SECOND / 1000)), 0);
        ResponseHeaders.standard(http, request);
        http.header(Headers.SESSION_TOKEN, SessionToken.of(outcome.partition(), outcome.offset()).toString());
        http.header("Location", ODataResponses.context(http, request).baseUrl() + "/$jobs/" + command.jobId());
        http.contentType("application/json;charset=utf-8");
        http.status(202);
        http.result(JobJsonWriter.write(job));
    }
}
