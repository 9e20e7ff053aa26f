package io.tablestream.core.odata;

import com.fasterxml.jackson.core.JsonGenerator;
import io.tablestream.core.model.TableName;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Objects;

/**
 * Writes a Query Tables feed incrementally:
 * {@code {"odata.metadata":"{baseUrl}/$metadata#Tables","value":[{"TableName":"x"},...]}}, each table laid
 * out as by {@link TableJsonWriter}. {@link #begin}, {@link #write} per table, then {@link #finish}; the
 * output stream is never closed. Not thread-safe.
 */
public final class TableFeedWriter {
    private final JsonGenerator generator;
    private final ODataContext context;
    private final MetadataLevel level;
    private boolean finished;

    private TableFeedWriter(JsonGenerator generator, ODataContext context, MetadataLevel level) {
        this.generator = generator;
        this.context = context;
        this.level = level;
    }

    public static TableFeedWriter begin(OutputStream out, ODataContext context, MetadataLevel level) throws IOException {
        JsonGenerator g = JsonSupport.generator(out);
        g.writeStartObject();
        if (level != MetadataLevel.NO) {
            g.writeStringField("odata.metadata", ODataUrls.tablesMetadata(context));
        }
        g.writeArrayFieldStart("value");
        return new TableFeedWriter(g, context, level);
    }

    /** Appends one table. */
    public void write(TableName table) throws IOException {
        Objects.requireNonNull(table, "table");
        if (finished) {
            throw new IllegalStateException("The feed is finished");
        }
        generator.writeStartObject();
        TableJsonWriter.writeMembers(generator, context, table, level);
        generator.writeEndObject();
    }

    /** Pushes what has been written so far to the output stream (e.g. between pages); the feed stays open. */
    public void flush() throws IOException {
        generator.flush();
    }

    /** Closes the array and the object and flushes; the output stream stays open. */
    public void finish() throws IOException {
        if (finished) {
            return;
        }
        finished = true;
        generator.writeEndArray();
        generator.writeEndObject();
        generator.close();
    }
}
