package io.tablestream.core.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.model.EdmBinary;
import io.tablestream.core.model.EdmInt32;
import io.tablestream.core.model.EdmString;
import io.tablestream.core.model.EdmValue;
import io.tablestream.core.model.Entity;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

class EntityRulesTest {
    @Test
    void allows252CustomPropertiesButNot253() {
        assertThatCode(() -> EntityRules.validate(entityWithInt32Properties(252))).doesNotThrowAnyException();
        assertRejected(() -> EntityRules.validate(entityWithInt32Properties(253)), ErrorCode.TOO_MANY_PROPERTIES);
    }

    @Test
    void allowsAStringOf32768CharactersButNot32769() {
        assertThatCode(() -> EntityRules.validate(entity("S", EdmString.of("x".repeat(32_768))))).doesNotThrowAnyException();
        assertRejected(() -> EntityRules.validate(entity("S", EdmString.of("x".repeat(32_769)))), ErrorCode.PROPERTY_VALUE_TOO_LARGE);
    }

    @Test
    void allowsABinaryOf65536BytesButNot65537() {
        assertThatCode(() -> EntityRules.validate(entity("B", EdmBinary.of(new byte[65_536])))).doesNotThrowAnyException();
        assertRejected(() -> EntityRules.validate(entity("B", EdmBinary.of(new byte[65_537]))), ErrorCode.PROPERTY_VALUE_TOO_LARGE);
    }

    @Test
    void allowsAnEntityOfExactlyOneMebibyteButNotOneByteMore() {
        Entity atLimit = entityOfSize(65_240);
        Entity overLimit = entityOfSize(65_241);
        assertThat(EntitySize.of(atLimit)).isEqualTo(1_048_576);
        assertThat(EntitySize.of(overLimit)).isEqualTo(1_048_577);
        assertThatCode(() -> EntityRules.validate(atLimit)).doesNotThrowAnyException();
        assertRejected(() -> EntityRules.validate(overLimit), ErrorCode.ENTITY_TOO_LARGE);
    }

    @Test
    void rejectsAnInvalidKeyOrPropertyName() {
        assertRejected(() -> EntityRules.validate(Entity.of("a/b", "r", Map.of())), ErrorCode.OUT_OF_RANGE_INPUT);
        assertRejected(() -> EntityRules.validate(Entity.of("p", "r\n", Map.of())), ErrorCode.OUT_OF_RANGE_INPUT);
        assertRejected(() -> EntityRules.validate(Entity.of("p", "r", Map.of("1x", EdmInt32.of(1)))), ErrorCode.PROPERTY_NAME_INVALID);
        assertRejected(() -> EntityRules.validate(Entity.of("p", "r", Map.of("RowKey", EdmString.of("r")))), ErrorCode.PROPERTY_NAME_INVALID);
    }

    /**
     * Keys "p" and "r" (4 + 2 * 2 = 8 bytes) and 16 binaries named B00..B15 (each 8 + 2 * 3 + 4 = 18 bytes
     * plus its length): 15 of 65,536 bytes and a last one of {@code lastLength}, so the size is
     * 8 + 16 * 18 + 15 * 65,536 + lastLength = 983,336 + lastLength.
     */
    private static Entity entityOfSize(int lastLength) {
        Map<String, EdmValue> properties = new LinkedHashMap<>();
        for (int i = 0; i < 16; i++) {
            properties.put(String.format("B%02d", i), EdmBinary.of(new byte[i < 15 ? 65_536 : lastLength]));
        }
        return Entity.of("p", "r", properties);
    }

    private static Entity entityWithInt32Properties(int count) {
        Map<String, EdmValue> properties = new LinkedHashMap<>();
        for (int i = 0; i < count; i++) {
            properties.put("P" + i, EdmInt32.of(i));
        }
        return Entity.of("p", "r", properties);
    }

    private static Entity entity(String name, EdmValue value) {
        return Entity.of("p", "r", Map.of(name, value));
    }

    private static void assertRejected(Executable call, ErrorCode code) {
        assertThatThrownBy(call::execute)
                .isInstanceOfSatisfying(TableServiceException.class, e -> assertThat(e.errorCode()).isEqualTo(code));
    }
}
