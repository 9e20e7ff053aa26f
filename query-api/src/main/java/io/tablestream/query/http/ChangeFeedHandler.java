package io.tablestream.query.http;

import io.javalin.http.Context;
import io.tablestream.core.command.ChangeEvent;
import io.tablestream.core.command.CommandKey;
import io.tablestream.core.command.EntityChange;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.model.TableName;
import io.tablestream.core.model.TableRecord;
import io.tablestream.core.odata.HistoryJsonWriter;
import io.tablestream.core.odata.MetadataLevel;
import io.tablestream.core.odata.ODataContext;
import io.tablestream.core.rules.Keys;
import io.tablestream.protocol.http.ODataResponses;
import io.tablestream.protocol.http.OperationHandler;
import io.tablestream.protocol.http.RequestContext;
import io.tablestream.protocol.http.ResponseHeaders;
import io.tablestream.protocol.http.TableLookup;
import io.tablestream.protocol.request.Operation;
import io.tablestream.protocol.request.ResourcePath;
import io.tablestream.query.feed.ChangeFeed;
import io.tablestream.query.feed.FeedCursor;
import io.tablestream.query.feed.FeedPage;
import io.tablestream.query.feed.FeedStart;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Predicate;
import java.util.stream.IntStream;

/**
 * Read Changes ({@code GET <table>()/$changes}, an extension): the table's change feed — or one
 * PartitionKey's — from a cursor, long-polling when there is nothing new. Every instance answers
 * from the changes topic itself (it holds committed changes only); no request is forwarded.
 *
 * <p>Options: {@code cursor} (a {@code Cursor} an earlier answer returned) or {@code from}
 * ({@code beginning}, {@code now}, or a UTC time); {@code PartitionKey}; {@code $top} (events per
 * answer, 1,000 at most); {@code wait} (seconds an answer waits for a first event: 0, the default,
 * to 20, under the HTTP server's 30 s idle timeout).
 */
public final class ChangeFeedHandler {
    /** The option naming the cursor to read from. */
    public static final String CURSOR = "cursor";
    /** The option naming where a new reader starts. */
    public static final String FROM = "from";
    /** The option naming the seconds an answer may wait for an event. */
    public static final String WAIT = "wait";
    /** The header repeating the answer's cursor. */
    public static final String CURSOR_HEADER = "x-ms-continuation-NextCursor";
    /** The media type that asks for server-sent events. */
    public static final String EVENT_STREAM = "text/event-stream";
    /** The header an event-stream client resumes with: the id (a cursor) of the last message it got. */
    public static final String LAST_EVENT_ID = "Last-Event-ID";
    static final int DEFAULT_TOP = 100;
    static final int MAX_TOP = 1000;
    static final int MAX_WAIT_SECONDS = 20;

    private final TableLookup tables;
    private final ChangeFeed feed;
    private final int recordBudget;
    private final Executor writers;

    private ChangeFeedHandler(TableLookup tables, ChangeFeed feed, int recordBudget, Executor writers) {
        this.tables = tables;
        this.feed = feed;
        this.recordBudget = recordBudget;
        this.writers = writers;
    }

    /**
     * @param recordBudget records of the changes topic one answer examines at most (those of other
     *     tables included): an answer reaching it ends early, possibly empty, with a cursor past them
     * @param writers where the messages of an event stream are written (a client reading slowly holds
     *     one of these threads, never a reader of the feed)
     */
    public static Map<Operation, OperationHandler> create(TableLookup tables, ChangeFeed feed, int recordBudget,
                                                          Executor writers) {
        if (recordBudget < 1) {
            throw new IllegalArgumentException("an answer must examine at least one record, or the feed never advances");
        }
        ChangeFeedHandler h = new ChangeFeedHandler(tables, feed, recordBudget, writers);
        return Map.of(Operation.READ_CHANGES, h::readChanges);
    }

