package io.tablestream.core.odata;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.model.EdmType;
import io.tablestream.core.model.EdmValue;
import io.tablestream.core.rules.Limits;
import io.tablestream.core.rules.PropertyNames;
import java.io.CharConversionException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;

/**
 * Reads the JSON request bodies of the Table service: entities and Create Table. It parses and types;
 * the data-model rules (names, counts, sizes, keys) are {@link io.tablestream.core.rules.EntityRules}'s.
 * Every failure is a {@link TableServiceException}; nothing from Jackson escapes. An {@link IOException}
 * of the stream itself (the connection, not the JSON) is rethrown as {@link UncheckedIOException}.
 *
 * <h2>An entity body</h2>
 * A JSON object whose members are, in any order:
 * <ul>
 *   <li>{@code odata.*} control information: ignored, whatever its value;</li>
 *   <li>{@code PartitionKey}, {@code RowKey}: strings, or null/absent (update operations take their keys
 *       from the URL); any other JSON type is {@code InvalidInput} (the service answers a numeric key so);</li>
 *   <li>{@code Timestamp} (and its annotation): ignored, the server sets it;</li>
 *   <li>{@code Name@odata.type}: the type of property {@code Name}, before or after its value (the official
 *       SDKs send both orders: the Java one builds the body from a HashMap);</li>
 *   <li>anything else: a property and its value.</li>
 * </ul>
 *
 * <h2>Types</h2>
 * Unannotated values are inferred as the service documents ("type detection heuristics" in
 * <em>Payload format for Table service operations</em>): string → {@code Edm.String}, {@code true/false} →
 * {@code Edm.Boolean}, a number without decimal point → {@code Edm.Int32}, with one → {@code Edm.Double}.
 * A number with an exponent is a Double too, and so is an integral number outside Int32: the service stores
 * it as a Double (reported in microsoft/AzureStorageExplorer#1382, "if I don't set the type, my number
 * 5454161346626 become a Double"), which is also how its OData reader types any number that fails to
 * parse as Int32.
 *
 * <p>Annotated values must be what the annotation says; the service's OData reader converts strings to
 * the annotated primitive, so strings are accepted where it accepts them:
 * <ul>
 *   <li>{@code Edm.Binary}: a standard base64 string with padding (whitespace ignored);</li>
 *   <li>{@code Edm.Boolean}: {@code true}/{@code false}, or the strings {@code "true"}/{@code "false"};</li>
 *   <li>{@code Edm.DateTime}: a string {@link io.tablestream.core.model.EdmDateTime#parse} accepts; a
 *       well-formed one outside 1601..9999 is {@code OutOfRangeInput} (the service's answer to .NET's
 *       DateTime.MinValue, Azure/Azurite#1757), anything else {@code InvalidInput};</li>
 *   <li>{@code Edm.Double}: any JSON number, or a string: {@code "NaN"}, {@code "Infinity"},
 *       {@code "-Infinity"}, the XML Schema spellings {@code "INF"}/{@code "-INF"} (the service's .NET
 *       conversion accepts both), or a decimal numeric string (recorded Azure traffic in the azure-sdk-for-js
 *       tests sends {@code "1.23456789012346e+24"} annotated Edm.Double and the service stores the Double).
 *       A literal that overflows to infinity is {@code InvalidInput} (the service rejects
 *       {@code 1.797693134862316e308}, per Azurite's alignment note in EdmDouble);</li>
 *   <li>{@code Edm.Guid}: a string in a .NET Guid format (32 digits, hyphenated, braced or parenthesised);</li>
 *   <li>{@code Edm.Int32}: a JSON integer in range, or a string of one;</li>
 *   <li>{@code Edm.Int64}: a string of an integer in range. A JSON number is {@code InvalidInput}: OData v3
 *       JSON represents Int64 only as a string, and the service's reader refuses an Int64 given as a number;</li>
 *   <li>{@code Edm.String}: a string.</li>
 * </ul>
 *
 * <h2>Errors</h2>
 * All 400:
 * <ul>
 *   <li>{@code DuplicatePropertiesSpecified}: a member (property, key or annotation) given twice;</li>
 *   <li>{@code InvalidInput}: malformed JSON, a body that is not one object, trailing content, an object or
 *       array as a property value, a value not of its annotated type, an annotation naming a type the
 *       service does not have, a non-string annotation, an annotation for a property that has no value
 *       (the service's OData reader: open properties must have values), a nesting or number-length limit
 *       broken. The service answers its OData reader's failures with {@code InvalidInput} ("One of the
 *       request inputs is not valid."), as Azurite does for every typing failure; we found no case where it
 *       uses {@code InvalidValueType} for a body, so that code is not used here;</li>
 *   <li>{@code OutOfRangeInput}: a DateTime outside the service's range;</li>
 *   <li>{@code TooManyProperties}: more than {@value #MAX_MEMBERS} members (a sanity bound far above the
 *       255 properties an entity may have, checked while reading);</li>
 *   <li>{@code RequestBodyTooLarge} (413): a body over {@link JsonSupport#MAX_DOCUMENT_BYTES} bytes.</li>
 * </ul>
 * A null value means the property is absent (the service does not store nulls); its annotation, if any,
 * must still name a valid type.
 *
 * <p>One class, over 400 lines: every body (an entity, a Create Table, a restore, a bulk line) is read
 * by the same streaming parser with the same limits and the same errors; split by body, the limits
 * and the error mapping would be repeated or drift.
 */
