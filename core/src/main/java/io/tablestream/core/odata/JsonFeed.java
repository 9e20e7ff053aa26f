package io.tablestream.core.odata;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.OutputStream;
import java.util.function.Supplier;

/**
 * The frame both feeds share, written incrementally:
 * {@code {"odata.metadata":"<url>","value":[ item, ... ]}} (no {@code odata.metadata} at no metadata).
 * {@link EntityFeedWriter} and {@link TableFeedWriter} write their items into it; the output stream
 * is never closed. Not thread-safe.
 */
final class JsonFeed {
    /** Writes one item's members (the item's own braces are the feed's). */
    interface Members {
        void write(JsonGenerator generator) throws IOException;
    }

    private final JsonGenerator generator;
    private boolean finished;

    private JsonFeed(JsonGenerator generator) {
        this.generator = generator;
    }

    /** Writes the opening; {@code metadataUrl} is asked only when {@code level} is not {@link MetadataLevel#NO}. */
    static JsonFeed begin(OutputStream out, MetadataLevel level, Supplier<String> metadataUrl) throws IOException {
        JsonGenerator g = JsonSupport.generator(out);
        g.writeStartObject();
        if (level != MetadataLevel.NO) {
            g.writeStringField("odata.metadata", metadataUrl.get());
        }
        g.writeArrayFieldStart("value");
        return new JsonFeed(g);
    }

    /** Appends one item. */
    void write(Members members) throws IOException {
        if (finished) {
            throw new IllegalStateException("The feed is finished");
        }
        generator.writeStartObject();
        members.write(generator);
        generator.writeEndObject();
    }

    /** Pushes what has been written so far to the output stream (e.g. between pages); the feed stays open. */
    void flush() throws IOException {
        generator.flush();
    }

    /** Closes the array and the object and flushes; the output stream stays open. */
    void finish() throws IOException {
        if (finished) {
            return;
        }
        finished = true;
        generator.writeEndArray();
        generator.writeEndObject();
        generator.close();
    }
}
