package io.tablestream.core.odata;

import com.fasterxml.jackson.core.JsonGenerator;
import io.tablestream.core.model.TableName;
import io.tablestream.core.model.TableRecord;
import io.tablestream.core.rules.History;
import io.tablestream.core.rules.TimeToLive;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Writes tables as the service does (Create Table and Query Tables documentation):
 * <ul>
 *   <li>a single table (Create Table with {@code return-content}):
 *       {@code {"odata.metadata":"{baseUrl}/$metadata#Tables/@Element","TableName":"x"}};</li>
 *   <li>a feed (Query Tables), incrementally through {@link TableFeedWriter}:
 *       {@code {"odata.metadata":"{baseUrl}/$metadata#Tables","value":[{"TableName":"x"},...]}};</li>
 *   <li>at full metadata each table also has {@code odata.type} {@code {account}.Tables}, {@code odata.id}
 *       {@code {baseUrl}/Tables('x')} and {@code odata.editLink} {@code Tables('x')}, before TableName;
 *       at no metadata there is no {@code odata.metadata}.</li>
 *   <li>at no metadata, a table's extension settings follow its name, under the names Create Table
 *       takes them by: {@code TTLInSeconds} (its default entity time-to-live) and
 *       {@code HistoryRetentionInSeconds}, each only when the table has it. The official SDKs read
 *       tables at full or minimal metadata, where they never appear.</li>
 * </ul>
 */
public final class TableJsonWriter {

    private TableJsonWriter() {
    }

    /** A single table. */
    public static void writeTable(OutputStream out, ODataContext context, TableName table, MetadataLevel level)
            throws IOException {
        try (JsonGenerator g = JsonSupport.generator(out)) {
            g.writeStartObject();
            if (level != MetadataLevel.NO) {
                g.writeStringField("odata.metadata", ODataUrls.tableMetadata(context));
            }
            writeMembers(g, context, table, level);
            g.writeEndObject();
        }
    }

    /** A single table with its extension settings (Get Table: {@code Tables('x')}). */
    public static void writeTable(OutputStream out, ODataContext context, TableRecord table, MetadataLevel level)
            throws IOException {
        try (JsonGenerator g = JsonSupport.generator(out)) {
            g.writeStartObject();
            if (level != MetadataLevel.NO) {
                g.writeStringField("odata.metadata", ODataUrls.tableMetadata(context));
            }
            writeMembers(g, context, table, level);
            g.writeEndObject();
        }
    }

    static void writeMembers(JsonGenerator g, ODataContext context, TableRecord table, MetadataLevel level)
            throws IOException {
        writeMembers(g, context, table.name(), level);
        if (level == MetadataLevel.NO) {
            if (table.defaultTtlSeconds() != null) {
                g.writeNumberField(TimeToLive.PROPERTY, table.defaultTtlSeconds());
            }
            if (table.historyRetentionSeconds() != null) {
                g.writeNumberField(History.RETENTION_PROPERTY, table.historyRetentionSeconds());
            }
        }
    }

    static void writeMembers(JsonGenerator g, ODataContext context, TableName table, MetadataLevel level)
            throws IOException {
        if (level == MetadataLevel.FULL) {
            g.writeStringField("odata.type", ODataUrls.tablesType(context));
            g.writeStringField("odata.id", ODataUrls.tableId(context, table));
            g.writeStringField("odata.editLink", ODataUrls.tableEditLink(table));
        }
        g.writeStringField("TableName", table.value());
    }
}
