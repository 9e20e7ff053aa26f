package io.tablestream.query.http;

import io.javalin.http.Context;
import io.tablestream.core.codec.EntityFeedWriter;
import io.tablestream.core.codec.EntityJsonWriter;
import io.tablestream.core.codec.MetadataLevel;
import io.tablestream.core.codec.ODataContext;
import io.tablestream.core.codec.TableContinuation;
import io.tablestream.core.codec.TableFeedWriter;
import io.tablestream.core.codec.TableJsonWriter;
import io.tablestream.core.command.CommandKey;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.filter.Filter;
import io.tablestream.core.filter.Select;
import io.tablestream.core.model.EdmString;
import io.tablestream.core.model.Entity;
import io.tablestream.core.model.EntityKey;
import io.tablestream.core.model.StoredEntity;
import io.tablestream.core.model.TableName;
import io.tablestream.core.model.TableRecord;
import io.tablestream.core.registry.TableRegistry;
import io.tablestream.processor.store.AppliedOffsets;
import io.tablestream.processor.store.EntityStore;
import io.tablestream.protocol.http.Headers;
import io.tablestream.protocol.http.ODataResponses;
import io.tablestream.protocol.http.Operation;
import io.tablestream.protocol.http.OperationHandler;
import io.tablestream.protocol.http.RequestContext;
import io.tablestream.protocol.http.ResourcePath;
import io.tablestream.protocol.http.ResponseHeaders;
import io.tablestream.protocol.http.TableLookup;
import io.tablestream.protocol.xml.ServicePropertiesXml;
import io.tablestream.protocol.xml.ServiceStatsXml;
import io.tablestream.protocol.xml.SignedIdentifiersXml;
import io.tablestream.query.plan.EntityQuery;
import io.tablestream.query.plan.Page;
import io.tablestream.query.plan.PageReader;
import io.tablestream.query.routing.KeyLocator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * The read side: Query Tables, Get Entity, Query Entities, Get Table ACL, Get Table Service
 * Properties (the last two from the registry, which every instance holds) and Get Table Service Stats. Reads are served from this instance's
 * stores (the {@link KeyLocator} says which partitions those are); a read carrying a session token
 * first waits, without blocking a request thread, until the writes it names are applied.
 */
public final class ReadHandlers {
    /** Registry rows examined per Query Tables page at most. */
    private static final int TABLE_SCAN_BUDGET = 10_000;
    /** The content type of the ACL and service-properties documents. */
    private static final String XML = "application/xml";

    private final TableRegistry registry;
    private final TableLookup tables;
    private final EntityStore store;
    private final KeyLocator locator;
    private final PageReader pages;
    private final SessionWait sessions;
    private final Executor readers;

    private ReadHandlers(TableRegistry registry, EntityStore store, KeyLocator locator, AppliedOffsets applied,
                         CommandLogEnds ends, Duration sessionTimeout, int rowBudget, Executor readers) {
        this.registry = registry;
        this.tables = new TableLookup(registry);
        this.store = store;
        this.locator = locator;
        this.pages = new PageReader(store, locator, rowBudget, 4L * 1024 * 1024);
        this.sessions = new SessionWait(applied, ends, sessionTimeout);
        this.readers = readers;
    }

    /**
     * @param ends where the command log ends: a session token past it is refused at once
     * @param sessionTimeout how long a read waits for the writes its session token names
     * @param rowBudget rows a Query Entities page examines at most before it ends with a continuation
     * @param readers where reads that had to wait run (never on the thread that ended the wait)
     */
    public static Map<Operation, OperationHandler> create(TableRegistry registry, EntityStore store, KeyLocator locator,
                                                          AppliedOffsets applied, CommandLogEnds ends,
                                                          Duration sessionTimeout, int rowBudget, Executor readers) {
        ReadHandlers h = new ReadHandlers(registry, store, locator, applied, ends, sessionTimeout, rowBudget, readers);
        Map<Operation, OperationHandler> handlers = new EnumMap<>(Operation.class);
        handlers.put(Operation.QUERY_TABLES, h::queryTables);
        handlers.put(Operation.GET_ENTITY, h::getEntity);
        handlers.put(Operation.QUERY_ENTITIES, h::queryEntities);
        handlers.put(Operation.GET_TABLE_ACL, h::getTableAcl);
        handlers.put(Operation.GET_SERVICE_PROPERTIES, h::getServiceProperties);
        handlers.put(Operation.GET_SERVICE_STATS, h::getServiceStats);
        return handlers;
    }

