package io.tablestream.query.http;

import io.javalin.http.Context;
import io.tablestream.core.command.CommandKey;
import io.tablestream.core.command.JobStatus;
import io.tablestream.core.continuation.TableContinuation;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.filter.Filter;
import io.tablestream.core.filter.KeyRange;
import io.tablestream.core.filter.OrderBy;
import io.tablestream.core.filter.Select;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.EdmString;
import io.tablestream.core.model.Entity;
import io.tablestream.core.model.EntityKey;
import io.tablestream.core.model.TableName;
import io.tablestream.core.model.TableRecord;
import io.tablestream.core.odata.EntityFeedWriter;
import io.tablestream.core.odata.EntityJsonWriter;
import io.tablestream.core.odata.HistoryJsonWriter;
import io.tablestream.core.odata.JobJsonWriter;
import io.tablestream.core.odata.MetadataLevel;
import io.tablestream.core.odata.ODataContext;
import io.tablestream.core.odata.TableFeedWriter;
import io.tablestream.core.odata.TableJsonWriter;
import io.tablestream.core.registry.TableRegistry;
import io.tablestream.core.rules.History;
import io.tablestream.processor.store.AppliedOffsets;
import io.tablestream.processor.store.EntityStore;
import io.tablestream.processor.store.StoreReplica;
import io.tablestream.protocol.http.Headers;
import io.tablestream.protocol.http.ODataResponses;
import io.tablestream.protocol.http.OperationHandler;
import io.tablestream.protocol.http.RequestContext;
import io.tablestream.protocol.http.ResponseHeaders;
import io.tablestream.protocol.http.TableLookup;
import io.tablestream.protocol.request.Operation;
import io.tablestream.protocol.request.ResourcePath;
import io.tablestream.protocol.xml.ServicePropertiesXml;
import io.tablestream.protocol.xml.ServiceStatsXml;
import io.tablestream.protocol.xml.SignedIdentifiersXml;
import io.tablestream.query.plan.EntityQuery;
import io.tablestream.query.plan.HistoryPage;
import io.tablestream.query.plan.Page;
import io.tablestream.query.plan.PageMerge;
import io.tablestream.query.plan.PageReader;
import io.tablestream.query.plan.PartialPages;
import io.tablestream.query.plan.PointInTime;
import io.tablestream.query.routing.Instance;
import io.tablestream.query.routing.InstanceClient;
import io.tablestream.query.routing.KeyLocator;
import io.tablestream.query.routing.Placement;
import io.tablestream.query.routing.Replica;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The read side: Query Tables, Get Entity, Query Entities, Get Table ACL, Get Table Service
 * Properties (the last two from the registry, which every instance holds) and Get Table Service
 * Stats. Every instance answers
 * every read: a point read or a single-partition query is served from this instance's copy of the
 * partition or forwarded to the instance holding it ({@link ReplicaRouting}); a query over several
 * partitions is scatter-gathered — each instance holding some of the partitions reads them from the
 * same resume point, within its share of the row budget, and this instance merges the partial pages
 * ({@link PageMerge}). A read carrying a session token is served by active copies only, each first
 * waiting, without blocking a request thread, until the writes it names are applied.
 *
 * <p>A request another instance forwarded ({@link Headers#FORWARDED}) is served here or refused
 * with {@link Headers#REPLICA_UNAVAILABLE}, never forwarded again; with {@link Headers#READ_PARTITIONS}
 * it is a scatter-gather's partial read, answered in {@link PartialPages}' format.
 */
public final class ReadHandlers {
    /** The content type of the ACL and service-properties documents. */
    private static final String XML = "application/xml";
    private static final String STANDBY = "standby";
    /** What a count answers: the number alone, as OData's {@code $count} segment. */
    private static final String COUNT_CONTENT_TYPE = "text/plain;charset=utf-8";

    private final TableRegistry registry;
    private final TableLookup tables;
    private final EntityStore store;
    private final KeyLocator locator;
    private final ReplicaRouting routing;
    private final PageReader pages;
    private final SessionWait sessions;
    private final Duration sessionTimeout;
    private final int rowBudget;
    private final int tableScanBudget;
    private final Executor readers;

    private ReadHandlers(TableRegistry registry, EntityStore store, KeyLocator locator, InstanceClient instances,
                         AppliedOffsets applied, CommandLogEnds ends, Duration sessionTimeout, QueryBudgets budgets,
                         Executor readers) {
        this.registry = registry;
        this.tables = new TableLookup(registry);
        this.store = store;
        this.locator = locator;
        this.routing = new ReplicaRouting(locator, instances);
        this.pages = new PageReader(store, budgets.pageBytes());
        this.sessions = new SessionWait(applied, ends, sessionTimeout);
        this.sessionTimeout = sessionTimeout;
        this.rowBudget = budgets.rowBudget();
        this.tableScanBudget = budgets.tableScanBudget();
        this.readers = readers;
    }

    /**
     * @param instances how this instance reads from the others
     * @param ends where the command log ends: a session token past it is refused at once
     * @param sessionTimeout how long a read waits for the writes its session token names
     * @param budgets how much one page may examine and hold before it ends with a continuation
     * @param readers where reads that had to wait run (never on the thread that ended the wait)
     */
    public static Map<Operation, OperationHandler> create(TableRegistry registry, EntityStore store, KeyLocator locator,
                                                          InstanceClient instances, AppliedOffsets applied,
                                                          CommandLogEnds ends, Duration sessionTimeout,
                                                          QueryBudgets budgets, Executor readers) {
        ReadHandlers h = new ReadHandlers(registry, store, locator, instances, applied, ends, sessionTimeout,
                budgets, readers);
        Map<Operation, OperationHandler> handlers = new EnumMap<>(Operation.class);
        handlers.put(Operation.QUERY_TABLES, h::queryTables);
        handlers.put(Operation.GET_ENTITY, h::getEntity);
        handlers.put(Operation.GET_ENTITY_HISTORY, h::getEntityHistory);
        handlers.put(Operation.QUERY_ENTITIES, h::queryEntities);
        handlers.put(Operation.COUNT_ENTITIES, h::countEntities);
        handlers.put(Operation.GET_TABLE_ACL, h::getTableAcl);
        handlers.put(Operation.LIST_INDEXES, new IndexStatus(h.tables, store, locator)::list);
        handlers.put(Operation.GET_TRANSACTION, h::getTransaction);
        handlers.put(Operation.GET_JOB, h::getJob);
        handlers.put(Operation.LIST_JOBS, h::listJobs);
        handlers.put(Operation.GET_SERVICE_PROPERTIES, h::getServiceProperties);
        handlers.put(Operation.GET_SERVICE_STATS, h::getServiceStats);
        return handlers;
    }

    void queryTables(RequestContext request, Context http) {
        request.caller().authorize(Operation.QUERY_TABLES, null, null, null);
        MetadataLevel level = ODataResponses.level(http);
        ODataContext odata = ODataResponses.context(http, request);
        if (request.resource() instanceof ResourcePath.TableItem item) {
            TableRecord table = tables.require(request.account(), item.name());
            ResponseHeaders.odata(http, request, level.contentType());
            http.result(write(out -> TableJsonWriter.writeTable(out, odata, table, level)));
            return;
        }
        Filter filter = Filter.parse(http.queryParam("$filter"));
        int top = EntityQuery.top(http.queryParam("$top"));
        String from = TableContinuation.fromQuery(http.queryParam(TableContinuation.NEXT_TABLE_NAME))
                .map(c -> c.tableName().key()).orElse(null);
        List<TableRecord> page = new java.util.ArrayList<>();
        TableName next = null;
        int examined = 0;
        scan:
        while (top > 0) {
            List<TableRecord> chunk = registry.list(request.account(), from, 256);
            for (TableRecord t : chunk) {
                if (page.size() >= top || examined >= tableScanBudget) {
                    next = t.name();
                    break scan;
                }
                examined++;
                EdmString name = EdmString.of(t.name().value());
                if (filter.test(property -> "TableName".equals(property) ? name : null)) {
                    page.add(t);
                }
            }
            if (chunk.size() < 256) {
                break;
            }
            from = chunk.get(chunk.size() - 1).name().key() + "\u0000";
        }
        ResponseHeaders.odata(http, request, level.contentType());
        if (next != null) {
            http.header(Headers.CONTINUATION_NEXT_TABLE_NAME, TableContinuation.at(next).nextTableNameToken());
        }
        http.result(write(out -> {
            TableFeedWriter feed = TableFeedWriter.begin(out, odata, level);
            for (TableRecord table : page) {
                feed.write(table);
            }
            feed.finish();
        }));
    }

    void getEntity(RequestContext request, Context http) {
        ResourcePath.EntityItem item = (ResourcePath.EntityItem) request.resource();
        TableRecord table = tables.require(request.account(), item.table());
        request.caller().authorize(Operation.GET_ENTITY, table.name().value(), item.partitionKey(), item.rowKey());
        Select select = Select.parse(http.queryParam("$select"));
        MetadataLevel level = ODataResponses.level(http);
        ODataContext odata = ODataResponses.context(http, request).withTable(table.name());
        CommandKey key = CommandKey.forEntity(request.account(), table.tableId(), item.partitionKey());
        int partition = locator.partitionOf(key);
        EntityKey entityKey = EntityKey.of(table.tableId(), item.partitionKey(), item.rowKey());
        String token = http.header(Headers.SESSION_TOKEN);
        Optional<EdmDateTime> asOf = asOf(request, http, table);
        ReplicaRouting.LocalRead local = replica -> readHere(List.of(partition), replica, token,
                copies -> asOf.isPresent()
                        ? store.getAsOf(copies.apply(partition), partition, entityKey, asOf.get())
                        : store.get(copies.apply(partition), partition, entityKey)).thenAccept(found -> {
                    Entity entity = found.orElseThrow(() -> TableServiceException.of(ErrorCode.RESOURCE_NOT_FOUND))
                            .entity();
                    ResponseHeaders.odata(http, request, level.contentType());
                    http.header(Headers.ETAG, entity.etag().value());
                    http.result(write(out -> EntityJsonWriter.writeEntity(out, odata, entity, level, select)));
                });
        respond(request, http, List.of(partition), token, () -> locator.locate(key), local);
    }

    /**
     * Get Entity History ({@code GET <table>(PartitionKey='p',RowKey='r')/$history}, an extension):
     * the entity's versions within the table's retention, newest first, at most {@code $top} (1,000
     * by default) per page; {@code x-ms-continuation-NextVersion} names the time of the next older
     * one, passed back as {@code NextVersion}. Routed like Get Entity (read where the partition is).
     */
    void getEntityHistory(RequestContext request, Context http) {
        ResourcePath.EntityHistory item = (ResourcePath.EntityHistory) request.resource();
        TableRecord table = tables.require(request.account(), item.table());
        request.caller().authorize(Operation.GET_ENTITY_HISTORY, table.name().value(), item.partitionKey(),
                item.rowKey());
        if (!table.keepsHistory()) {
            throw TableServiceException.of(ErrorCode.RESOURCE_NOT_FOUND, "The table keeps no entity history: create"
                    + " it with " + History.RETENTION_PROPERTY + " in the Create Table body to keep one.");
        }
        int top = EntityQuery.top(http.queryParam("$top"));
        EdmDateTime from = HistoryPage.resumeAt(http.queryParam(HistoryPage.NEXT_VERSION));
        MetadataLevel level = ODataResponses.level(http);
        ODataContext odata = ODataResponses.context(http, request).withTable(table.name());
        CommandKey key = CommandKey.forEntity(request.account(), table.tableId(), item.partitionKey());
        int partition = locator.partitionOf(key);
        EntityKey entityKey = EntityKey.of(table.tableId(), item.partitionKey(), item.rowKey());
        String token = http.header(Headers.SESSION_TOKEN);
        EdmDateTime horizon = History.horizon(EdmDateTime.of(request.receivedAt()), table.historyRetentionSeconds());
        ReplicaRouting.LocalRead local = replica -> readHere(List.of(partition), replica, token,
                copies -> HistoryPage.read(store, copies.apply(partition), partition, entityKey, from, horizon, top))
                .thenAccept(page -> {
                    ResponseHeaders.odata(http, request, level.contentType());
                    page.next().ifPresent(next -> http.header(HistoryPage.CONTINUATION_NEXT_VERSION,
                            Long.toString(next.epochTicks())));
                    http.result(write(out -> HistoryJsonWriter.write(out, odata, page.versions(), level)));
                });
        respond(request, http, List.of(partition), token, () -> locator.locate(key), local);
    }

    /**
     * A cross-partition transaction's status (an extension), from its coordinator's partition, routed
     * like a point read. With the session token of the submission it waits until the coordinator
     * has recorded the transaction; without, a transaction not recorded yet is 404 TransactionNotFound.
     */
    void getTransaction(RequestContext request, Context http) {
        request.caller().authorize(Operation.GET_TRANSACTION, null, null, null);
        String id = ((ResourcePath.TransactionItem) request.resource()).transactionId();
        readOnePartition(request, http, CommandKey.forTransaction(request.account(), id),
                (replica, partition) -> store.transaction(replica, partition, request.account(), id),
                found -> TransactionStatusJson.write(found.orElseThrow(() ->
                        TableServiceException.of(ErrorCode.TRANSACTION_NOT_FOUND))));
    }

    /**
     * A job's status (an extension), from its coordinator's partition (the account's), routed like a
     * point read; authorized once read, against the job's table (a service SAS for that table may read it).
     */
    void getJob(RequestContext request, Context http) {
        String id = ((ResourcePath.JobItem) request.resource()).jobId();
        readOnePartition(request, http, CommandKey.forAccount(request.account()),
                (replica, partition) -> store.job(replica, partition, request.account(), id), found -> {
                    JobStatus job = found.orElseThrow(() -> TableServiceException.of(ErrorCode.JOB_NOT_FOUND));
                    request.caller().authorize(Operation.GET_JOB, job.table(), null, null);
                    return JobJsonWriter.write(job);
                });
    }

    /** The account's jobs (an extension), newest first: the running ones and the recently finished. */
    void listJobs(RequestContext request, Context http) {
        request.caller().authorize(Operation.LIST_JOBS, null, null, null);
        readOnePartition(request, http, CommandKey.forAccount(request.account()),
                (replica, partition) -> store.jobs(replica, partition, request.account()), jobs -> {
                    List<JobStatus> newest = new ArrayList<>(jobs);
                    newest.sort(Comparator.comparing((JobStatus j) -> j.startedAt()).reversed()
                            .thenComparing(JobStatus::jobId));
                    return write(out -> JobJsonWriter.writeList(out, newest));
                });
    }

    /**
     * Reads what the task owning {@code key} keeps (a transaction's or a job's status), wherever its
     * partition is served, routed like a point read; with the session token of the submission it waits
     * until that task has recorded it. Answers with the JSON {@code body} makes of what was read.
     */
    private <T> void readOnePartition(RequestContext request, Context http, CommandKey key,
                                      BiFunction<StoreReplica, Integer, T> read, Function<T, byte[]> body) {
        int partition = locator.partitionOf(key);
        String token = http.header(Headers.SESSION_TOKEN);
        ReplicaRouting.LocalRead local = replica -> readHere(List.of(partition), replica, token,
                copies -> read.apply(copies.apply(partition), partition))
                .thenAccept(found -> {
                    byte[] json = body.apply(found);
                    ResponseHeaders.standard(http, request);
                    http.contentType("application/json;charset=utf-8");
                    http.result(json);
                });
        respond(request, http, List.of(partition), token, () -> locator.locate(key), local);
    }

    void queryEntities(RequestContext request, Context http) {
        String tableName = ((ResourcePath.EntityCollection) request.resource()).table();
        TableRecord table = tables.require(request.account(), tableName);
        request.caller().authorize(Operation.QUERY_ENTITIES, table.name().value(), null, null);
        EntityQuery asked = EntityQuery.of(http.queryParam("$filter"), http.queryParam("$select"),
                http.queryParam("$top"), http.queryParam(OrderBy.PARAMETER), http.queryParam("NextPartitionKey"),
                http.queryParam("NextRowKey"), request.caller().readableKeys(table.name().value()));
        EntityQuery query = asked.onTable(table.indexes(), asOf(request, http, table));
        query.indexName().ifPresent(name -> http.header(Headers.INDEX, name));
        MetadataLevel level = ODataResponses.level(http);
        ODataContext odata = ODataResponses.context(http, request).withTable(table.name());
        read(request, http, table, query, page -> writeFeed(request, http, level, odata, query, page));
    }

    /**
     * Count Entities ({@code GET <table>()/$count?$filter=…}, an extension): the number of matching
     * entities as plain text, read like a Query Entities page of keys only — routed, scatter-gathered
     * and bounded by the same row budget; when the budget runs out the answer counts the matches
     * before the continuation it carries, and the client adds up the counts of every continuation.
     */
    void countEntities(RequestContext request, Context http) {
        String tableName = ((ResourcePath.EntityCount) request.resource()).table();
        TableRecord table = tables.require(request.account(), tableName);
        request.caller().authorize(Operation.COUNT_ENTITIES, table.name().value(), null, null);
        for (String option : List.of("$top", "$select", OrderBy.PARAMETER)) {
            if (http.queryParam(option) != null) {
                throw TableServiceException.of(ErrorCode.INVALID_QUERY_PARAMETER_VALUE,
                        "A count takes $filter (and a continuation) only, not " + option + ".");
            }
        }
        EntityQuery counted = EntityQuery.count(http.queryParam("$filter"), http.queryParam("NextPartitionKey"),
                http.queryParam("NextRowKey"), request.caller().readableKeys(table.name().value()));
        EntityQuery query = asOf(request, http, table).map(counted::asOf).orElse(counted);
        read(request, http, table, query, page -> {
            ResponseHeaders.standard(http, request);
            continuationHeaders(http, page);
            http.contentType(COUNT_CONTENT_TYPE);
            http.result(Integer.toString(page.entities().size()));
        });
    }

    /**
     * Reads a page of {@code query} where its partitions are: here or forwarded for one partition,
     * scatter-gathered for several, or — for a request another instance forwarded naming its
     * partitions — a partial page answered in {@link PartialPages}' format.
     */
    private void read(RequestContext request, Context http, TableRecord table, EntityQuery query,
                      Consumer<Page> answer) {
        String name = table.name().value();
        Predicate<Entity> visible = e -> request.caller().mayRead(name, e.partitionKey(), e.rowKey());
        long tableId = table.tableId();
        String token = http.header(Headers.SESSION_TOKEN);

        String forwarded = http.header(Headers.FORWARDED);
        if (forwarded != null && http.header(Headers.READ_PARTITIONS) != null) {
            List<Integer> partitions = requestedPartitions(http.header(Headers.READ_PARTITIONS));
            int budget = Math.min(rowBudget, requestedBudget(http.header(Headers.ROW_BUDGET)));
            boolean standbyAllowed = STANDBY.equals(forwarded) && token == null;
            complete(http, refusedHereWhenUnavailable(http, partitions,
                    readPage(tableId, query, visible, partitions, standbyAllowed, token, budget).thenAccept(page -> {
                        ResponseHeaders.standard(http, request);
                        http.contentType(PartialPages.CONTENT_TYPE);
                        http.result(PartialPages.encode(page));
                    })));
            return;
        }
        if (query.keys().kind() == KeyRange.Kind.EMPTY) {
            answer.accept(new Page(List.of(), Optional.empty()));
            return;
        }
        String partitionKey = query.keys().singlePartitionKey();
        if (partitionKey != null) {
            CommandKey key = CommandKey.forEntity(request.account(), tableId, partitionKey);
            int partition = locator.partitionOf(key);
            respond(request, http, List.of(partition), token, () -> locator.locate(key),
                    replica -> readPage(tableId, query, visible, List.of(partition),
                            replica == StoreReplica.ACTIVE_OR_STANDBY, token, rowBudget).thenAccept(answer));
            return;
        }
        if (forwarded != null) {
            // Only a client sends this header on a scan (the router never does): it gets what this
            // instance holds of every partition, or a refusal.
            List<Integer> all = IntStream.range(0, locator.partitions()).boxed().toList();
            respond(request, http, all, token, () -> new Placement(-1, List.of()), replica -> readPage(tableId, query,
                    visible, all, replica == StoreReplica.ACTIVE_OR_STANDBY, token, rowBudget).thenAccept(answer));
            return;
        }
        complete(http, new ScatterGather(request, http, tableId, query, visible, token).run().thenAccept(answer));
    }

    /** The past time a read asks for ({@link PointInTime}), checked against the table; empty for a plain read. */
    private static Optional<EdmDateTime> asOf(RequestContext request, Context http, TableRecord table) {
        return PointInTime.parse(http.queryParam(PointInTime.PARAMETER), table, EdmDateTime.of(request.receivedAt()),
                http.header(Headers.FORWARDED) != null);
    }

    private static void continuationHeaders(Context http, Page page) {
        page.next().ifPresent(next -> {
            http.header(Headers.CONTINUATION_NEXT_PARTITION_KEY, next.nextPartitionKeyToken());
            http.header(Headers.CONTINUATION_NEXT_ROW_KEY, next.nextRowKeyToken());
        });
    }

    /** Writes a page as the OData feed, with its continuation headers. */
    private static void writeFeed(RequestContext request, Context http, MetadataLevel level, ODataContext odata,
                                  EntityQuery query, Page page) {
        ResponseHeaders.odata(http, request, level.contentType());
        continuationHeaders(http, page);
        http.result(write(out -> {
            EntityFeedWriter feed = EntityFeedWriter.begin(out, odata, level, query.select());
            for (Entity e : page.entities()) {
                feed.write(e);
            }
            feed.finish();
        }));
    }

    /**
     * Answers a read of {@code partitions}: a forwarded request from this instance's copy or with a
     * refusal; any other through the router (active copies only when it carries a session token).
     */
    private void respond(RequestContext request, Context http, List<Integer> partitions, String token,
                         Supplier<Placement> locate, ReplicaRouting.LocalRead local) {
        String forwarded = http.header(Headers.FORWARDED);
        if (forwarded != null) {
            boolean standbyAllowed = STANDBY.equals(forwarded) && token == null;
            CompletableFuture<Void> read;
            try {
                read = local.read(standbyAllowed ? StoreReplica.ACTIVE_OR_STANDBY : StoreReplica.ACTIVE);
            } catch (ReplicaUnavailable e) {
                read = CompletableFuture.failedFuture(e);
            }
            complete(http, refusedHereWhenUnavailable(http, partitions, read));
            return;
        }
        Supplier<Placement> placement = token == null ? locate : () -> locate.get().activeOnly();
        complete(http, routing.serve(request, http, placement, local, token == null ? Duration.ZERO : sessionTimeout));
    }

    /** A forwarded read this instance cannot serve: 503, marked so the forwarding instance tries another copy. */
    private static CompletableFuture<Void> refusedHereWhenUnavailable(Context http, List<Integer> partitions,
                                                                      CompletableFuture<Void> read) {
        return read.exceptionallyCompose(e -> {
            Throwable cause = ReplicaRouting.unwrap(e);
            if (cause instanceof ReplicaUnavailable) {
                http.header(Headers.REPLICA_UNAVAILABLE, "true");
                return CompletableFuture.failedFuture(TableServiceException.of(ErrorCode.SERVER_BUSY,
                        "Partitions " + partitions + " are not served by this instance right now; retry shortly.", cause));
            }
            return CompletableFuture.failedFuture(cause);
        });
    }

    /** Hands a read that has not finished to Javalin; one that has is answered already, or throws its failure. */
    private static void complete(Context http, CompletableFuture<Void> read) {
        if (!read.isDone()) {
            http.future(() -> read);
            return;
        }
        if (read.isCompletedExceptionally()) {
            Throwable cause = ReplicaRouting.unwrap(read.handle((v, e) -> e).join());
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(cause);
        }
    }

    /**
     * Runs {@code read} against this instance's copies of {@code partitions} — the active one, or a
     * fresh standby when {@code replica} allows one — at once, or, with a session token, once the
     * writes it names on those partitions are applied. {@code read} is given the copy to use for each
     * partition. Fails with {@link ReplicaUnavailable} when this instance may not serve one of them
     * or a store is not queryable (restoring, moved).
     */
    private <T> CompletableFuture<T> readHere(List<Integer> partitions, StoreReplica replica, String token,
                                              Function<IntFunction<StoreReplica>, T> read) {
        boolean standbyAllowed = replica == StoreReplica.ACTIVE_OR_STANDBY;
        Map<Integer, StoreReplica> copies = new HashMap<>();
        for (int p : partitions) {
            Optional<StoreReplica> copy = locator.localCopy(p, standbyAllowed);
            if (copy.isEmpty()) {
                return CompletableFuture.failedFuture(new ReplicaUnavailable("partition " + p + " is not here"));
            }
            copies.put(p, copy.get());
        }
        Supplier<T> fromStore = () -> {
            try {
                return read.apply(copies::get);
            } catch (TableServiceException e) {
                if (e.errorCode() == ErrorCode.SERVER_BUSY) {
                    throw new ReplicaUnavailable("a store is not queryable here", e);
                }
                throw e;
            }
        };
        if (token == null) {
            try {
                return CompletableFuture.completedFuture(fromStore.get());
            } catch (ReplicaUnavailable e) {
                return CompletableFuture.failedFuture(e);
            }
        }
        return sessions.until(token, locator.partitions(), Set.copyOf(partitions))
                .thenApplyAsync(x -> fromStore.get(), readers);
    }

    /** A page of {@code partitions} read here, within {@code budget} rows. */
    private CompletableFuture<Page> readPage(long tableId, EntityQuery query, Predicate<Entity> visible,
                                             List<Integer> partitions, boolean standbyAllowed, String token, int budget) {
        StoreReplica replica = standbyAllowed ? StoreReplica.ACTIVE_OR_STANDBY : StoreReplica.ACTIVE;
        return readHere(partitions, replica, token, copies -> pages.read(tableId, query, visible, partitions, copies,
                budget));
    }

    private List<Integer> requestedPartitions(String header) {
        List<Integer> partitions = new ArrayList<>();
        try {
            for (String p : header.split(",", -1)) {
                int partition = Integer.parseInt(p.strip());
                if (partition < 0 || partition >= locator.partitions() || partitions.contains(partition)) {
                    throw new NumberFormatException();
                }
                partitions.add(partition);
            }
        } catch (NumberFormatException e) {
            throw TableServiceException.of(ErrorCode.INVALID_HEADER_VALUE, Headers.READ_PARTITIONS
                    + " must list distinct partitions from 0 to " + (locator.partitions() - 1) + ".");
        }
        return partitions;
    }

    private int requestedBudget(String header) {
        if (header == null) {
            return rowBudget;
        }
        try {
            int budget = Integer.parseInt(header.strip());
            if (budget >= 1) {
                return budget;
            }
        } catch (NumberFormatException e) {
            // fall through
        }
        throw TableServiceException.of(ErrorCode.INVALID_HEADER_VALUE, Headers.ROW_BUDGET + " must be a positive integer.");
    }

    /**
     * One multi-partition query: each partition is read from its first usable copy — those here
     * together, those of each other instance with one partial read there — every reader from the
     * same resume point within its share of the row budget; the partial pages are merged. Partitions
     * whose copy failed are located again and read from another copy, for a bounded moment.
     */
    private final class ScatterGather {
        private final RequestContext request;
        private final Context http;
        private final long tableId;
        private final EntityQuery query;
        private final Predicate<Entity> visible;
        private final String token;

        ScatterGather(RequestContext request, Context http, long tableId, EntityQuery query, Predicate<Entity> visible,
                      String token) {
            this.request = request;
            this.http = http;
            this.tableId = tableId;
            this.query = query;
            this.visible = visible;
            this.token = token;
        }

        CompletableFuture<Page> run() {
            long deadline = System.nanoTime() + ReplicaRouting.UNAVAILABLE_WAIT.toNanos();
            return gather(placements(null), new ArrayList<>(), new HashMap<>(), deadline, true)
                    .thenApply(parts -> PageMerge.merge(parts, query.pageOrder(), query.top(),
                            pages.byteBudget(query)));
        }

        /**
         * Reads {@code placements}' partitions, then those whose copy failed again — from a copy not
         * tried yet when there is one — at once the first time, then every moment until the deadline.
         */
        private CompletableFuture<List<Page>> gather(List<Placement> placements, List<Page> done,
                                                     Map<Integer, Set<Replica>> tried, long deadline, boolean first) {
            return round(placements, tried).thenCompose(round -> {
                done.addAll(round.pages());
                if (round.failed().isEmpty()) {
                    return CompletableFuture.completedFuture(done);
                }
                round.failed().forEach((p, r) -> tried.computeIfAbsent(p, x -> new HashSet<>()).add(r));
                long wait = first ? 0 : ReplicaRouting.RETRY_INTERVAL.toNanos();
                if (System.nanoTime() + wait - deadline > 0) {
                    throw ReplicaRouting.busy(round.failed().keySet().iterator().next(), null);
                }
                return CompletableFuture.supplyAsync(() -> null,
                                CompletableFuture.delayedExecutor(wait, TimeUnit.NANOSECONDS))
                        .thenCompose(x -> gather(placements(round.failed().keySet()), done, tried, deadline, false));
            });
        }

        /** Where each partition (of {@code only}, when given) can be read, as the metadata says now. */
        private List<Placement> placements(Set<Integer> only) {
            List<Placement> placements = new ArrayList<>();
            for (Placement p : locator.locateAll()) {
                if (only == null || only.contains(p.partition())) {
                    placements.add(token == null ? p : p.activeOnly());
                }
            }
            return placements;
        }

        /** The partial pages read, and the partitions whose chosen copy failed (with that copy). */
        private record Round(List<Page> pages, Map<Integer, Replica> failed) {
        }

        /**
         * Reads each partition of {@code placements} from its first copy not {@code tried} yet (or
         * its first copy, when every one was), those here together, those of each other instance
         * with one partial read there.
         */
        private CompletableFuture<Round> round(List<Placement> placements, Map<Integer, Set<Replica>> tried) {
            Map<Instance, List<Integer>> remote = new LinkedHashMap<>();
            Map<Instance, Boolean> remoteStandby = new HashMap<>();
            List<Integer> here = new ArrayList<>();
            boolean hereStandby = false;
            Map<Integer, Replica> failures = new ConcurrentHashMap<>();
            for (Placement placement : placements) {
                List<Replica> candidates = routing.ordered(placement.replicas());
                Set<Replica> failedBefore = tried.getOrDefault(placement.partition(), Set.of());
                Replica chosen = candidates.stream().filter(r -> !failedBefore.contains(r)).findFirst()
                        .orElse(candidates.isEmpty() ? null : candidates.get(0));
                if (chosen == null) {
                    failures.put(placement.partition(), Replica.localActive());
                } else if (chosen.isLocal()) {
                    here.add(placement.partition());
                    hereStandby |= chosen.standby();
                } else {
                    remote.computeIfAbsent(chosen.instance(), i -> new ArrayList<>()).add(placement.partition());
                    remoteStandby.merge(chosen.instance(), chosen.standby(), Boolean::logicalOr);
                }
            }
            List<CompletableFuture<Void>> reads = new ArrayList<>();
            List<Page> read = Collections.synchronizedList(new ArrayList<>());
            if (!here.isEmpty()) {
                boolean standby = hereStandby;
                Replica local = standby ? Replica.localStandby() : Replica.localActive();
                reads.add(readPage(tableId, query, visible, here, standby, token, share(here.size()))
                        .handle((page, error) -> collect(page, error, here, local, read, failures)));
            }
            remote.forEach((instance, partitions) -> {
                Replica target = new Replica(instance, remoteStandby.get(instance));
                Map<String, String> extra = Map.of(
                        Headers.READ_PARTITIONS, partitions.stream().map(String::valueOf).collect(Collectors.joining(",")),
                        Headers.ROW_BUDGET, Integer.toString(share(partitions.size())));
                reads.add(routing.send(request, http, target, extra, token == null ? Duration.ZERO : sessionTimeout)
                        .thenApply(answer -> partialPage(target, answer))
                        .handle((page, error) -> collect(page, error, partitions, target, read, failures)));
            });
            return CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new))
                    .thenApply(x -> new Round(List.copyOf(read), Map.copyOf(failures)));
        }

        private Void collect(Page page, Throwable error, List<Integer> partitions, Replica replica, List<Page> read,
                             Map<Integer, Replica> failures) {
            if (error == null) {
                read.add(page);
                return null;
            }
            Throwable cause = ReplicaRouting.unwrap(error);
            if (cause instanceof ReplicaUnavailable) {
                partitions.forEach(p -> failures.put(p, replica));
                return null;
            }
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(cause);
        }

        /** The share of the row budget of a reader of {@code count} of the partitions. */
        private int share(int count) {
            return Math.max(1, (int) ((long) rowBudget * count / locator.partitions()));
        }
    }

    /**
     * A partial read's answer from {@code replica}: its page; or the other instance's refusal of the
     * request (a 4xx with its error code) as this request's; or, for anything else — a failure there,
     * an answer that is not a partial page — that copy counted as unavailable
     * ({@link ReplicaRouting#unexpectedAnswer}), so the partitions are read from another copy.
     */
    static Page partialPage(Replica replica, InstanceClient.Answer answer) {
        String type = answer.header("Content-Type");
        if (answer.status() == 200) {
            if (type == null || !type.startsWith(PartialPages.CONTENT_TYPE)) {
                throw ReplicaRouting.unexpectedAnswer(replica, "a partial read answered with Content-Type " + type);
            }
            try {
                return PartialPages.decode(answer.body());
            } catch (IllegalArgumentException e) {
                throw ReplicaRouting.unexpectedAnswer(replica, "a partial read answered " + answer.body().length
                        + " bytes that are " + e.getMessage());
            }
        }
        String code = answer.header(Headers.ERROR_CODE);
        for (ErrorCode c : ErrorCode.values()) {
            if (c.code().equals(code) && c.httpStatus() == answer.status() && answer.status() < 500) {
                return failWith(c, "A partial read on another instance was refused (" + answer.status() + " " + code
                        + ").");
            }
        }
        throw ReplicaRouting.unexpectedAnswer(replica, "a partial read answered " + answer.status() + " " + code);
    }

    private static Page failWith(ErrorCode code, String message) {
        throw TableServiceException.of(code, message);
    }

    /** Get Table ACL: the table's stored access policies, as the SignedIdentifiers document. */
    void getTableAcl(RequestContext request, Context http) {
        String raw = ((ResourcePath.EntityCollection) request.resource()).table();
        if (!TableName.isValid(raw)) {
            throw TableServiceException.of(ErrorCode.TABLE_NOT_FOUND, "The table specified does not exist.");
        }
        request.caller().authorize(Operation.GET_TABLE_ACL, raw, null, null);
        TableRecord table = tables.require(request.account(), raw);
        ResponseHeaders.standard(http, request);
        http.contentType(XML);
        http.result(SignedIdentifiersXml.write(table.accessPolicies()));
    }

    /** Get Table Service Properties: the account's properties, the defaults when it never set any. */
    void getServiceProperties(RequestContext request, Context http) {
        request.caller().authorize(Operation.GET_SERVICE_PROPERTIES, null, null, null);
        byte[] body = ServicePropertiesXml.write(registry.serviceProperties(request.account()));
        ResponseHeaders.standard(http, request);
        http.contentType(XML);
        http.result(body);
    }

    /**
     * Get Table Service Stats (served on the secondary location only): the secondary location reads
     * the primary's own stores, so replication is live and every write answered before this
     * request is readable there.
     */
    void getServiceStats(RequestContext request, Context http) {
        request.caller().authorize(Operation.GET_SERVICE_STATS, null, null, null);
        ResponseHeaders.standard(http, request);
        http.contentType(XML);
        http.result(ServiceStatsXml.write(ServiceStatsXml.Status.LIVE, request.receivedAt()));
    }

    @FunctionalInterface
    private interface BodyWriter {
        void write(ByteArrayOutputStream out) throws IOException;
    }

    private static byte[] write(BodyWriter writer) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(1024);
        try {
            writer.write(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
