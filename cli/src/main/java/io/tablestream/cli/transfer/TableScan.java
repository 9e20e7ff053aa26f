package io.tablestream.cli.transfer;

import io.tablestream.client.Continuation;
import io.tablestream.client.TableServiceHttp;
import io.tablestream.client.TableServiceHttp.Answer;
import io.tablestream.client.TableServiceHttp.PageHead;
import io.tablestream.client.TableServiceHttp.PageRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Reads the entities of a table or a query page by page, over one or more PartitionKey ranges at
 * once (a thread each). Within a range, the next page is asked for as soon as the current page's
 * headers name it, while its body is still arriving and being handled: the service and the client
 * work at the same time. A page the service could not serve for a moment (503, a timeout, a lost
 * connection) is asked for again, up to {@value #ATTEMPTS} times with a growing pause; any other
 * refusal ends the scan with the service's message.
 */
public final class TableScan {
    static final int ATTEMPTS = 10;

    /** Receives each page's body, in order within a range, from the range's thread. */
    public interface PageSink {
        /**
         * @param range the range's index
         * @param next where the range continues after this page; null when this was its last page
         */
        void accept(int range, byte[] page, Continuation next) throws Exception;
    }

    /** Where a range starts or resumes: from its beginning, at a continuation, or nowhere (done). */
    public record Position(boolean done, Continuation continuation) {
        public static final Position START = new Position(false, null);
        public static final Position DONE = new Position(true, null);

        public static Position at(Continuation continuation) {
            return continuation == null ? DONE : new Position(false, continuation);
        }
    }

    private final TableServiceHttp http;
    private final String table;
    private final String select;
    private final List<String> filters;
    private final String asOf;

    /** @param filters one per range: the range's complete {@code $filter} (null: the whole table) */
    public TableScan(TableServiceHttp http, String table, String select, List<String> filters) {
        this(http, table, select, filters, null);
    }

    /** As {@link #TableScan(TableServiceHttp, String, String, List)}, the table as it was at {@code asOf} (null: now). */
    public TableScan(TableServiceHttp http, String table, String select, List<String> filters, String asOf) {
        this.http = http;
        this.table = table;
        this.select = select;
        this.filters = java.util.Collections.unmodifiableList(new ArrayList<>(filters));
        this.asOf = asOf;
    }

    /**
     * Checks, before any transfer starts, that the service answers and has the table: a
     * {@link TransferException} in words otherwise (a missing table, an unknown host, nothing
     * listening), without the retries a transfer makes.
     */
    public static void requireTable(TableServiceHttp http, String table) throws InterruptedException {
        TableServiceHttp.Answer answer;
        try {
            answer = http.getTable(table).get();
        } catch (ExecutionException e) {
            throw new TransferException(CallFailure.describe(e.getCause(), http.account().endpoint()), e.getCause());
        }
        if (!answer.succeeded()) {
            throw new TransferException(http.refusal(table, answer));
        }
    }

    public int ranges() {
        return filters.size();
    }

    /** Reads every range from {@code from} (one position per range) into {@code sink}; returns when all are done. */
    public void run(List<Position> from, PageSink sink) throws Exception {
        AtomicReference<Exception> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < filters.size(); i++) {
            Position start = from.get(i);
            if (start.done()) {
                continue;
            }
            int range = i;
            Thread t = new Thread(() -> {
                try {
                    scan(range, start.continuation(), sink);
                } catch (Exception e) {
                    failure.compareAndSet(null, e);
                }
            }, "scan-" + i);
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            while (t.isAlive()) {
                t.join(100);
                if (failure.get() != null) {
                    threads.forEach(Thread::interrupt);
                    throw failure.get();
                }
            }
        }
        if (failure.get() != null) {
            throw failure.get();
        }
    }

    private void scan(int range, Continuation from, PageSink sink) throws Exception {
        Continuation at = from;
        PageRequest current = request(range, at);
        int attempt = 0;
        while (true) {
            PageRequest following = null;
            try {
                PageHead head = current.head().get();
                if (head.status() != 200) {
                    Answer refused = current.answer().get();
                    if (!TableServiceHttp.retriable(head.status()) || ++attempt >= ATTEMPTS) {
                        throw new TransferException("The service refused a page of " + table + ": "
                                + http.refusal(table, refused));
                    }
                    pause(attempt);
                    current = request(range, at);
                    continue;
                }
                Continuation next = head.next();
                following = next == null ? null : request(range, next);
                Answer answer = current.answer().get();
                sink.accept(range, answer.body(), next);
                attempt = 0;
                if (next == null) {
                    return;
                }
                at = next;
                current = following;
            } catch (ExecutionException e) {
                if (!TableServiceHttp.retriable(e.getCause()) || ++attempt >= ATTEMPTS) {
                    throw new TransferException("Reading " + table + " failed: "
                            + CallFailure.describe(e.getCause(), http.account().endpoint()), e.getCause());
                }
                if (following != null) {
                    following.answer().cancel(true);
                }
                pause(attempt);
                current = request(range, at);
            }
        }
    }

    private PageRequest request(int range, Continuation at) {
        return http.queryEntities(table, filters.get(range), select, null, asOf, at);
    }

    private static void pause(int attempt) throws InterruptedException {
        TimeUnit.MILLISECONDS.sleep(Math.min(10_000, 200L << Math.min(attempt, 6)));
    }

    /**
     * The {@code $filter} of each range: {@code filter} (null: none) restricted to PartitionKeys
     * below the first split point, between each two, and from the last one on. No split points: one
     * range, {@code filter} itself.
     */
    public static List<String> rangeFilters(String filter, List<String> splitPoints) {
        List<String> sorted = splitPoints.stream().distinct().sorted().toList();
        List<String> filters = new ArrayList<>();
        for (int i = 0; i <= sorted.size(); i++) {
            List<String> terms = new ArrayList<>();
            boolean alone = sorted.isEmpty();
            if (filter != null && !filter.isBlank()) {
                // alone, the filter is sent as typed, so that the service's error positions are the user's
                terms.add(alone ? filter : "(" + filter + ")");
            }
            if (i > 0) {
                terms.add("PartitionKey ge " + literal(sorted.get(i - 1)));
            }
            if (i < sorted.size()) {
                terms.add("PartitionKey lt " + literal(sorted.get(i)));
            }
            filters.add(terms.isEmpty() ? null : String.join(" and ", terms));
        }
        return filters;
    }

    private static String literal(String s) {
        return "'" + s.replace("'", "''") + "'";
    }
}
