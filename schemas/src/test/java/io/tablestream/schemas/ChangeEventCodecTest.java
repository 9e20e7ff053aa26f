package io.tablestream.schemas;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablestream.core.command.ChangeEvent;
import io.tablestream.core.command.EntityChange;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.EdmInt32;
import io.tablestream.core.model.EdmString;
import io.tablestream.core.model.EdmValue;
import io.tablestream.core.model.Entity;
import io.tablestream.core.model.StoredEntity;
import io.tablestream.core.model.TableName;
import io.tablestream.schemas.avro.ChangeType;
import io.tablestream.schemas.avro.EntityChanged;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The direct encoder writes exactly the bytes Avro's writer writes, for every shape of event. */
class ChangeEventCodecTest {
    private static final LogCodec<ChangeEvent> AVRO = AvroLogCodec.of(EntityChanged.getClassSchema(),
            LogCodecs::changeToAvro, LogCodecs::changeFromAvro);

    private static ChangeEvent event(EntityChange.Type type, Map<String, EdmValue> properties, EdmDateTime expiresAt,
                                     String commandId, String principal) {
        StoredEntity version = type.removes() ? null
                : new StoredEntity(Entity.of("pk é", "rk \uD83D\uDE00", properties)
                        .withVersion(EdmDateTime.ofEpochTicks(16_000_000_000_000_000L)), expiresAt);
        return new ChangeEvent("devstoreaccount1", TableName.of("Orders"),
                new EntityChange(type, 562949953421312L, "pk é", type.wholesale() ? "" : "rk \uD83D\uDE00", version),
                commandId, principal, EdmDateTime.ofEpochTicks(-5L));
    }

    @Test
    void writesAvrosBytesForEveryTypeAtItsExtremes() {
        ChangeEvent e = event(EntityChange.Type.INSERTED, LogCodecsTest.everyTypeAtItsExtremes(),
                EdmDateTime.ofEpochTicks(EdmDateTime.MAX_EPOCH_TICKS), "c-1", "sharedkey:devstoreaccount1");

        assertThat(LogCodecs.CHANGE_EVENT.encode(e)).isEqualTo(AVRO.encode(e));
        assertThat(LogCodecs.CHANGE_EVENT.decode(LogCodecs.CHANGE_EVENT.encode(e))).isEqualTo(e);
    }

    @Test
    void writesAvrosBytesForEveryChangeTypeAndOptionalField() {
        List<ChangeEvent> events = new ArrayList<>();
        for (EntityChange.Type type : EntityChange.Type.values()) {
            events.add(event(type, Map.of(), null, null, null));
            events.add(event(type, Map.of("A", EdmInt32.of(-1)), EdmDateTime.ofEpochTicks(0), "id", "who"));
        }
        for (ChangeEvent e : events) {
            assertThat(LogCodecs.CHANGE_EVENT.encode(e)).as("%s", e).isEqualTo(AVRO.encode(e));
        }
    }

    @Test
    void writesAvrosBytesForRandomEntities() {
        Random random = new Random(7);
        List<EdmValue> samples = new ArrayList<>(LogCodecsTest.everyTypeAtItsExtremes().values());
        for (int i = 0; i < 500; i++) {
            Map<String, EdmValue> props = new LinkedHashMap<>();
            int n = random.nextInt(30);
            for (int k = 0; k < n; k++) {
                EdmValue v = random.nextBoolean() ? samples.get(random.nextInt(samples.size()))
                        : EdmString.of("s".repeat(random.nextInt(200)));
                props.put("P" + k, v);
            }
            ChangeEvent e = event(EntityChange.Type.MERGED, props, null, "c" + i, null);
            assertThat(Arrays.equals(LogCodecs.CHANGE_EVENT.encode(e), AVRO.encode(e))).as("event %d", i).isTrue();
        }
    }

    @Test
    void theDomainsChangeTypesAreInTheSchemasOrder() {
        assertThat(Arrays.stream(EntityChange.Type.values()).map(Enum::name))
                .containsExactlyElementsOf(Arrays.stream(ChangeType.values()).map(Enum::name).toList());
    }
}
