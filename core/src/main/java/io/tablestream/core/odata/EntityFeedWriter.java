package io.tablestream.core.odata;

import io.tablestream.core.filter.Select;

import io.tablestream.core.model.Entity;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Objects;

/**
 * Writes a Query Entities feed incrementally, so a query can stream its page:
 * {@code {"odata.metadata":"{baseUrl}/$metadata#{Table}","value":[ entity, ... ]}}. Each entity is laid
 * out as by {@link EntityJsonWriter} (control information and annotations by level) but without its own
 * {@code odata.metadata}; at no metadata the feed is just {@code {"value":[...]}}.
 *
 * <p>{@link #begin} writes the opening, {@link #write} one entity, {@link #finish} the closing and a
 * flush; the output stream is never closed. Not thread-safe.
 */
public final class EntityFeedWriter {
    private final JsonFeed feed;
    private final ODataContext context;
    private final MetadataLevel level;
    private final Select projection;

    private EntityFeedWriter(JsonFeed feed, ODataContext context, MetadataLevel level, Select projection) {
        this.feed = feed;
        this.context = context;
        this.level = level;
        this.projection = projection;
    }

    /** Starts a feed of every property of each entity. */
    public static EntityFeedWriter begin(OutputStream out, ODataContext context, MetadataLevel level) throws IOException {
        return begin(out, context, level, Select.all());
    }

    /** Starts a feed whose entities are restricted to {@code projection} ({@code $select}). */
    public static EntityFeedWriter begin(OutputStream out, ODataContext context, MetadataLevel level,
                                         Select projection) throws IOException {
        Objects.requireNonNull(projection, "projection");
        context.requireTable();
        JsonFeed feed = JsonFeed.begin(out, level, () -> ODataUrls.entitySetMetadata(context, projection));
        return new EntityFeedWriter(feed, context, level, projection);
    }

    /** Appends one entity. */
    public void write(Entity entity) throws IOException {
        feed.write(g -> EntityJsonWriter.writeMembers(g, context, entity, level, projection));
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
