package io.tablestream.cli.transfer;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.tablestream.client.Continuation;
import io.tablestream.client.TableServiceHttp;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;

/** Counts the entities of a table or a query: a scan that asks for RowKey only. */
public final class Counter {
    private final TableServiceHttp http;

    public Counter(TableServiceHttp http) {
        this.http = http;
    }

    /** The number of entities {@code filters} (one per range, see {@link TableScan#rangeFilters}) select. */
    public long count(String table, List<String> filters) throws Exception {
        return count(table, filters, n -> { });
    }

    /** As {@link #count(String, List)}, telling {@code progress} the running count after every page. */
    public long count(String table, List<String> filters, LongConsumer progress) throws Exception {
        return count(table, filters, null, progress);
    }

    /** As {@link #count(String, List, LongConsumer)}, the table as it was at {@code asOf} (null: now). */
    public long count(String table, List<String> filters, String asOf, LongConsumer progress) throws Exception {
        AtomicLong count = new AtomicLong();
        new TableScan(http, table, "RowKey", filters, asOf).run(filters.stream().map(f -> TableScan.Position.START).toList(),
                (range, page, next) -> progress.accept(count.addAndGet(entitiesIn(page))));
        return count.get();
    }

    /** How many entities a Query Entities page holds. */
    static int entitiesIn(byte[] page) {
        int n = 0;
        try (JsonParser p = EntityLines.JSON.createParser(page)) {
            p.nextToken();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                p.nextToken();
                if (!field.equals("value")) {
                    p.skipChildren();
                    continue;
                }
                while (p.nextToken() == JsonToken.START_OBJECT) {
                    p.skipChildren();
                    n++;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("The service's answer is not an entity feed", e);
        }
        return n;
    }
}
