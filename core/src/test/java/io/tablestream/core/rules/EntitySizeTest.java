package io.tablestream.core.rules;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class EntitySizeTest {
    static Stream<Arguments> values() {
        return Stream.of(
                Arguments.of(EdmString.of(""), 4),
                Arguments.of(EdmString.of("Ada"), 3 * 2 + 4),
                Arguments.of(EdmString.of("\uD83D\uDE00"), 2 * 2 + 4),
                Arguments.of(EdmBinary.of(new byte[0]), 4),
                Arguments.of(EdmBinary.of(new byte[3]), 3 + 4),
                Arguments.of(EdmInt32.of(7), 4),
                Arguments.of(EdmInt64.of(7L), 8),
                Arguments.of(EdmDouble.of(0.5), 8),
                Arguments.of(EdmDateTime.ofEpochTicks(0), 8),
                Arguments.of(EdmGuid.of(new UUID(1, 2)), 16),
                Arguments.of(EdmBoolean.TRUE, 1));
    }

    @ParameterizedTest(name = "[{index}] {0} counts {1} bytes")
    @MethodSource("values")
    void countsEachValueAsTheServiceDoes(EdmValue value, long bytes) {
        assertThat(EntitySize.valueSize(value)).isEqualTo(bytes);
        // one property named "N": 8 + 2 * 1 + the value, on top of 4 + 2 * (1 + 1) for keys "p" and "r"
        assertThat(EntitySize.of("p", "r", Map.of("N", value))).isEqualTo(4 + 4 + 8 + 2 + bytes);
    }

    @Test
    void countsAnEntityWithNoPropertiesAndEmptyKeysAsFourBytes() {
        assertThat(EntitySize.of("", "", Map.of())).isEqualTo(4);
    }

    @Test
    void addsUpAHandComputedEntity() {
        Map<String, EdmValue> properties = new LinkedHashMap<>();
        properties.put("Name", EdmString.of("Ada"));          // 8 + 8 + (6 + 4)  = 26
        properties.put("Age", EdmInt32.of(36));               // 8 + 6 + 4        = 18
        properties.put("Born", EdmDateTime.ofEpochTicks(0));  // 8 + 8 + 8        = 24
        properties.put("Photo", EdmBinary.of(new byte[10]));  // 8 + 10 + (10 + 4) = 32
        Entity entity = Entity.of("Smith", "Ben1898", properties); // 4 + 2 * (5 + 7) = 28
        assertThat(EntitySize.of(entity)).isEqualTo(28 + 26 + 18 + 24 + 32);
    }
}
