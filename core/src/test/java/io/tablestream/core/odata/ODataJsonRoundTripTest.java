package io.tablestream.core.odata;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.tablestream.core.model.EdmBinary;
import io.tablestream.core.model.EdmBoolean;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.EdmDouble;
import io.tablestream.core.model.EdmGuid;
import io.tablestream.core.model.EdmInt32;
import io.tablestream.core.model.EdmInt64;
import io.tablestream.core.model.EdmString;
import io.tablestream.core.model.EdmValue;
import io.tablestream.core.model.Entity;
import io.tablestream.core.model.TableName;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/** Write with the writers, read back with the reader: the values must come back equal. */
class ODataJsonRoundTripTest {
    private static final ODataContext CONTEXT =
            ODataContext.forService("http://127.0.0.1:10002/devstoreaccount1", "devstoreaccount1")
                    .withTable(TableName.of("RoundTrip"));
    private static final EdmDateTime STORED_AT = EdmDateTime.of(Instant.parse("2024-05-01T12:00:00.1234567Z"));

    static Stream<EdmValue> extremes() {
        byte[] random64k = new byte[64 * 1024];
        new Random(7).nextBytes(random64k);
        return Stream.of(
                EdmInt32.of(Integer.MIN_VALUE), EdmInt32.of(Integer.MAX_VALUE), EdmInt32.of(0), EdmInt32.of(-1),
                EdmInt64.of(Long.MIN_VALUE), EdmInt64.of(Long.MAX_VALUE), EdmInt64.of(0), EdmInt64.of(1L << 53),
                EdmDouble.of(Double.MIN_VALUE), EdmDouble.of(-Double.MIN_VALUE), EdmDouble.of(Double.MAX_VALUE),
                EdmDouble.of(-Double.MAX_VALUE), EdmDouble.of(Double.MIN_NORMAL), EdmDouble.of(0.0), EdmDouble.of(-0.0),
                EdmDouble.of(Double.NaN), EdmDouble.of(Double.POSITIVE_INFINITY), EdmDouble.of(Double.NEGATIVE_INFINITY),
                EdmDouble.of(0.1), EdmDouble.of(2.0), EdmDouble.of(-2.0), EdmDouble.of(1e300), EdmDouble.of(1e-300),
                EdmDouble.of(2147483648.0), EdmDouble.of(9007199254740993.0), EdmDouble.of(1.0 / 3),
                EdmDouble.of(2e23), EdmDouble.of(1.0E23), EdmDouble.of(5e-324 * 3),
                EdmBoolean.TRUE, EdmBoolean.FALSE,
                EdmDateTime.ofEpochTicks(EdmDateTime.MIN_EPOCH_TICKS), EdmDateTime.ofEpochTicks(EdmDateTime.MAX_EPOCH_TICKS),
                EdmDateTime.of(Instant.parse("2024-02-29T23:59:59.0000001Z")),
                EdmDateTime.of(Instant.parse("1970-01-01T00:00:00.0000009Z")),
                EdmDateTime.ofEpochTicks(-1), EdmDateTime.ofEpochTicks(0),
                EdmGuid.of(UUID.fromString("c9da6455-213d-42c9-9a79-3e9149a57833")),
                EdmGuid.of(new UUID(0, 0)), EdmGuid.of(new UUID(-1, -1)),
                EdmBinary.of(new byte[0]), EdmBinary.of(new byte[] {0}), EdmBinary.of(new byte[] {(byte) 0xFF, (byte) 0xFE}),
                EdmBinary.of(random64k),
                EdmString.of(""), EdmString.of("plain"), EdmString.of("\"quoted\" and 'single'"),
                EdmString.of("back\\slash \\\" \\u0041"), EdmString.of(controlCharacters()),
                EdmString.of("surrogate pairs: \uD83D\uDE00 \uD834\uDD1E"), EdmString.of("é ü ß 中文 \u2028\u2029"),
                EdmString.of("lone surrogates: \uD800 x \uDC00"), EdmString.of("x".repeat(32 * 1024)),
                EdmString.of("\uD83D\uDE00".repeat(16 * 1024)), EdmString.of("NaN"), EdmString.of("123"));
    }

    @ParameterizedTest
    @MethodSource("extremes")
    void readsBackEveryValueItWritesAtMinimalMetadata(EdmValue value) throws IOException {
        assertThat(roundTrip(entityWith(value), MetadataLevel.MINIMAL).properties()).containsExactly(Map.entry("P", value));
    }

