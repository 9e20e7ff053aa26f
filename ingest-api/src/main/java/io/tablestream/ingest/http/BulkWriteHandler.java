package io.tablestream.ingest.http;

import io.javalin.http.Context;
import io.tablestream.core.command.BulkCommand;
import io.tablestream.core.command.Outcome;
import io.tablestream.core.command.SessionToken;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.odata.BulkResultJsonWriter;
import io.tablestream.core.odata.BulkResultJsonWriter.FailedLine;
import io.tablestream.core.rules.Limits;
import io.tablestream.ingest.command.CommandSubmitter;
import io.tablestream.protocol.http.Headers;
import io.tablestream.protocol.http.Preferences;
import io.tablestream.protocol.http.RequestContentType;
import io.tablestream.protocol.http.RequestContext;
import io.tablestream.protocol.request.ResourcePath;
import io.tablestream.protocol.http.ResponseHeaders;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

/**
 * Bulk Write ({@code POST <table>()/$bulk}, an extension): up to
 * {@value Limits#MAX_BULK_ENTITIES} entities, one per line of an {@code application/x-ndjson} body
 * of at most {@value Limits#MAX_BULK_BODY_BYTES} bytes, on any PartitionKeys, planned by the
 * {@link EntityWritePlanner} into commands of bounded size, one or more per partition of the log
 * (never one per entity), all appended at once. Not a transaction: each entity is written or fails
 * on its own. Answered {@code 200} once every command's outcome is in, or, with
 * {@code Prefer: respond-async}, {@code 202} once every command is in the log; either way with
 * {@code {"Entities":<accepted>,"Failed":[{"Line":n,"Code":"…","Message":"…"}]}} and the session
 * token of the commands (the highest offset on each partition).
 */
final class BulkWriteHandler {
    private static final String JSON = "application/json;charset=utf-8";

    private final CommandSubmitter submitter;
    private final EntityWritePlanner planner;
    private final Executor responders;

    BulkWriteHandler(CommandSubmitter submitter, EntityWritePlanner planner, Executor responders) {
        this.submitter = submitter;
        this.planner = planner;
        this.responders = responders;
    }

    void handle(RequestContext request, Context http) {
        String table = ((ResourcePath.EntityBulk) request.resource()).table();
        BulkMode mode = BulkMode.parse(request.queryParam(BulkMode.PARAMETER));
        RequestContentType.requireNdjson(http.header("Content-Type"));
        boolean async = Preferences.parse(Collections.list(http.req().getHeaders(Headers.PREFER))).respondAsync();
        byte[] body = readBody(http);
        EntityWritePlanner.BulkWrite bulk = planner.bulk(request.account(), request.caller(), table, mode, body,
                !async);
        List<CompletableFuture<Result>> results = new ArrayList<>(bulk.commands().size());
        for (int i = 0; i < bulk.commands().size(); i++) {
            BulkCommand command = bulk.commands().get(i);
            int[] lines = bulk.lines().get(i);
            results.add(async
                    ? submitter.submitAsync(command).handle((position, error) -> Result.of(position, error, lines))
                    : submitter.submit(command).handle((outcome, error) -> Result.of(outcome, error, lines)));
        }
        http.future(() -> CompletableFuture.allOf(results.toArray(CompletableFuture[]::new)).thenAcceptAsync(x -> {
            List<FailedLine> failed = new ArrayList<>(bulk.refused());
            Map<Integer, Long> positions = new TreeMap<>();
            for (CompletableFuture<Result> r : results) {
                Result result = r.join();
                failed.addAll(result.failed());
                if (result.position() != null) {
                    positions.merge(result.position().partition(), result.position().offset(), Math::max);
                }
            }
            failed.sort(Comparator.comparingInt(FailedLine::line));
            ResponseHeaders.standard(http, request);
            if (!positions.isEmpty() && positions.size() <= SessionToken.MAX_POSITIONS) {
                List<SessionToken.Position> token = new ArrayList<>(positions.size());
                positions.forEach((p, o) -> token.add(new SessionToken.Position(p, o)));
                http.header(Headers.SESSION_TOKEN, new SessionToken(token).toString());
            }
            if (async) {
                http.header(Headers.PREFERENCE_APPLIED, Preferences.RESPOND_ASYNC);
            }
            http.status(async ? 202 : 200);
            http.contentType(JSON);
            http.result(answer(bulk.entities() - failed.size(), failed));
        }, responders));
    }

    /**
     * What became of one command's lines: those that failed, and where the command is in the log
     * (null when it did not get there).
     */
    private record Result(List<FailedLine> failed, SessionToken.Position position) {
        /** An awaited command: its writes that failed, or all of them with the command's own failure. */
        static Result of(Outcome outcome, Throwable error, int[] lines) {
            if (error != null) {
                return everyLine(error, lines);
            }
            List<FailedLine> failed = new ArrayList<>(outcome.operationFailures().size());
            for (Outcome.Failure f : outcome.operationFailures()) {
                failed.add(new FailedLine(lines[f.operationIndex()], f.code(), f.message()));
            }
            return new Result(failed, new SessionToken.Position(outcome.partition(), outcome.offset()));
        }

        /** A command appended without waiting for its outcome. */
        static Result of(SessionToken.Position position, Throwable error, int[] lines) {
            return error != null ? everyLine(error, lines) : new Result(List.of(), position);
        }

        /**
         * A command that failed as a whole (the table gone, the log unreachable, no outcome in time):
         * every line of it fails with that error. An upsert may have been applied even so (a timeout
         * says nothing of the log), and may be sent again.
         */
        private static Result everyLine(Throwable error, int[] lines) {
            Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
            ErrorCode code = cause instanceof TableServiceException e ? e.errorCode() : ErrorCode.INTERNAL_ERROR;
            String message = cause instanceof TableServiceException e ? e.getMessage() : code.defaultMessage();
            List<FailedLine> failed = new ArrayList<>(lines.length);
            for (int line : lines) {
                failed.add(new FailedLine(line, code, message));
            }
            return new Result(failed, null);
        }
    }

    /**
     * The request body, read here rather than by the HTTP server's whole-body reader, whose limit is
     * that of every other request; at most {@value Limits#MAX_BULK_BODY_BYTES} bytes (413 when more
     * arrive: a declared length over it was refused before).
     */
    private static byte[] readBody(Context http) {
        long declared = http.req().getContentLengthLong();
        ByteArrayOutputStream out = new ByteArrayOutputStream(declared > 0 ? (int) declared : 64 * 1024);
        byte[] buffer = new byte[64 * 1024];
        try (InputStream in = http.req().getInputStream()) {
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                if (out.size() + n > Limits.MAX_BULK_BODY_BYTES) {
                    throw TableServiceException.of(ErrorCode.REQUEST_BODY_TOO_LARGE, "A bulk write's body is at most "
                            + Limits.MAX_BULK_BODY_BYTES + " bytes.");
                }
                out.write(buffer, 0, n);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static byte[] answer(long accepted, List<FailedLine> failed) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(64 + 96 * failed.size());
        try {
            BulkResultJsonWriter.write(out, accepted, failed);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
