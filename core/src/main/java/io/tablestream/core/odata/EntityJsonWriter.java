package io.tablestream.core.odata;

import io.tablestream.core.filter.Select;

import com.fasterxml.jackson.core.Base64Variants;
import com.fasterxml.jackson.core.JsonGenerator;
import io.tablestream.core.model.EdmBinary;
import io.tablestream.core.model.EdmBoolean;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.EdmDouble;
import io.tablestream.core.model.EdmGuid;
import io.tablestream.core.model.EdmInt32;
import io.tablestream.core.model.EdmInt64;
import io.tablestream.core.model.EdmString;
import io.tablestream.core.model.EdmType;
import io.tablestream.core.model.EdmValue;
import io.tablestream.core.model.Entity;
import io.tablestream.core.rules.PropertyNames;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Map;

/**
 * Writes one entity as the service does for Get Entity and for Insert Entity with
 * {@code Prefer: return-content}; {@link EntityFeedWriter} writes Query Entities feeds with the same
 * entity layout.
 *
 * <h2>Layout</h2>
 * In this order (recorded Azure responses, API version 2019-02-02, in the azure-sdk-for-js tests, and
 * Azure's documented full-metadata example):
 * <ul>
 *   <li>{@code odata.metadata}: {@code {baseUrl}/$metadata#{Table}/@Element} (single entity only, not at no metadata);</li>
 *   <li>full metadata: {@code odata.type} {@code {account}.{Table}}, {@code odata.id}
 *       {@code {baseUrl}/{Table}(PartitionKey='..',RowKey='..')};</li>
 *   <li>{@code odata.etag} (minimal and full: the service sends it at minimal metadata today);</li>
 *   <li>full metadata: {@code odata.editLink} {@code {Table}(PartitionKey='..',RowKey='..')}
 *       (keys quoted as in {@link ODataUrls#keyLiteral});</li>
 *   <li>PartitionKey, RowKey, then Timestamp, annotated {@code Edm.DateTime} at full metadata only (the
 *       service declares system property types in {@code $metadata} and annotates them only at full
 *       metadata, per its documentation and its recorded minimal responses);</li>
 *   <li>the custom properties in stored order.</li>
 * </ul>
 *
 * <h2>Annotations and values</h2>
 * At minimal and full metadata alike, a custom property gets {@code Name@odata.type} (before the value)
 * exactly when JSON cannot carry its type: {@code Edm.Int64} (a string), {@code Edm.DateTime},
 * {@code Edm.Guid}, {@code Edm.Binary}, and an {@code Edm.Double} that is NaN, infinite or integral.
 * Strings, Int32s, Booleans and non-integral Doubles are never annotated, not even at full metadata: the
 * service does the same (Azure/azure-sdk-for-js#15950, and the recorded full-metadata feed in Azure's
 * node SDK tests), and clients infer them from the JSON type.
 *
 * <p>Integral Doubles are a deliberate difference: the service writes {@code 2.0} as an unannotated
 * {@code 2}, which every SDK reads back as an Int32 (Azure/azure-sdk-for-js#19899 and #28924,
 * microsoft/AzureStorageExplorer#5356). We write it as {@code 2.0} with an {@code Edm.Double} annotation,
 * so the Java SDK (which honours annotations and otherwise reads a JSON float as a Double) and the
 * others read back the type that was stored.
 *
 * <p>Values: Int64 as a decimal string; Doubles in the shortest form that reads back to the same bits
 * ({@code 0.1}, {@code 2.0}, {@code 1.0E300}, {@code 4.9E-324}), NaN and the infinities as the strings
 * {@code "NaN"}, {@code "Infinity"}, {@code "-Infinity"}; DateTimes with seven fractional digits and
 * {@code Z}; Guids hyphenated in lower case; Binary as standard base64 with padding. At no metadata the
 * same values are written without annotations (clients then see Int64/DateTime/Guid/Binary as strings:
 * that is what no metadata means).
 */
public final class EntityJsonWriter {

    private EntityJsonWriter() {
    }

    /** A single entity with all its properties. */
    public static void writeEntity(OutputStream out, ODataContext context, Entity entity, MetadataLevel level)
            throws IOException {
        writeEntity(out, context, entity, level, Select.all());
    }

    /** A single entity, restricted to {@code projection} ({@code $select}). */
    public static void writeEntity(OutputStream out, ODataContext context, Entity entity, MetadataLevel level,
                                   Select projection) throws IOException {
        try (JsonGenerator g = JsonSupport.generator(out)) {
            g.writeStartObject();
            if (level != MetadataLevel.NO) {
                g.writeStringField("odata.metadata", ODataUrls.entityMetadata(context, projection));
            }
            writeMembers(g, context, entity, level, projection);
            g.writeEndObject();
        }
    }