    @ParameterizedTest
    @MethodSource("extremes")
    void readsBackEveryValueItWritesAtFullMetadata(EdmValue value) throws IOException {
        assertThat(roundTrip(entityWith(value), MetadataLevel.FULL).properties()).containsExactly(Map.entry("P", value));
    }

    @ParameterizedTest
    @MethodSource("extremes")
    void readsBackAtNoMetadataWhatJsonAloneCanCarry(EdmValue value) throws IOException {
        assertThat(roundTrip(entityWith(value), MetadataLevel.NO).properties())
                .containsExactly(Map.entry("P", asSeenWithoutMetadata(value)));
    }

    @Test
    void writesEveryDoubleBitExactly() throws IOException {
        Random random = new Random(20240501);
        Map<String, EdmValue> properties = new LinkedHashMap<>();
        for (int round = 0; round < 50; round++) {
            properties.clear();
            for (int i = 0; i < 200; i++) {
                properties.put("d" + i, EdmDouble.of(Double.longBitsToDouble(random.nextLong())));
            }
            Entity entity = Entity.of("pk", "rk", properties).withVersion(STORED_AT);
            for (MetadataLevel level : MetadataLevel.values()) {
                Map<String, EdmValue> back = roundTrip(entity, level).properties();
                for (Map.Entry<String, EdmValue> p : properties.entrySet()) {
                    double expected = ((EdmDouble) p.getValue()).value();
                    EdmValue actual = back.get(p.getKey());
                    if (level == MetadataLevel.NO && !Double.isFinite(expected)) {
                        assertThat(actual).isInstanceOf(EdmString.class);
                    } else {
                        assertThat(actual).isInstanceOf(EdmDouble.class);
                        assertThat(Double.doubleToLongBits(((EdmDouble) actual).value()))
                                .as("%s", expected).isEqualTo(Double.doubleToLongBits(expected));
                    }
                }
            }
        }
    }

    @ParameterizedTest
    @EnumSource(MetadataLevel.class)
    void roundTripsRandomEntitiesOneByOne(MetadataLevel level) throws IOException {
        Random random = new Random(42 + level.ordinal());
        for (int i = 0; i < 1500; i++) {
            Entity entity = randomEntity(random);
            EntityBody back = roundTrip(entity, level);
            assertThat(back.partitionKey()).isEqualTo(entity.partitionKey());
            assertThat(back.rowKey()).isEqualTo(entity.rowKey());
            assertThat(back.properties()).containsExactlyEntriesOf(expectedAt(level, entity.properties()));
        }
    }

    @ParameterizedTest
    @EnumSource(MetadataLevel.class)
    void roundTripsRandomEntitiesThroughAFeed(MetadataLevel level) throws IOException {
        Random random = new Random(4242 + level.ordinal());
        List<Entity> entities = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            entities.add(randomEntity(random));
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        EntityFeedWriter feed = EntityFeedWriter.begin(out, CONTEXT, level);
        for (Entity entity : entities) {
            feed.write(entity);
        }
        feed.finish();

        List<EntityBody> back = readFeed(out.toByteArray());
        assertThat(back).hasSameSizeAs(entities);
        for (int i = 0; i < entities.size(); i++) {
            assertThat(back.get(i).partitionKey()).isEqualTo(entities.get(i).partitionKey());
            assertThat(back.get(i).properties()).containsExactlyEntriesOf(expectedAt(level, entities.get(i).properties()));
        }
    }

