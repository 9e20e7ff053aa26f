package io.tablestream.core.odata;

import com.fasterxml.jackson.core.JsonGenerator;
import io.tablestream.core.command.ChangeEvent;
import io.tablestream.core.command.EntityChange;
import io.tablestream.core.filter.Select;
import io.tablestream.core.model.ETag;
import io.tablestream.core.model.Entity;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Locale;

/**
 * Writes an entity's history (a Tablestream extension) as JSON, newest version first:
 * {@code {"value":[{"Operation":"Replaced","Timestamp":"…","ETag":"W/\"datetime'…'\"",
 * "Principal":"…","CommandId":"…","Entity":{…}}, …]}}. {@code Operation} is one of
 * {@code Inserted, Replaced, Merged, Deleted, Expired}; {@code Entity} is the version the change
 * made, laid out as Get Entity lays out an entity at the request's metadata level (without
 * {@code odata.metadata}), or null for a delete or an expiry, whose {@code ETag} is null too.
 * {@code Principal} and {@code CommandId} are null for an expiry (no client made it).
 */
public final class HistoryJsonWriter {
    private HistoryJsonWriter() {
    }

    /** The name of an operation in the history and the change feed: {@code Inserted}, {@code Replaced}, … */
    public static String operationName(EntityChange.Type type) {
        String lower = type.name().toLowerCase(Locale.ROOT);
        return Character.toUpperCase(lower.charAt(0)) + lower.substring(1);
    }

    public static void write(OutputStream out, ODataContext context, List<ChangeEvent> versions, MetadataLevel level)
            throws IOException {
        try (JsonGenerator g = JsonSupport.generator(out)) {
            g.writeStartObject();
            g.writeArrayFieldStart("value");
            for (ChangeEvent event : versions) {
                writeVersion(g, context, event, level);
            }
            g.writeEndArray();
            g.writeEndObject();
        }
    }

    /**
     * A page of a table's change feed (a Tablestream extension): {@code {"value":[…],"Cursor":"…"}},
     * each event laid out as a version of the history, oldest first within a partition, and the cursor
     * to read on from.
     */
    public static void writeFeed(OutputStream out, ODataContext context, List<ChangeEvent> events, String cursor,
                                 MetadataLevel level) throws IOException {
        try (JsonGenerator g = JsonSupport.generator(out)) {
            g.writeStartObject();
            g.writeArrayFieldStart("value");
            for (ChangeEvent event : events) {
                writeVersion(g, context, event, level);
            }
            g.writeEndArray();
            g.writeStringField("Cursor", cursor);
            g.writeEndObject();
        }
    }

    /** One version: what changed, when, by whom, and the entity it left. */
    static void writeVersion(JsonGenerator g, ODataContext context, ChangeEvent event, MetadataLevel level)
            throws IOException {
        EntityChange change = event.change();
        g.writeStartObject();
        g.writeStringField("Operation", operationName(change.type()));
        g.writeStringField("PartitionKey", change.partitionKey());
        g.writeStringField("RowKey", change.rowKey());
        g.writeStringField("Timestamp", event.changedAt().toIso());
        Entity version = change.newVersion() == null ? null : change.newVersion().entity();
        ETag etag = version == null ? null : version.etag();
        nullable(g, "ETag", etag == null ? null : etag.value());
        nullable(g, "Principal", event.principal());
        nullable(g, "CommandId", event.commandId());
        if (version == null) {
            g.writeNullField("Entity");
        } else {
            g.writeObjectFieldStart("Entity");
            EntityJsonWriter.writeMembers(g, context, version, level, Select.all());
            g.writeEndObject();
        }
        g.writeEndObject();
    }

    private static void nullable(JsonGenerator g, String name, String value) throws IOException {
        if (value == null) {
            g.writeNullField(name);
        } else {
            g.writeStringField(name, value);
        }
    }
}
