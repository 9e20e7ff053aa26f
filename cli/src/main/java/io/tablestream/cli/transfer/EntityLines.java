package io.tablestream.cli.transfer;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The JSON Lines form of entities: one entity per line, as a self-describing JSON object — its
 * keys, its Timestamp, and its properties with an {@code Name@odata.type} annotation wherever the
 * JSON value alone does not say the type (Int64, DateTime, Guid, Binary, integral or non-finite
 * Double). That is the Table service's own entity JSON at minimal metadata without its control
 * information, so a line is also a valid body to write the entity back, to any Table service.
 */
public final class EntityLines {
    static final JsonFactory JSON = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxStringLength(8 * 1024 * 1024).build())
            .build();
    private static final String CONTROL_PREFIX = "odata.";

    private EntityLines() {
    }

    /** A page turned into lines: the bytes (each line ending in '\n') and how many entities. */
    public record Lines(byte[] bytes, int entities) {
    }

    /**
     * The entities of a Query Entities answer ({@code {"value":[{...},...]}} at minimal metadata)
     * as lines, without their control information ({@code odata.etag}, ...). Values are copied as
     * they were written (numbers keep their exact text).
     */
    public static Lines fromPage(byte[] page) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(page.length);
        int entities = 0;
        try (JsonParser p = JSON.createParser(page)) {
            expect(p.nextToken(), JsonToken.START_OBJECT);
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken value = p.nextToken();
                if (!field.equals("value")) {
                    p.skipChildren();
                    continue;
                }
                expect(value, JsonToken.START_ARRAY);
                while (p.nextToken() == JsonToken.START_OBJECT) {
                    try (JsonGenerator g = JSON.createGenerator(out)) {
                        copyEntity(p, g);
                    }
                    out.write('\n');
                    entities++;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("The service's answer is not an entity feed: " + e.getMessage(), e);
        }
        return new Lines(out.toByteArray(), entities);
    }

    /** Copies the object the parser stands at, members of control information left out. */
    static void copyEntity(JsonParser p, JsonGenerator g) throws IOException {
        g.writeStartObject();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            p.nextToken();
            if (name.startsWith(CONTROL_PREFIX)) {
                p.skipChildren();
                continue;
            }
            g.writeFieldName(name);
            g.copyCurrentStructure(p);
        }
        g.writeEndObject();
    }

    /** The keys of one entity line; {@link IllegalArgumentException} when it has none or is not JSON. */
    public static EntityKey keysOf(byte[] line, int offset, int length) {
        String pk = null;
        String rk = null;
        try (JsonParser p = JSON.createParser(line, offset, length)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IllegalArgumentException("not a JSON object");
            }
            while (p.nextToken() == JsonToken.FIELD_NAME && (pk == null || rk == null)) {
                String name = p.currentName();
                JsonToken value = p.nextToken();
                if (name.equals("PartitionKey") && value == JsonToken.VALUE_STRING) {
                    pk = p.getText();
                } else if (name.equals("RowKey") && value == JsonToken.VALUE_STRING) {
                    rk = p.getText();
                } else {
                    p.skipChildren();
                }
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("not JSON: " + (e instanceof com.fasterxml.jackson.core.JsonProcessingException j ? j.getOriginalMessage() : e.getMessage()));
        }
        if (pk == null || rk == null) {
            throw new IllegalArgumentException("an entity needs a PartitionKey and a RowKey (JSON strings)");
        }
        return new EntityKey(pk, rk);
    }

    /** An entity's keys. */
    public record EntityKey(String partitionKey, String rowKey) {
    }

    private static void expect(JsonToken actual, JsonToken expected) throws IOException {
        if (actual != expected) {
            throw new IOException("expected " + expected + ", found " + actual);
        }
    }
}