    /**
     * An entity as one self-describing JSON object, without control information: its keys, its
     * Timestamp (when stored) and its properties, each annotated with {@code @odata.type} where the
     * JSON value alone does not say its type (as at minimal metadata). Azure's own entity JSON, which
     * a Table service reads back as the same typed entity: the line of the tablestream command's JSON
     * Lines files and of its change-feed tail.
     */
    public static void writeSelfDescribing(OutputStream out, Entity entity) throws IOException {
        try (JsonGenerator g = JsonSupport.generator(out)) {
            g.writeStartObject();
            writeMembers(g, null, new Entity(entity.partitionKey(), entity.rowKey(), entity.timestamp(), null,
                    entity.properties()), MetadataLevel.MINIMAL, Select.all());
            g.writeEndObject();
        }
    }

    /** The members of an entity object (no braces, no {@code odata.metadata}). */
    static void writeMembers(JsonGenerator g, ODataContext context, Entity entity, MetadataLevel level,
                             Select projection) throws IOException {
        if (level == MetadataLevel.FULL) {
            g.writeStringField("odata.type", ODataUrls.entityType(context));
            g.writeStringField("odata.id", ODataUrls.entityId(context, entity.partitionKey(), entity.rowKey()));
        }
        if (level != MetadataLevel.NO && entity.etag() != null) {
            g.writeStringField("odata.etag", entity.etag().value());
        }
        if (level == MetadataLevel.FULL) {
            g.writeStringField("odata.editLink", ODataUrls.entityEditLink(context, entity.partitionKey(), entity.rowKey()));
        }
        if (projection.includes(PropertyNames.PARTITION_KEY)) {
            g.writeStringField(PropertyNames.PARTITION_KEY, entity.partitionKey());
        }
        if (projection.includes(PropertyNames.ROW_KEY)) {
            g.writeStringField(PropertyNames.ROW_KEY, entity.rowKey());
        }
        if (entity.timestamp() != null && projection.includes(PropertyNames.TIMESTAMP)) {
            if (level == MetadataLevel.FULL) {
                g.writeStringField(PropertyNames.TIMESTAMP + ODataJsonReader.ODATA_TYPE_SUFFIX, EdmType.DATE_TIME.odataName());
            }
            g.writeStringField(PropertyNames.TIMESTAMP, entity.timestamp().toIso());
        }
        Map<String, EdmValue> properties = entity.properties();
        for (Map.Entry<String, EdmValue> property : properties.entrySet()) {
            if (projection.includes(property.getKey())) {
                writeProperty(g, property.getKey(), property.getValue(), level);
            }
        }
        if (!projection.isAll()) {
            for (String name : projection.names()) {
                if (!PropertyNames.isSystem(name) && !properties.containsKey(name)) {
                    g.writeNullField(name);
                }
            }
        }
    }

    private static void writeProperty(JsonGenerator g, String name, EdmValue value, MetadataLevel level)
            throws IOException {
        if (level != MetadataLevel.NO && needsAnnotation(value)) {
            g.writeStringField(name + ODataJsonReader.ODATA_TYPE_SUFFIX, value.type().odataName());
        }
        g.writeFieldName(name);
        writeValue(g, value);
    }

    /** Whether a client could not tell the type from the JSON value alone. */
    static boolean needsAnnotation(EdmValue value) {
        switch (value.type()) {
            case INT64:
            case DATE_TIME:
            case GUID:
            case BINARY:
                return true;
            case DOUBLE:
                double d = ((EdmDouble) value).value();
                return !Double.isFinite(d) || d == Math.rint(d);
            default:
                return false;
        }
    }

    private static void writeValue(JsonGenerator g, EdmValue value) throws IOException {
        switch (value.type()) {
            case STRING:
                g.writeString(((EdmString) value).value());
                break;
            case INT32:
                g.writeNumber(((EdmInt32) value).value());
                break;
            case BOOLEAN:
                g.writeBoolean(((EdmBoolean) value).value());
                break;
            case INT64:
                g.writeString(Long.toString(((EdmInt64) value).value()));
                break;
            case DOUBLE:
                writeDouble(g, ((EdmDouble) value).value());
                break;
            case DATE_TIME:
                g.writeString(((EdmDateTime) value).toIso());
                break;
            case GUID:
                g.writeString(((EdmGuid) value).value().toString());
                break;
            case BINARY:
                byte[] bytes = ((EdmBinary) value).toByteArray();
                g.writeBinary(Base64Variants.MIME_NO_LINEFEEDS, bytes, 0, bytes.length);
                break;
            default:
                throw new IllegalStateException(value.type().name());
        }
    }

    private static void writeDouble(JsonGenerator g, double d) throws IOException {
        if (Double.isNaN(d)) {
            g.writeString("NaN");
        } else if (d == Double.POSITIVE_INFINITY) {
            g.writeString("Infinity");
        } else if (d == Double.NEGATIVE_INFINITY) {
            g.writeString("-Infinity");
        } else {
            g.writeNumber(d);
        }
    }
}