    /** Runs {@code read} now, or — when the request carries a session token — once its writes are applied. */
    private void afterSession(Context http, Runnable read) {
        String token = http.header(Headers.SESSION_TOKEN);
        if (token == null) {
            read.run();
            return;
        }
        CompletableFuture<Void> applied = sessions.until(token, locator.partitions(), locator.localPartitions());
        http.future(() -> applied.thenRunAsync(read, readers));
    }

    void queryTables(RequestContext request, Context http) {
        request.caller().authorize(Operation.QUERY_TABLES, null, null, null);
        MetadataLevel level = ODataResponses.level(http);
        ODataContext odata = ODataResponses.context(http, request);
        if (request.resource() instanceof ResourcePath.TableItem item) {
            TableRecord table = tables.require(request.account(), item.name());
            ResponseHeaders.odata(http, request, level.contentType());
            http.result(write(out -> TableJsonWriter.writeTable(out, odata, table.name(), level)));
            return;
        }
        Filter filter = Filter.parse(http.queryParam("$filter"));
        int top = EntityQuery.top(http.queryParam("$top"));
        String from = TableContinuation.fromQuery(http.queryParam(TableContinuation.NEXT_TABLE_NAME))
                .map(c -> c.tableName().key()).orElse(null);
        List<TableName> page = new java.util.ArrayList<>();
        TableName next = null;
        int examined = 0;
        scan:
        while (top > 0) {
            List<TableRecord> chunk = registry.list(request.account(), from, 256);
            for (TableRecord t : chunk) {
                if (page.size() >= top || examined >= TABLE_SCAN_BUDGET) {
                    next = t.name();
                    break scan;
                }
                examined++;
                EdmString name = EdmString.of(t.name().value());
                if (filter.test(property -> "TableName".equals(property) ? name : null)) {
                    page.add(t.name());
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
            for (TableName name : page) {
                feed.write(name);
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
        int partition = locator.partitionOf(CommandKey.forEntity(request.account(), table.tableId(), item.partitionKey()));
        afterSession(http, () -> {
            if (!locator.localPartitions().contains(partition)) {
                throw TableServiceException.of(ErrorCode.SERVER_BUSY,
                        "The entity's partition is not served by this instance right now; retry shortly.");
            }
            Optional<StoredEntity> found = store.get(partition,
                    EntityKey.of(table.tableId(), item.partitionKey(), item.rowKey()));
            Entity entity = found.orElseThrow(() -> TableServiceException.of(ErrorCode.RESOURCE_NOT_FOUND)).entity();
            ResponseHeaders.odata(http, request, level.contentType());
            http.header(Headers.ETAG, entity.etag().value());
            http.result(write(out -> EntityJsonWriter.writeEntity(out, odata, entity, level, select)));
        });
    }

    void queryEntities(RequestContext request, Context http) {
        String tableName = ((ResourcePath.EntityCollection) request.resource()).table();
        TableRecord table = tables.require(request.account(), tableName);
        request.caller().authorize(Operation.QUERY_ENTITIES, table.name().value(), null, null);
        EntityQuery query = EntityQuery.of(http.queryParam("$filter"), http.queryParam("$select"),
                http.queryParam("$top"), http.queryParam("NextPartitionKey"), http.queryParam("NextRowKey"),
                request.caller().readableKeys(table.name().value()));
        MetadataLevel level = ODataResponses.level(http);
        ODataContext odata = ODataResponses.context(http, request).withTable(table.name());
        String name = table.name().value();
        afterSession(http, () -> {
            Page page = pages.read(request.account(), table.tableId(), query,
                    e -> request.caller().mayRead(name, e.partitionKey(), e.rowKey()));
            ResponseHeaders.odata(http, request, level.contentType());
            page.next().ifPresent(next -> {
                http.header(Headers.CONTINUATION_NEXT_PARTITION_KEY, next.nextPartitionKeyToken());
                http.header(Headers.CONTINUATION_NEXT_ROW_KEY, next.nextRowKeyToken());
            });
            http.result(write(out -> {
                EntityFeedWriter feed = EntityFeedWriter.begin(out, odata, level, query.select());
                for (Entity e : page.entities()) {
                    feed.write(e);
                }
                feed.finish();
            }));
        });
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
