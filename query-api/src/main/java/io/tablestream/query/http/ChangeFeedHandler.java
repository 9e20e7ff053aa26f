package io.tablestream.query.http;

import io.javalin.http.Context;
import io.tablestream.core.codec.HistoryJsonWriter;
import io.tablestream.core.codec.MetadataLevel;
import io.tablestream.core.codec.ODataContext;
import io.tablestream.core.command.ChangeEvent;
import io.tablestream.core.command.CommandKey;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.model.TableRecord;
import io.tablestream.core.rules.Keys;
import io.tablestream.protocol.http.ODataResponses;
import io.tablestream.protocol.http.Operation;
import io.tablestream.protocol.http.OperationHandler;
import io.tablestream.protocol.http.RequestContext;
import io.tablestream.protocol.http.ResourcePath;
import io.tablestream.protocol.http.ResponseHeaders;
import io.tablestream.protocol.http.TableLookup;
import io.tablestream.query.feed.ChangeFeed;
import io.tablestream.query.feed.FeedCursor;
import io.tablestream.query.feed.FeedPage;
import io.tablestream.query.feed.FeedStart;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
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
    static final int DEFAULT_TOP = 100;
    static final int MAX_TOP = 1000;
    static final int MAX_WAIT_SECONDS = 20;

    private final TableLookup tables;
    private final ChangeFeed feed;
    private final int recordBudget;

    private ChangeFeedHandler(TableLookup tables, ChangeFeed feed, int recordBudget) {
        this.tables = tables;
        this.feed = feed;
        this.recordBudget = recordBudget;
    }

    /**
     * @param recordBudget records of the changes topic one answer examines at most (those of other
     *     tables included): an answer reaching it ends early, possibly empty, with a cursor past them
     */
    public static Map<Operation, OperationHandler> create(TableLookup tables, ChangeFeed feed, int recordBudget) {
        if (recordBudget < 1) {
            throw new IllegalArgumentException("an answer must examine at least one record, or the feed never advances");
        }
        ChangeFeedHandler h = new ChangeFeedHandler(tables, feed, recordBudget);
        return Map.of(Operation.READ_CHANGES, h::readChanges);
    }

    void readChanges(RequestContext request, Context http) {
        String tableName = ((ResourcePath.EntityChanges) request.resource()).table();
        TableRecord table = tables.require(request.account(), tableName);
        String name = table.name().value();
        String partitionKey = http.queryParam("PartitionKey");
        if (partitionKey != null) {
            Keys.validatePartitionKey(partitionKey);
        }
        request.caller().authorize(Operation.READ_CHANGES, name, null, null);
        int top = top(http.queryParam("$top"));
        Duration wait = Duration.ofSeconds(waitSeconds(http.queryParam(WAIT)));
        String cursorToken = http.queryParam(CURSOR);
        String from = http.queryParam(FROM);
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
            partitions = List.of(feed.partitionOf(key));
            wanted = key::equals;
        }
        Predicate<ChangeEvent> visible = e -> request.caller().mayRead(name, e.change().partitionKey(),
                e.change().rowKey());
        CompletableFuture<FeedCursor> start;
        if (cursorToken != null) {
            FeedCursor cursor = FeedCursor.parse(cursorToken);
            if (cursor.tableId() != table.tableId()) {
                throw TableServiceException.of(ErrorCode.INVALID_QUERY_PARAMETER_VALUE,
                        "The cursor is of another table (or of a deleted table of this name).");
            }
            if (!cursor.offsets().keySet().equals(new java.util.TreeSet<>(partitions))) {
                throw TableServiceException.of(ErrorCode.INVALID_QUERY_PARAMETER_VALUE, partitionKey == null
                        ? "The cursor is of one PartitionKey's feed: send that PartitionKey with it."
                        : "The cursor is not of this PartitionKey's feed.");
            }
            start = CompletableFuture.completedFuture(cursor);
        } else {
            start = feed.cursorAt(table.tableId(), partitions, FeedStart.parse(from));
        }
        long deadline = System.nanoTime() + wait.toNanos();
        CompletableFuture<FeedPage> page = start.thenCompose(cursor -> top == 0
                ? CompletableFuture.completedFuture(new FeedPage(List.of(), cursor, false))
                : readUntil(cursor, wanted, visible, top, deadline));
        MetadataLevel level = ODataResponses.level(http);
        ODataContext odata = ODataResponses.context(http, request).withTable(table.name());
        http.future(() -> page.thenAccept(p -> {
            ResponseHeaders.odata(http, request, level.contentType());
            String token = p.next().token();
            http.header(CURSOR_HEADER, token);
            ByteArrayOutputStream out = new ByteArrayOutputStream(1024);
            try {
                HistoryJsonWriter.writeFeed(out, odata, p.events(), token, level);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            http.result(out.toByteArray());
        }));
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