    @Test
    void writesAnEmptyFeed() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        EntityFeedWriter.begin(out, CONTEXT, MetadataLevel.MINIMAL).finish();
        assertThat(readFeed(out.toByteArray())).isEmpty();
    }

    // --- helpers ---

    private static Entity entityWith(EdmValue value) {
        return Entity.of("pk", "rk", Map.of("P", value)).withVersion(STORED_AT);
    }

    private static EntityBody roundTrip(Entity entity, MetadataLevel level) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        EntityJsonWriter.writeEntity(out, CONTEXT, entity, level);
        return ODataJsonReader.readEntity(out.toByteArray());
    }

    private static List<EntityBody> readFeed(byte[] json) throws IOException {
        List<EntityBody> entities = new ArrayList<>();
        try (JsonParser parser = JsonSupport.FACTORY.createParser(json)) {
            assertThat(parser.nextToken()).isEqualTo(JsonToken.START_OBJECT);
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                JsonToken value = parser.nextToken();
                if (name.equals("value")) {
                    assertThat(value).isEqualTo(JsonToken.START_ARRAY);
                    while (parser.nextToken() == JsonToken.START_OBJECT) {
                        entities.add(ODataJsonReader.readEntityObject(parser));
                    }
                } else {
                    assertThat(name).isEqualTo("odata.metadata");
                }
            }
            assertThat(parser.nextToken()).isNull();
        }
        return entities;
    }

    private static Map<String, EdmValue> expectedAt(MetadataLevel level, Map<String, EdmValue> written) {
        if (level != MetadataLevel.NO) {
            return written;
        }
        Map<String, EdmValue> expected = new LinkedHashMap<>();
        written.forEach((name, value) -> expected.put(name, asSeenWithoutMetadata(value)));
        return expected;
    }

    /** Without annotations, what JSON cannot type comes back as the string it was written as. */
    private static EdmValue asSeenWithoutMetadata(EdmValue value) {
        switch (value.type()) {
            case INT64:
                return EdmString.of(Long.toString(((EdmInt64) value).value()));
            case DATE_TIME:
                return EdmString.of(((EdmDateTime) value).toIso());
            case GUID:
                return EdmString.of(((EdmGuid) value).value().toString());
            case BINARY:
                return EdmString.of(Base64.getEncoder().encodeToString(((EdmBinary) value).toByteArray()));
            case DOUBLE:
                double d = ((EdmDouble) value).value();
                if (Double.isNaN(d)) {
                    return EdmString.of("NaN");
                }
                if (Double.isInfinite(d)) {
                    return EdmString.of(d > 0 ? "Infinity" : "-Infinity");
                }
                return value;
            default:
                return value;
        }
    }

    private static String controlCharacters() {
        StringBuilder sb = new StringBuilder();
        for (char c = 0; c < 0x20; c++) {
            sb.append(c);
        }
        return sb.append('\u007F').append('\u0085').toString();
    }

    private static Entity randomEntity(Random random) {
        Map<String, EdmValue> properties = new LinkedHashMap<>();
        int count = random.nextInt(20);
        for (int i = 0; i < count; i++) {
            properties.put("p" + i + "_" + random.nextInt(1000), randomValue(random));
        }
        return Entity.of(randomString(random, 30), randomString(random, 30), properties)
                .withVersion(EdmDateTime.ofEpochTicks(randomTicks(random)));
    }

    private static EdmValue randomValue(Random random) {
        switch (random.nextInt(8)) {
            case 0:
                return EdmString.of(randomString(random, random.nextInt(20) == 0 ? 5000 : 40));
            case 1:
                return EdmInt32.of(random.nextBoolean() ? random.nextInt() : random.nextInt(100) - 50);
            case 2:
                return EdmInt64.of(random.nextBoolean() ? random.nextLong() : random.nextInt(100) - 50);
            case 3:
                return EdmDouble.of(randomDouble(random));
            case 4:
                return EdmBoolean.of(random.nextBoolean());
            case 5:
                return EdmDateTime.ofEpochTicks(randomTicks(random));
            case 6:
                return EdmGuid.of(new UUID(random.nextLong(), random.nextLong()));
            default:
                byte[] bytes = new byte[random.nextInt(100)];
                random.nextBytes(bytes);
                return EdmBinary.of(bytes);
        }
    }

    private static double randomDouble(Random random) {
        switch (random.nextInt(6)) {
            case 0:
                return Double.longBitsToDouble(random.nextLong());
            case 1:
                return random.nextInt(2000) - 1000; // integral
            case 2:
                return new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, -0.0, 0.0,
                        Double.MIN_VALUE, Double.MAX_VALUE}[random.nextInt(7)];
            default:
                return random.nextDouble() * Math.pow(10, random.nextInt(40) - 20);
        }
    }

    private static long randomTicks(Random random) {
        return EdmDateTime.MIN_EPOCH_TICKS
                + Math.floorMod(random.nextLong(), EdmDateTime.MAX_EPOCH_TICKS - EdmDateTime.MIN_EPOCH_TICKS + 1);
    }

    private static String randomString(Random random, int maxLength) {
        int length = random.nextInt(maxLength + 1);
        StringBuilder sb = new StringBuilder(length);
        while (sb.length() < length) {
            switch (random.nextInt(6)) {
                case 0:
                    sb.append((char) random.nextInt(0x20)); // control
                    break;
                case 1:
                    sb.append("\"\\'/".charAt(random.nextInt(4)));
                    break;
                case 2:
                    sb.append((char) (0x80 + random.nextInt(0xD800 - 0x80))); // BMP below surrogates
                    break;
                case 3:
                    sb.appendCodePoint(0x10000 + random.nextInt(0x10FFFF - 0x10000)); // surrogate pair
                    break;
                default:
                    sb.append((char) (0x20 + random.nextInt(0x5F))); // printable ASCII
                    break;
            }
        }
        return sb.toString();
    }
}