public final class ODataJsonReader {
    static final String ODATA_TYPE_SUFFIX = "@odata.type";
    static final String ODATA_PREFIX = "odata.";
    static final String TABLE_NAME = "TableName";
    /** The point in time of a restore request (an extension). */
    static final String AS_OF = "AsOf";
    static final String TTL_IN_SECONDS = "TTLInSeconds";
    static final String HISTORY_RETENTION_IN_SECONDS = "HistoryRetentionInSeconds";
    /** Members of one object, annotations and control information included. */
    static final int MAX_MEMBERS = 4 * Limits.MAX_PROPERTIES;

    private ODataJsonReader() {
    }

    /** An entity body. */
    public static EntityBody readEntity(byte[] body) {
        try (JsonParser parser = JsonSupport.FACTORY.createParser(body)) {
            return readWhole(parser, ODataJsonReader::readEntityObject);
        } catch (IOException e) {
            throw translate(e);
        }
    }

    /** An entity body held in {@code length} bytes of {@code bytes} from {@code offset} (one line of a bulk body). */
    public static EntityBody readEntity(byte[] bytes, int offset, int length) {
        try (JsonParser parser = JsonSupport.FACTORY.createParser(bytes, offset, length)) {
            return readWhole(parser, ODataJsonReader::readEntityObject);
        } catch (IOException e) {
            throw translate(e);
        }
    }

    /** An entity body, read to its end; the stream is not closed. */
    public static EntityBody readEntity(InputStream body) {
        try (JsonParser parser = JsonSupport.FACTORY.createParser(body)) {
            return readWhole(parser, ODataJsonReader::readEntityObject);
        } catch (IOException e) {
            throw translate(e);
        }
    }

    /** A Create Table body. */
    public static CreateTableBody readCreateTable(byte[] body) {
        try (JsonParser parser = JsonSupport.FACTORY.createParser(body)) {
            return readWhole(parser, ODataJsonReader::readCreateTableObject);
        } catch (IOException e) {
            throw translate(e);
        }
    }

    /** A Create Table body, read to its end; the stream is not closed. */
    public static CreateTableBody readCreateTable(InputStream body) {
        try (JsonParser parser = JsonSupport.FACTORY.createParser(body)) {
            return readWhole(parser, ODataJsonReader::readCreateTableObject);
        } catch (IOException e) {
            throw translate(e);
        }
    }

    /** A restore request's body ({@code {"TableName":..,"AsOf":..}}, both JSON strings; others are ignored). */
    public static RestoreTableBody readRestore(byte[] body) {
        try (JsonParser parser = JsonSupport.FACTORY.createParser(body)) {
            return readWhole(parser, ODataJsonReader::readRestoreObject);
        } catch (IOException e) {
            throw translate(e);
        }
    }

    private static RestoreTableBody readRestoreObject(JsonParser parser) throws IOException {
        String[] tableName = new String[1];
        String[] asOf = new String[1];
        readMembers(parser, (name, value) -> {
            if (name.equals(TABLE_NAME)) {
                tableName[0] = string(parser, value, name);
            } else if (name.equals(AS_OF)) {
                asOf[0] = string(parser, value, name);
            } else {
                parser.skipChildren();
            }
        });
        return new RestoreTableBody(tableName[0], asOf[0]);
    }

    private interface ObjectReader<T> {
        T read(JsonParser parser) throws IOException;
    }

    private static <T> T readWhole(JsonParser parser, ObjectReader<T> reader) throws IOException {
        try {
            JsonToken first = parser.nextToken();
            if (first == null) {
                throw TableServiceException.of(ErrorCode.INVALID_INPUT, "The request body is empty; a JSON object was expected.");
            }
            if (first != JsonToken.START_OBJECT) {
                throw TableServiceException.of(ErrorCode.INVALID_INPUT, "The request body is not a JSON object.");
            }
            T result = reader.read(parser);
            if (parser.nextToken() != null) {
                throw TableServiceException.of(ErrorCode.INVALID_INPUT, "The request body has content after its JSON object.");
            }
            return result;
        } catch (IllegalStateException e) {
            // Jackson's guard against hash-flooded member names.
            throw TableServiceException.of(ErrorCode.INVALID_INPUT, "The request body could not be read as JSON.", e);
        }
    }

