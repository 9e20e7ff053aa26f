package io.tablestream.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.EdmInt32;
import io.tablestream.core.model.Entity;
import io.tablestream.core.model.StoredEntity;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class StoredEntityCodecTest {

    @Test
    void roundTripsEveryTypeAtItsExtremesInOrder() {
        Entity entity = Entity.of("p", "r", LogCodecsTest.everyTypeAtItsExtremes())
                .withVersion(EdmDateTime.ofEpochTicks(EdmDateTime.MIN_EPOCH_TICKS));
        StoredEntity stored = new StoredEntity(entity, EdmDateTime.ofEpochTicks(EdmDateTime.MAX_EPOCH_TICKS));

        StoredEntity decoded = StoredEntityCodec.decode("p", "r", StoredEntityCodec.encode(stored));

        assertThat(decoded).isEqualTo(stored);
        assertThat(decoded.entity().properties().keySet())
                .containsExactlyElementsOf(LogCodecsTest.everyTypeAtItsExtremes().keySet());
        assertThat(decoded.entity().etag()).isEqualTo(entity.etag());
    }

    @Test
    void roundTripsAnEntityWithoutPropertiesOrExpiry() {
        StoredEntity stored = new StoredEntity(Entity.of("", "", Map.of()).withVersion(EdmDateTime.ofEpochTicks(-1)), null);

        assertThat(StoredEntityCodec.decode("", "", StoredEntityCodec.encode(stored))).isEqualTo(stored);
    }

    @Test
    void rejectsEveryTruncationAndRandomCorruptionWithALogFormatException() {
        StoredEntity stored = new StoredEntity(Entity.of("p", "r", LogCodecsTest.everyTypeAtItsExtremes())
                .withVersion(EdmDateTime.ofEpochTicks(5)), null);
        byte[] bytes = StoredEntityCodec.encode(stored);
        for (int n = 0; n < bytes.length; n += 97) {
            byte[] truncated = Arrays.copyOf(bytes, n);
            assertThatThrownBy(() -> StoredEntityCodec.decode("p", "r", truncated)).isInstanceOf(LogFormatException.class);
        }
        Random random = new Random(42);
        byte[] small = StoredEntityCodec.encode(new StoredEntity(Entity.of("p", "r", Map.of("A", EdmInt32.of(1),
                "B", EdmInt32.of(2))).withVersion(EdmDateTime.ofEpochTicks(5)), null));
        for (int i = 0; i < 5000; i++) {
            byte[] mutated = small.clone();
            mutated[random.nextInt(mutated.length)] = (byte) random.nextInt(256);
            try {
                StoredEntityCodec.decode("p", "r", mutated);
            } catch (LogFormatException expected) {
                // a mutation may still decode; it must never fail any other way
            }
        }
    }

    @Test
    void rejectsAnUnknownFormatVersion() {
        assertThatThrownBy(() -> StoredEntityCodec.decode("p", "r", new byte[] {(byte) 0xC3, 1}))
                .isInstanceOf(LogFormatException.class).hasMessageContaining("format");
    }
}