    void readChanges(RequestContext request, Context http) {
        String tableName = ((ResourcePath.EntityChanges) request.resource()).table();
        String cursorToken = request.queryParam(CURSOR);
        String from = request.queryParam(FROM);
        String accept = http.header("Accept");
        boolean stream = accept != null && accept.contains(EVENT_STREAM);
        if (stream && cursorToken == null && from == null) {
            cursorToken = http.header(LAST_EVENT_ID); // an EventSource reconnecting
        }
        FeedCursor given = cursorToken == null ? null : FeedCursor.parse(cursorToken);
        TableRecord table = given == null ? tables.require(request.account(), tableName)
                : deletedTableOf(given, request.account(), tableName)
                        .orElseGet(() -> tables.require(request.account(), tableName));
        String name = table.name().value();
        String partitionKey = request.queryParam("PartitionKey");
        if (partitionKey != null) {
            Keys.validatePartitionKey(partitionKey);
        }
        request.caller().authorize(Operation.READ_CHANGES, name, null, null);
        if (given != null && given.isOver()) {
            throw TableServiceException.of(ErrorCode.TABLE_NOT_FOUND,
                    "The table was deleted: its change feed ended with its TableDeleted event.");
        }
        int top = top(request.queryParam("$top"));
        Duration wait = Duration.ofSeconds(waitSeconds(request.queryParam(WAIT)));
        if ((cursorToken == null) == (from == null)) {
            throw TableServiceException.of(ErrorCode.INVALID_QUERY_PARAMETER_VALUE,
                    "Read the change feed from a cursor (cursor=…, from an earlier answer) or from a start"
                            + " (from=beginning, from=now or from=<UTC time>): one of the two.");
        }
        String tablePrefix = CommandKey.forEntity(request.account(), table.tableId(), "").value();
        List<Integer> partitions;
        Predicate<String> wanted;
        if (partitionKey == null) {
            partitions = IntStream.range(0, feed.partitions()).boxed().toList();
            wanted = key -> key.startsWith(tablePrefix);
        } else {
            String key = CommandKey.forEntity(request.account(), table.tableId(), partitionKey).value();
            int partition = feed.partitionOf(key);
            partitions = List.of(partition);
            // that partition's task also writes the table's deletion there
            String deleted = CommandKey.forTableDeletedEvent(request.account(), table.tableId(), partition).value();
            wanted = k -> k.equals(key) || k.equals(deleted);
        }
        Predicate<ChangeEvent> visible = e -> e.change().type() == EntityChange.Type.PARTITION_DELETED
                ? request.caller().mayReadSomeOf(name, e.change().partitionKey())
                : request.caller().mayRead(name, e.change().partitionKey(), e.change().rowKey());
        CompletableFuture<FeedCursor> start;
        if (given != null) {
            FeedCursor cursor = given;
            if (cursor.tableId() != table.tableId()) {
                throw TableServiceException.of(ErrorCode.INVALID_QUERY_PARAMETER_VALUE,
                        "The cursor is of another table (or of a deleted table of this name).");
            }
            if (!cursor.offsets().keySet().equals(new TreeSet<>(partitions))) {
                throw TableServiceException.of(ErrorCode.INVALID_QUERY_PARAMETER_VALUE, partitionKey == null
                        ? "The cursor is of one PartitionKey's feed: send that PartitionKey with it."
                        : "The cursor is not of this PartitionKey's feed.");
            }
            start = CompletableFuture.completedFuture(cursor);
        } else {
            start = feed.cursorAt(table.tableId(), partitions, FeedStart.parse(from));
        }
        long deadline = System.nanoTime() + wait.toNanos();
        // An event stream's JSON takes its metadata level from $format (none by default), its Accept being the stream's.
        String format = request.queryParam("$format");
        MetadataLevel level = !stream ? ODataResponses.level(request, http)
                : format == null ? MetadataLevel.NO : MetadataLevel.negotiate(format, null);
        ODataContext odata = ODataResponses.context(http, request).withTable(table.name());
        if (stream) {
            ResponseHeaders.standard(http, request);
            http.contentType(EVENT_STREAM);
            http.header("Cache-Control", "no-cache");
            EventStream out = new EventStream(http, odata, level);
            CompletableFuture<Void> streamed = start
                    .thenComposeAsync(cursor -> out.send(new FeedPage(List.of(), cursor, false)), writers)
                    .thenCompose(cursor -> top == 0 ? CompletableFuture.<Void>completedFuture(null)
                            : streamUntil(out, cursor, wanted, visible, top, deadline));
            http.future(() -> streamed);
            return;
        }
        CompletableFuture<FeedPage> page = start.thenCompose(cursor -> top == 0
                ? CompletableFuture.completedFuture(new FeedPage(List.of(), cursor, false))
                : readUntil(cursor, wanted, visible, top, deadline));
        http.future(() -> page.thenAccept(p -> {
            ResponseHeaders.odata(http, request, level.contentType());
            String token = p.next().token();
            http.header(CURSOR_HEADER, token);
            http.result(feedJson(odata, p, level));
        }));
    }