    private static RuntimeException translate(IOException e) {
        if (e instanceof StreamConstraintsException && e.getMessage() != null && e.getMessage().contains("Document length")) {
            return TableServiceException.of(ErrorCode.REQUEST_BODY_TOO_LARGE,
                    "The request body is larger than " + JsonSupport.MAX_DOCUMENT_BYTES + " bytes.", e);
        }
        if (e instanceof JsonProcessingException || e instanceof CharConversionException) {
            return TableServiceException.of(ErrorCode.INVALID_INPUT,
                    "The request body is not valid JSON: " + ((e instanceof JsonProcessingException jpe) ? jpe.getOriginalMessage() : e.getMessage()), e);
        }
        return new UncheckedIOException(e);
    }

    /**
     * The entity object the parser stands at ({@code START_OBJECT}), read up to and including its
     * {@code END_OBJECT}. For bodies embedded in larger documents (and tests); JSON errors surface as
     * Jackson exceptions for the caller to translate.
     */
    static EntityBody readEntityObject(JsonParser parser) throws IOException {
        EntityCollector collector = new EntityCollector();
        JsonToken token;
        while ((token = parser.nextToken()) == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            collector.member(name, parser.nextToken(), parser);
        }
        if (token != JsonToken.END_OBJECT) {
            throw TableServiceException.of(ErrorCode.INVALID_INPUT, "The entity object is incomplete.");
        }
        return collector.finish();
    }

    private static CreateTableBody readCreateTableObject(JsonParser parser) throws IOException {
        String[] tableName = new String[1];
        OptionalInt[] ttl = {OptionalInt.empty()};
        OptionalInt[] history = {OptionalInt.empty()};
        readMembers(parser, (name, value) -> {
            if (name.equals(TABLE_NAME)) {
                tableName[0] = string(parser, value, name);
            } else if (name.equals(TTL_IN_SECONDS)) {
                ttl[0] = int32(parser, value, TTL_IN_SECONDS);
            } else if (name.equals(HISTORY_RETENTION_IN_SECONDS)) {
                history[0] = int32(parser, value, HISTORY_RETENTION_IN_SECONDS);
            } else {
                parser.skipChildren();
            }
        });
        return new CreateTableBody(tableName[0], ttl[0], history[0]);
    }

    /** A member of a small request object, read as it comes. */
    private interface MemberReader {
        void read(String name, JsonToken value) throws IOException;
    }

    /** Reads an object's members (after its start) to its end: each name at most once, at most {@value #MAX_MEMBERS}. */
    private static void readMembers(JsonParser parser, MemberReader reader) throws IOException {
        Set<String> seen = new HashSet<>();
        JsonToken token;
        while ((token = parser.nextToken()) == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            JsonToken value = parser.nextToken();
            if (!seen.add(name)) {
                throw duplicate(name);
            }
            if (seen.size() > MAX_MEMBERS) {
                throw tooManyMembers();
            }
            reader.read(name, value);
        }
        if (token != JsonToken.END_OBJECT) {
            throw TableServiceException.of(ErrorCode.INVALID_INPUT, "The request body is incomplete.");
        }
    }

    /** An optional string member: a JSON string, or null (absent). */
    private static String string(JsonParser parser, JsonToken value, String name) throws IOException {
        if (value == JsonToken.VALUE_STRING) {
            return parser.getText();
        }
        if (value != JsonToken.VALUE_NULL) {
            throw TableServiceException.of(ErrorCode.INVALID_INPUT, name + " must be a JSON string.");
        }
        return null;
    }

    /** An optional Edm.Int32 member of the Create Table body: a JSON integer, or null (absent). */
    private static OptionalInt int32(JsonParser parser, JsonToken value, String name) throws IOException {
        if (value == JsonToken.VALUE_NULL) {
            return OptionalInt.empty();
        }
        if (value != JsonToken.VALUE_NUMBER_INT) {
            throw TableServiceException.of(ErrorCode.INVALID_INPUT, name + " must be a JSON integer (Edm.Int32).");
        }
        try {
            return OptionalInt.of(Integer.parseInt(parser.getText()));
        } catch (NumberFormatException e) {
            throw TableServiceException.of(ErrorCode.INVALID_INPUT, name + " is outside the range of Edm.Int32.");
        }
    }

    static TableServiceException duplicate(String name) {
        return TableServiceException.of(ErrorCode.DUPLICATE_PROPERTIES_SPECIFIED,
                "The member '" + name + "' is specified more than once.");
    }

