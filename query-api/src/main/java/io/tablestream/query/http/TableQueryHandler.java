package io.tablestream.query.http;

import io.javalin.http.Context;
import io.tablestream.core.continuation.TableContinuation;
import io.tablestream.core.filter.Filter;
import io.tablestream.core.model.EdmString;
import io.tablestream.core.model.TableName;
import io.tablestream.core.model.TableRecord;
import io.tablestream.core.odata.MetadataLevel;
import io.tablestream.core.odata.ODataContext;
import io.tablestream.core.odata.TableFeedWriter;
import io.tablestream.core.odata.TableJsonWriter;
import io.tablestream.core.registry.TableRegistry;
import io.tablestream.protocol.http.Headers;
import io.tablestream.protocol.http.ODataResponses;
import io.tablestream.protocol.http.RequestContext;
import io.tablestream.protocol.http.ResponseHeaders;
import io.tablestream.protocol.http.TableLookup;
import io.tablestream.protocol.request.Operation;
import io.tablestream.protocol.request.ResourcePath;
import io.tablestream.query.plan.EntityQuery;
import java.util.List;

/**
 * Query Tables: the account's tables from the registry every instance holds, filtered by
 * {@code $filter} on TableName, a page of at most {@code $top} after examining at most the table-scan
 * budget; or one table, when the request names it.
 */
record TableQueryHandler(TableRegistry registry, TableLookup tables, int tableScanBudget) {
    void handle(RequestContext request, Context http) {
        request.caller().authorize(Operation.QUERY_TABLES, null, null, null);
        MetadataLevel level = ODataResponses.level(request, http);
        ODataContext odata = ODataResponses.context(http, request);
        if (request.resource() instanceof ResourcePath.TableItem item) {
            TableRecord table = tables.require(request.account(), item.name());
            ResponseHeaders.odata(http, request, level.contentType());
            http.result(ResponseBodies.write(out -> TableJsonWriter.writeTable(out, odata, table, level)));
            return;
        }
        Filter filter = Filter.parse(request.queryParam("$filter"));
        int top = EntityQuery.top(request.queryParam("$top"));
        String from = TableContinuation.fromQuery(request.queryParam(TableContinuation.NEXT_TABLE_NAME))
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
        http.result(ResponseBodies.write(out -> {
            TableFeedWriter feed = TableFeedWriter.begin(out, odata, level);
            for (TableRecord table : page) {
                feed.write(table);
            }
            feed.finish();
        }));
    }
}
