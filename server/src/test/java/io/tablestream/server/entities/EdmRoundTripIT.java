package io.tablestream.server.entities;

import static io.tablestream.server.ServiceErrors.assertServiceError;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.TableEntity;
import io.tablestream.server.TableNames;
import io.tablestream.server.TablestreamServerExtension;
import io.tablestream.testsupport.KafkaExtension;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The eight Edm types through the official SDK, at full precision and at their extremes: each value
 * is written, read back by Get Entity and by a query, and must come back equal and of the same Java type.
 */
@ExtendWith({KafkaExtension.class, TablestreamServerExtension.class})
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EdmRoundTripIT {
    private final AtomicInteger rows = new AtomicInteger();
    private TableClient table;

    @BeforeAll
    void createTable(TableServiceClient service) {
        table = service.createTable(TableNames.unique("Edm"));
    }

    /** Writes {@code entity} under a fresh key and reads it back twice: by Get Entity and by a query. */
    private TableEntity[] roundTrip(TableEntity entity) {
        table.createEntity(entity);
        TableEntity got = table.getEntity(entity.getPartitionKey(), entity.getRowKey());
        TableEntity queried = table.listEntities(new ListEntitiesOptions().setFilter("PartitionKey eq '"
                + entity.getPartitionKey() + "' and RowKey eq '" + entity.getRowKey() + "'"), null, null)
                .stream().findFirst().orElseThrow();
        return new TableEntity[] {got, queried};
    }

    private TableEntity fresh() {
        return new TableEntity("edm", "r" + rows.incrementAndGet());
    }

    private void assertRoundTrips(Object value, Class<?> type) {
        for (TableEntity got : roundTrip(fresh().addProperty("V", value))) {
            assertThat(got.getProperty("V")).isInstanceOf(type).isEqualTo(value);
        }
    }

    // ------------------------------------------------------------------ String

    static Stream<String> strings() {
        return Stream.of("", "plain", "ünïcödé ça", "日本語のテキスト", "emoji \uD83D\uDE00 and \uD834\uDD1E",
                "quotes \" ' \\ and / slash", "{\"json\":[1,2]}", "tab\tnewline\nreturn\r", "control \u0001\u001f\u007f",
                "  leading and trailing  ", "null", "true", "123", "1.5", "2024-05-01T00:00:00Z",
                "c1b7f7e4-0a0c-4a27-9b4f-6a8e3cbd1f00", "AAEC", "x".repeat(32_768), "é".repeat(32_768));
    }

    @ParameterizedTest
    @MethodSource("strings")
    void stringsRoundTripAsStrings(String value) {
        assertRoundTrips(value, String.class);
    }

    // ------------------------------------------------------------------ Boolean, Int32, Int64

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void booleansRoundTrip(boolean value) {
        assertRoundTrips(value, Boolean.class);
    }

    @ParameterizedTest
    @ValueSource(ints = {Integer.MIN_VALUE, -1, 0, 1, Integer.MAX_VALUE})
    void int32sRoundTripAsIntegers(int value) {
        assertRoundTrips(value, Integer.class);
    }

    @ParameterizedTest
    @ValueSource(longs = {Long.MIN_VALUE, Integer.MIN_VALUE - 1L, -1, 0, 1, Integer.MAX_VALUE + 1L, 9_007_199_254_740_993L,
            Long.MAX_VALUE})
    void int64sRoundTripAsLongsAtFullPrecision(long value) {
        assertRoundTrips(value, Long.class);
    }

    // ------------------------------------------------------------------ Double

    @ParameterizedTest
    @ValueSource(doubles = {0.0, -0.0, 2.0, -2.0, 1.0e15, 0.1, 1.0 / 3, -1.5, Math.PI, Double.MIN_VALUE,
            Double.MIN_NORMAL, Double.MAX_VALUE, -Double.MAX_VALUE, 9_007_199_254_740_993.0, 1.0e300, 4.9e-324})
    void doublesRoundTripAsDoublesToTheBit(double value) {
        for (TableEntity got : roundTrip(fresh().addProperty("V", value))) {
            assertThat(got.getProperty("V")).isInstanceOf(Double.class);
            assertThat(Double.doubleToRawLongBits((Double) got.getProperty("V")))
                    .as("bits of %s", value).isEqualTo(Double.doubleToRawLongBits(value));
        }
    }

    @ParameterizedTest
    @ValueSource(doubles = {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY})
    void nonFiniteDoublesRoundTripWhenAnnotated(double value) {
        TableEntity entity = fresh().addProperty("V", value).addProperty("V@odata.type", "Edm.Double");

        for (TableEntity got : roundTrip(entity)) {
            assertThat(got.getProperty("V")).isInstanceOf(Double.class).isEqualTo(value);
        }
    }

    /**
     * The SDK annotates no Double, and writes NaN and the infinities as JSON strings: unannotated, the
     * service (like Azure) reads a string as an Edm.String.
     */
    @ParameterizedTest
    @ValueSource(doubles = {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY})
    void nonFiniteDoublesWithoutAnnotationAreStoredAsTheStringsTheSdkSends(double value) {
        for (TableEntity got : roundTrip(fresh().addProperty("V", value))) {
            assertThat(got.getProperty("V")).isEqualTo(Double.toString(value));
        }
    }

    // ------------------------------------------------------------------ DateTime

    static Stream<Arguments> dateTimes() {
        return Stream.of(
                Arguments.of("2024-05-01T12:34:56.1234567Z", "2024-05-01T12:34:56.1234567Z"),
                Arguments.of("2024-05-01T12:34:56Z", "2024-05-01T12:34:56Z"),
                Arguments.of("2024-05-01T12:34:56.0000001Z", "2024-05-01T12:34:56.0000001Z"),
                Arguments.of("2024-05-01T14:34:56.1234567+02:00", "2024-05-01T12:34:56.1234567Z"),
                Arguments.of("2024-05-01T00:00:00.9999999-10:30", "2024-05-01T10:30:00.9999999Z"),
                Arguments.of("1969-12-31T23:59:59.9999999Z", "1969-12-31T23:59:59.9999999Z"),
                Arguments.of("1601-01-01T00:00:00Z", "1601-01-01T00:00:00Z"),
                Arguments.of("9999-12-31T23:59:59.9999999Z", "9999-12-31T23:59:59.9999999Z"));
    }

    @ParameterizedTest
    @MethodSource("dateTimes")
    void dateTimesRoundTripAsUtcOffsetDateTimesAt100Nanoseconds(String written, String expected) {
        OffsetDateTime value = OffsetDateTime.parse(written);

        for (TableEntity got : roundTrip(fresh().addProperty("V", value))) {
            assertThat(got.getProperty("V")).isInstanceOf(OffsetDateTime.class).isEqualTo(OffsetDateTime.parse(expected));
        }
    }

    @Test
    void otherJavaTimeTypesAreStoredAsDateTimes() {
        Instant instant = Instant.parse("2024-05-01T12:34:56.7654321Z");

        for (TableEntity got : roundTrip(fresh().addProperty("I", instant)
                .addProperty("L", LocalDateTime.parse("2024-05-01T12:34:56.5")))) {
            assertThat(got.getProperty("I")).isEqualTo(instant.atOffset(ZoneOffset.UTC));
            assertThat(got.getProperty("L")).isEqualTo(OffsetDateTime.parse("2024-05-01T12:34:56.5Z"));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"1600-12-31T23:59:59.9999999Z", "0001-01-01T00:00:00Z"})
    void dateTimesBefore1601AreOutOfRange(String value) {
        assertServiceError(() -> table.createEntity(fresh().addProperty("V", OffsetDateTime.parse(value))), 400,
                "OutOfRangeInput");
    }

    @ParameterizedTest
    @ValueSource(strings = {"2024-05-01T12:34:56.123456789Z | 2024-05-01T12:34:56.1234568Z",
            "2024-05-01T12:34:56.123456749Z | 2024-05-01T12:34:56.1234567Z",
            "2024-05-01T12:34:56.999999999Z | 2024-05-01T12:34:57Z"})
    void dateTimesFinerThan100NanosecondsAreRoundedToTheNearestTick(String writtenAndStored) {
        String[] values = writtenAndStored.split(" \\| ");

        for (TableEntity got : roundTrip(fresh().addProperty("V", OffsetDateTime.parse(values[0])))) {
            assertThat(got.getProperty("V")).isEqualTo(OffsetDateTime.parse(values[1]));
        }
    }

    // ------------------------------------------------------------------ Guid and Binary

    @ParameterizedTest
    @ValueSource(strings = {"00000000-0000-0000-0000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff",
            "c1b7f7e4-0a0c-4a27-9b4f-6a8e3cbd1f00", "C1B7F7E4-0A0C-4A27-9B4F-6A8E3CBD1F00"})
    void guidsRoundTripAsUuids(String value) {
        assertRoundTrips(UUID.fromString(value), UUID.class);
    }

    static Stream<byte[]> binaries() {
        byte[] everyByte = new byte[256];
        for (int i = 0; i < everyByte.length; i++) {
            everyByte[i] = (byte) i;
        }
        byte[] max = new byte[64 * 1024];
        new Random(42).nextBytes(max);
        return Stream.of(new byte[0], new byte[] {0}, new byte[] {(byte) 0xfb, (byte) 0xff}, everyByte, max);
    }

    @ParameterizedTest
    @MethodSource("binaries")
    void binariesRoundTripAsByteArrays(byte[] value) {
        for (TableEntity got : roundTrip(fresh().addProperty("V", value))) {
            assertThat(got.getProperty("V")).isInstanceOf(byte[].class);
            assertThat((byte[]) got.getProperty("V")).isEqualTo(value);
        }
    }

    // ------------------------------------------------------------------ all at once

    @Test
    void anEntityWithEveryTypeRoundTripsWholeAndNullsAreNotStored() {
        UUID guid = UUID.randomUUID();
        OffsetDateTime when = OffsetDateTime.parse("2030-01-02T03:04:05.0600708Z");
        TableEntity entity = fresh().addProperty("S", "s").addProperty("B", true).addProperty("I", 42)
                .addProperty("L", 1L << 40).addProperty("D", 2.0).addProperty("T", when).addProperty("G", guid)
                .addProperty("X", new byte[] {1, 2, 3}).addProperty("N", null);

        for (TableEntity got : roundTrip(entity)) {
            assertThat(got.getProperties()).containsEntry("S", "s").containsEntry("B", true).containsEntry("I", 42)
                    .containsEntry("L", 1L << 40).containsEntry("D", 2.0).containsEntry("T", when)
                    .containsEntry("G", guid).doesNotContainKey("N");
            assertThat((byte[]) got.getProperty("X")).containsExactly(1, 2, 3);
        }
    }
}
