package io.tablestream.core.odata;

import io.tablestream.core.model.TableName;
import io.tablestream.core.model.TableRecord;
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
    private final JsonFeed feed;
    private final ODataContext context;
    private final MetadataLevel level;

    private TableFeedWriter(JsonFeed feed, ODataContext context, MetadataLevel level) {
        this.feed = feed;
        this.context = context;
        this.level = level;
    }

    public static TableFeedWriter begin(OutputStream out, ODataContext context, MetadataLevel level) throws IOException {
        return new TableFeedWriter(JsonFeed.begin(out, level, () -> ODataUrls.tablesMetadata(context)), context, level);
    }

    /** Appends one table with its extension settings (see {@link TableJsonWriter}). */
    public void write(TableRecord table) throws IOException {
        Objects.requireNonNull(table, "table");
        feed.write(g -> TableJsonWriter.writeMembers(g, context, table, level));
    }

    /** Appends one table. */
    public void write(TableName table) throws IOException {
        Objects.requireNonNull(table, "table");
        feed.write(g -> TableJsonWriter.writeMembers(g, context, table, level));
    }

    /** Pushes what has been written so far to the output stream (e.g. between pages); the feed stays open. */
    public void flush() throws IOException {
        feed.flush();
    }

    /** Closes the array and the object and flushes; the output stream stays open. */
    public void finish() throws IOException {
        feed.finish();
    }
}
