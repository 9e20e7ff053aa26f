package io.tablestream.core.odata;

import com.fasterxml.jackson.core.JsonGenerator;
import io.tablestream.core.model.TableName;
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
