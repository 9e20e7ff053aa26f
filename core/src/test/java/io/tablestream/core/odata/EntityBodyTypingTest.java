package io.tablestream.core.odata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import io.tablestream.core.model.EdmBinary;
import io.tablestream.core.model.EdmBoolean;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.EdmDouble;
import io.tablestream.core.model.EdmGuid;
import io.tablestream.core.model.EdmInt32;
import io.tablestream.core.model.EdmInt64;
import io.tablestream.core.model.EdmString;
import io.tablestream.core.model.EdmValue;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** JSON snippet (the members of an entity body) → the EdmValue of property {@code P}. */
class EntityBodyTypingTest {

    static Stream<Arguments> unannotatedValues() {
        return Stream.of(
                arguments("\"P\":\"hello\"", EdmString.of("hello")),
                arguments("\"P\":\"\"", EdmString.of("")),
                arguments("\"P\":\"123\"", EdmString.of("123")),
                arguments("\"P\":\"true\"", EdmString.of("true")),
                arguments("\"P\":\"NaN\"", EdmString.of("NaN")),
                arguments("\"P\":\"2024-05-01T00:00:00Z\"", EdmString.of("2024-05-01T00:00:00Z")),
                arguments("\"P\":\"c9da6455-213d-42c9-9a79-3e9149a57833\"", EdmString.of("c9da6455-213d-42c9-9a79-3e9149a57833")),
                arguments("\"P\":true", EdmBoolean.TRUE),
                arguments("\"P\":false", EdmBoolean.FALSE),
                arguments("\"P\":0", EdmInt32.of(0)),
                arguments("\"P\":-0", EdmInt32.of(0)),
                arguments("\"P\":23", EdmInt32.of(23)),
                arguments("\"P\":2147483647", EdmInt32.of(Integer.MAX_VALUE)),
                arguments("\"P\":-2147483648", EdmInt32.of(Integer.MIN_VALUE)),
                arguments("\"P\":2147483648", EdmDouble.of(2147483648.0)),
                arguments("\"P\":-2147483649", EdmDouble.of(-2147483649.0)),
                arguments("\"P\":5454161346626", EdmDouble.of(5454161346626.0)),
                arguments("\"P\":9223372036854775808", EdmDouble.of(9.223372036854775808E18)),
                arguments("\"P\":123456789012345678901234567890", EdmDouble.of(1.2345678901234568E29)),
                arguments("\"P\":200.23", EdmDouble.of(200.23)),
                arguments("\"P\":2.0", EdmDouble.of(2.0)),
                arguments("\"P\":-0.0", EdmDouble.of(-0.0)),
                arguments("\"P\":1e2", EdmDouble.of(100.0)),
                arguments("\"P\":1E-2", EdmDouble.of(0.01)),
                arguments("\"P\":1.7976931348623157e308", EdmDouble.of(Double.MAX_VALUE)),
                arguments("\"P\":4.9e-324", EdmDouble.of(Double.MIN_VALUE)),
                arguments("\"P\":1e-400", EdmDouble.of(0.0)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("unannotatedValues")
    void infersTheTypeOfAnUnannotatedValueAsTheServiceDoes(String members, EdmValue expected) {
        assertThat(property(members)).isEqualTo(expected);
    }

    static Stream<Arguments> annotatedValues() {
        UUID guid = UUID.fromString("c9da6455-213d-42c9-9a79-3e9149a57833");
        return Stream.of(
                arguments(annotated("Edm.String", "\"x\""), EdmString.of("x")),
                arguments(annotated("Edm.Boolean", "true"), EdmBoolean.TRUE),
                arguments(annotated("Edm.Boolean", "\"false\""), EdmBoolean.FALSE),
                arguments(annotated("Edm.Int32", "7"), EdmInt32.of(7)),
                arguments(annotated("Edm.Int32", "\"-7\""), EdmInt32.of(-7)),
                arguments(annotated("Edm.Int32", "\"+7\""), EdmInt32.of(7)),
                arguments(annotated("Edm.Int64", "\"255\""), EdmInt64.of(255)),
                arguments(annotated("Edm.Int64", "\"9223372036854775807\""), EdmInt64.of(Long.MAX_VALUE)),
                arguments(annotated("Edm.Int64", "\"-9223372036854775808\""), EdmInt64.of(Long.MIN_VALUE)),
                arguments(annotated("Edm.Double", "5"), EdmDouble.of(5.0)),
                arguments(annotated("Edm.Double", "2.5"), EdmDouble.of(2.5)),
                arguments(annotated("Edm.Double", "\"NaN\""), EdmDouble.of(Double.NaN)),
                arguments(annotated("Edm.Double", "\"Infinity\""), EdmDouble.of(Double.POSITIVE_INFINITY)),
                arguments(annotated("Edm.Double", "\"-Infinity\""), EdmDouble.of(Double.NEGATIVE_INFINITY)),
                arguments(annotated("Edm.Double", "\"INF\""), EdmDouble.of(Double.POSITIVE_INFINITY)),
                arguments(annotated("Edm.Double", "\"-INF\""), EdmDouble.of(Double.NEGATIVE_INFINITY)),
                arguments(annotated("Edm.Double", "\"1.23456789012346e+24\""), EdmDouble.of(1.23456789012346e24)),
                arguments(annotated("Edm.Double", "\"-0.5\""), EdmDouble.of(-0.5)),
                arguments(annotated("Edm.Double", "\"1.797693134862315e308\""), EdmDouble.of(1.797693134862315e308)),
                arguments(annotated("Edm.DateTime", "\"2008-07-10T00:00:00\""),
                        EdmDateTime.of(Instant.parse("2008-07-10T00:00:00Z"))),
                arguments(annotated("Edm.DateTime", "\"2013-08-22T01:12:06.2608595Z\""),
                        EdmDateTime.of(Instant.parse("2013-08-22T01:12:06.2608595Z"))),
                arguments(annotated("Edm.DateTime", "\"2013-08-22T01:12:06.260859500Z\""), // the Java SDK's 9 digits
                        EdmDateTime.of(Instant.parse("2013-08-22T01:12:06.2608595Z"))),
                arguments(annotated("Edm.Guid", "\"c9da6455-213d-42c9-9a79-3e9149a57833\""), EdmGuid.of(guid)),
                arguments(annotated("Edm.Guid", "\"C9DA6455-213D-42C9-9A79-3E9149A57833\""), EdmGuid.of(guid)),
                arguments(annotated("Edm.Guid", "\"c9da6455213d42c99a793e9149a57833\""), EdmGuid.of(guid)),
                arguments(annotated("Edm.Guid", "\"{c9da6455-213d-42c9-9a79-3e9149a57833}\""), EdmGuid.of(guid)),
                arguments(annotated("Edm.Binary", "\"AQIDBA==\""), EdmBinary.of(new byte[] {1, 2, 3, 4})),
                arguments(annotated("Edm.Binary", "\"AQID BA==\""), EdmBinary.of(new byte[] {1, 2, 3, 4})),
                arguments(annotated("Edm.Binary", "\"\""), EdmBinary.of(new byte[0])),
                // the annotation may follow the value
                arguments("\"P\":\"255\",\"P@odata.type\":\"Edm.Int64\"", EdmInt64.of(255)),
                arguments("\"P\":\"AQIDBA==\",\"Other\":1,\"P@odata.type\":\"Edm.Binary\"", EdmBinary.of(new byte[] {1, 2, 3, 4})));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("annotatedValues")
    void convertsAnAnnotatedValueToItsAnnotatedType(String members, EdmValue expected) {
        assertThat(property(members)).isEqualTo(expected);
    }

    private static String annotated(String type, String value) {
        return "\"P@odata.type\":\"" + type + "\",\"P\":" + value;
    }

    private static EdmValue property(String members) {
        String json = "{\"PartitionKey\":\"pk\",\"RowKey\":\"rk\"," + members + "}";
        return ODataJsonReader.readEntity(json.getBytes(StandardCharsets.UTF_8)).properties().get("P");
    }
}