    /**
     * The deleted table a cursor is of, when it is a table of this account by this name that was
     * deleted (its feed is read on to its {@code TableDeleted} event, even after a new table took
     * the name); empty otherwise.
     */
    private Optional<TableRecord> deletedTableOf(FeedCursor cursor, String account, String tableName) {
        if (!TableName.isValid(tableName)) {
            return Optional.empty();
        }
        TableName name = TableName.of(tableName);
        return tables.registry().byId(cursor.tableId())
                .filter(t -> !t.isActive() && t.account().equals(account) && t.name().sameTableAs(name));
    }

    /**
     * Sends pages of events on {@code out} as they come, each once written, until {@code deadline};
     * then ends the stream (an EventSource reconnects from the last message's id).
     */
    private CompletableFuture<Void> streamUntil(EventStream out, FeedCursor cursor, Predicate<String> wanted,
                                                Predicate<ChangeEvent> visible, int top, long deadline) {
        return readUntil(cursor, wanted, visible, top, deadline).thenComposeAsync(page -> {
            CompletableFuture<FeedCursor> sent = page.events().isEmpty()
                    ? CompletableFuture.completedFuture(page.next()) : out.send(page);
            return sent.thenCompose(next -> System.nanoTime() - deadline >= 0
                    ? CompletableFuture.<Void>completedFuture(null)
                    : streamUntil(out, next, wanted, visible, top, deadline));
        }, writers);
    }

    /** An event stream's response: each page one message, {@code id} its cursor, {@code data} the page's JSON on one line. */
    private static final class EventStream {
        private final Context http;
        private final ODataContext odata;
        private final MetadataLevel level;

        EventStream(Context http, ODataContext odata, MetadataLevel level) {
            this.http = http;
            this.odata = odata;
            this.level = level;
        }

        /** Writes {@code page} (on the calling thread, one of the writers) and flushes it; returns its cursor. */
        CompletableFuture<FeedCursor> send(FeedPage page) {
            String token = page.next().token();
            ByteArrayOutputStream message = new ByteArrayOutputStream(1024);
            message.writeBytes(("id: " + token + "\nevent: changes\ndata: ").getBytes(StandardCharsets.UTF_8));
            message.writeBytes(feedJson(odata, page, level));
            message.writeBytes("\n\n".getBytes(StandardCharsets.UTF_8));
            try {
                OutputStream out = http.res().getOutputStream();
                out.write(message.toByteArray());
                out.flush();
            } catch (IOException e) {
                return CompletableFuture.failedFuture(new UncheckedIOException(e)); // the client went away
            }
            return CompletableFuture.completedFuture(page.next());
        }
    }

    private static byte[] feedJson(ODataContext odata, FeedPage page, MetadataLevel level) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(1024);
        try {
            HistoryJsonWriter.writeFeed(out, odata, page.events(), page.next().token(), level);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /**
     * Reads from {@code cursor}; when that finds nothing and the feed is read to its end, waits
     * (without a thread) until the feed grows or the deadline passes, and reads again.
     */
    private CompletableFuture<FeedPage> readUntil(FeedCursor cursor, Predicate<String> wanted,
                                                  Predicate<ChangeEvent> visible, int top, long deadline) {
        return feed.read(cursor, wanted, visible, top, recordBudget).thenCompose(page -> {
            long left = deadline - System.nanoTime();
            if (!page.events().isEmpty() || !page.caughtUp() || left <= 0) {
                return CompletableFuture.completedFuture(page);
            }
            return feed.grown(page.next(), Duration.ofNanos(left))
                    .thenCompose(v -> readUntil(page.next(), wanted, visible, top, deadline));
        });
    }

    private static int top(String value) {
        if (value == null) {
            return DEFAULT_TOP;
        }
        try {
            int top = Integer.parseInt(value.strip());
            if (top >= 0 && top <= MAX_TOP) {
                return top;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw TableServiceException.of(ErrorCode.INVALID_QUERY_PARAMETER_VALUE,
                "$top of the change feed is a number of events from 0 to " + MAX_TOP + ": '" + value + "'.");
    }

    private static int waitSeconds(String value) {
        if (value == null) {
            return 0;
        }
        try {
            int seconds = Integer.parseInt(value.strip());
            if (seconds >= 0 && seconds <= MAX_WAIT_SECONDS) {
                return seconds;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw TableServiceException.of(ErrorCode.INVALID_QUERY_PARAMETER_VALUE,
                "wait is a number of seconds from 0 to " + MAX_WAIT_SECONDS + ": '" + value + "'.");
    }
}