    private static TableServiceException tooManyMembers() {
        return TableServiceException.of(ErrorCode.TOO_MANY_PROPERTIES,
                "The request body has more than " + MAX_MEMBERS + " members.");
    }

    /** Collects one entity object's members, then types the values once all annotations are known. */
    private static final class EntityCollector {
        private String partitionKey;
        private String rowKey;
        /** Values in document order; null JSON values are remembered as names only. */
        private final Map<String, JsonScalar> values = new LinkedHashMap<>();
        /** Every member name seen (properties, keys, Timestamp, nulls included), for duplicates. */
        private final Set<String> valueNames = new HashSet<>();
        private final Map<String, String> annotations = new HashMap<>();
        private int members;

        void member(String name, JsonToken value, JsonParser parser) throws IOException {
            if (++members > MAX_MEMBERS) {
                throw tooManyMembers();
            }
            if (name.startsWith(ODATA_PREFIX)) {
                parser.skipChildren();
                return;
            }
            if (name.endsWith(ODATA_TYPE_SUFFIX)) {
                String property = name.substring(0, name.length() - ODATA_TYPE_SUFFIX.length());
                if (value != JsonToken.VALUE_STRING) {
                    parser.skipChildren();
                    throw TableServiceException.of(ErrorCode.INVALID_INPUT,
                            "The annotation '" + name + "' must be a JSON string naming an Edm type.");
                }
                if (annotations.putIfAbsent(property, parser.getText()) != null) {
                    throw duplicate(name);
                }
                return;
            }
            if (!valueNames.add(name)) {
                throw duplicate(name);
            }
            switch (name) {
                case PropertyNames.TIMESTAMP:
                    parser.skipChildren();
                    return;
                case PropertyNames.PARTITION_KEY:
                    partitionKey = keyValue(name, value, parser);
                    return;
                case PropertyNames.ROW_KEY:
                    rowKey = keyValue(name, value, parser);
                    return;
                default:
                    break;
            }
            switch (value) {
                case VALUE_NULL:
                    return;
                case VALUE_STRING:
                    values.put(name, new JsonScalar(JsonScalar.Kind.STRING, parser.getText()));
                    return;
                case VALUE_NUMBER_INT:
                    values.put(name, new JsonScalar(JsonScalar.Kind.INTEGER, parser.getText()));
                    return;
                case VALUE_NUMBER_FLOAT:
                    values.put(name, new JsonScalar(JsonScalar.Kind.DECIMAL, parser.getText()));
                    return;
                case VALUE_TRUE:
                    values.put(name, new JsonScalar(JsonScalar.Kind.TRUE, "true"));
                    return;
                case VALUE_FALSE:
                    values.put(name, new JsonScalar(JsonScalar.Kind.FALSE, "false"));
                    return;
                default:
                    throw TableServiceException.of(ErrorCode.INVALID_INPUT, "The value of property '" + name
                            + "' is a JSON " + (value == JsonToken.START_ARRAY ? "array" : "object")
                            + "; property values must be strings, numbers or booleans.");
            }
        }

        private static String keyValue(String name, JsonToken value, JsonParser parser) throws IOException {
            if (value == JsonToken.VALUE_STRING) {
                return parser.getText();
            }
            if (value == JsonToken.VALUE_NULL) {
                return null;
            }
            parser.skipChildren();
            throw TableServiceException.of(ErrorCode.INVALID_INPUT, "The " + name + " must be a JSON string.");
        }

        EntityBody finish() {
            Map<String, EdmType> types = new HashMap<>();
            for (Map.Entry<String, String> annotation : annotations.entrySet()) {
                String property = annotation.getKey();
                EdmType type = EdmType.fromODataName(annotation.getValue());
                if (type == null) {
                    throw TableServiceException.of(ErrorCode.INVALID_INPUT, "The type '" + annotation.getValue()
                            + "' of property '" + property + "' is not one of the service's Edm types.");
                }
                if (!valueNames.contains(property)) {
                    throw TableServiceException.of(ErrorCode.INVALID_INPUT,
                            "The property '" + property + "' has a type annotation but no value.");
                }
                if ((property.equals(PropertyNames.PARTITION_KEY) || property.equals(PropertyNames.ROW_KEY))
                        && type != EdmType.STRING) {
                    throw TableServiceException.of(ErrorCode.INVALID_INPUT, "The " + property + " must be an Edm.String.");
                }
                types.put(property, type);
            }
            Map<String, EdmValue> properties = new LinkedHashMap<>(values.size() * 2);
            for (Map.Entry<String, JsonScalar> entry : values.entrySet()) {
                String name = entry.getKey();
                EdmType type = types.get(name);
                JsonScalar scalar = entry.getValue();
                properties.put(name, type == null ? scalar.infer(name) : scalar.as(type, name));
            }
            return new EntityBody(partitionKey, rowKey, properties);
        }
    }
}
