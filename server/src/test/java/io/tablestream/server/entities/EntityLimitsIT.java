package io.tablestream.server.entities;

import static io.tablestream.server.ServiceErrors.assertServiceError;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableEntityUpdateMode;
import io.tablestream.server.TableNames;
import io.tablestream.server.TablestreamServerExtension;
import io.tablestream.testsupport.KafkaExtension;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The data-model limits, each at its edge: the largest value accepted and stored intact, one more
 * refused with the service's 400 as the official SDK surfaces it — and nothing stored.
 */
@ExtendWith({KafkaExtension.class, TablestreamServerExtension.class})
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EntityLimitsIT {
    private static final int MAX_STRING_CHARS = 32 * 1024;
    private static final int MAX_BINARY_BYTES = 64 * 1024;

    private final AtomicInteger rows = new AtomicInteger();
    private TableClient table;

    @BeforeAll
    void createTable(TableServiceClient service) {
        table = service.createTable(TableNames.unique("Limits"));
    }

    private TableEntity fresh() {
        return new TableEntity("limits", "r" + rows.incrementAndGet());
    }

    private static TableEntity withProperties(TableEntity entity, int count) {
        for (int i = 0; i < count; i++) {
            entity.addProperty("P" + i, i);
        }
        return entity;
    }

    private void assertNotStored(TableEntity entity) {
        assertServiceError(() -> table.getEntity(entity.getPartitionKey(), entity.getRowKey()), 404, "ResourceNotFound");
    }

    // ------------------------------------------------------------------ property count

    @Test
    void acceptsTwoHundredFiftyTwoCustomProperties() {
        TableEntity entity = withProperties(fresh(), 252);

        table.createEntity(entity);

        TableEntity got = table.getEntity(entity.getPartitionKey(), entity.getRowKey());
        assertThat(got.getProperty("P0")).isEqualTo(0);
        assertThat(got.getProperty("P251")).isEqualTo(251);
    }

    @Test
    void refusesTwoHundredFiftyThreeCustomPropertiesWithTooManyProperties() {
        TableEntity entity = withProperties(fresh(), 253);

        assertServiceError(() -> table.createEntity(entity), 400, "TooManyProperties");
        assertNotStored(entity);
    }

    @ParameterizedTest
    @EnumSource(TableEntityUpdateMode.class)
    void refusesAnUpdateOrUpsertWithTooManyProperties(TableEntityUpdateMode mode) {
        TableEntity entity = fresh();
        table.createEntity(entity);

        assertServiceError(() -> table.updateEntity(withProperties(fresh0(entity), 253), mode), 400, "TooManyProperties");
        assertServiceError(() -> table.upsertEntity(withProperties(fresh0(entity), 253)), 400, "TooManyProperties");
    }

    @Test
    void refusesAMergeThatWouldLeaveTooManyProperties() {
        TableEntity entity = withProperties(fresh(), 200);
        table.createEntity(entity);
        TableEntity more = new TableEntity(entity.getPartitionKey(), entity.getRowKey());
        for (int i = 0; i < 53; i++) {
            more.addProperty("Q" + i, i);
        }

        assertServiceError(() -> table.updateEntity(more, TableEntityUpdateMode.MERGE), 400, "TooManyProperties");
        assertThat(table.getEntity(entity.getPartitionKey(), entity.getRowKey()).getProperties()).doesNotContainKey("Q0");
    }

    private static TableEntity fresh0(TableEntity entity) {
        return new TableEntity(entity.getPartitionKey(), entity.getRowKey());
    }

    // ------------------------------------------------------------------ value sizes

    @Test
    void acceptsAStringOf32KCharacters() {
        String value = "s".repeat(MAX_STRING_CHARS);
        TableEntity entity = fresh().addProperty("S", value);

        table.createEntity(entity);

        assertThat(table.getEntity(entity.getPartitionKey(), entity.getRowKey()).getProperty("S")).isEqualTo(value);
    }

    @ParameterizedTest
    @ValueSource(strings = {"s", "é", "\uD83D\uDE00"})
    void refusesAStringOfMoreThan64KiBAsUtf16WithPropertyValueTooLarge(String unit) {
        String value = "s".repeat(MAX_STRING_CHARS - unit.length()) + unit + unit;
        TableEntity entity = fresh().addProperty("S", value);

        assertServiceError(() -> table.createEntity(entity), 400, "PropertyValueTooLarge");
        assertNotStored(entity);
    }

    @Test
    void acceptsABinaryOf64KiB() {
        byte[] value = new byte[MAX_BINARY_BYTES];
        value[MAX_BINARY_BYTES - 1] = 7;
        TableEntity entity = fresh().addProperty("B", value);

        table.createEntity(entity);

        assertThat((byte[]) table.getEntity(entity.getPartitionKey(), entity.getRowKey()).getProperty("B")).isEqualTo(value);
    }

    @Test
    void refusesABinaryOf64KiBPlusOneWithPropertyValueTooLarge() {
        TableEntity entity = fresh().addProperty("B", new byte[MAX_BINARY_BYTES + 1]);

        assertServiceError(() -> table.createEntity(entity), 400, "PropertyValueTooLarge");
        assertNotStored(entity);
    }

    // ------------------------------------------------------------------ entity size

    @Test
    void acceptsAnEntityJustUnderOneMiB() {
        TableEntity entity = fresh();
        for (int i = 0; i < 15; i++) {
            entity.addProperty("S" + i, Character.toString('a' + i).repeat(MAX_STRING_CHARS));
        }
        entity.addProperty("B", new byte[60_000]);

        table.createEntity(entity);

        TableEntity got = table.getEntity(entity.getPartitionKey(), entity.getRowKey());
        assertThat(got.getProperty("S14")).isEqualTo("o".repeat(MAX_STRING_CHARS));
        assertThat((byte[]) got.getProperty("B")).hasSize(60_000);
    }

    @Test
    void refusesAnEntityOverOneMiBWithEntityTooLarge() {
        TableEntity entity = fresh();
        for (int i = 0; i < 17; i++) {
            entity.addProperty("B" + i, new byte[MAX_BINARY_BYTES]);
        }

        assertServiceError(() -> table.createEntity(entity), 400, "EntityTooLarge");
        assertNotStored(entity);
    }

    @Test
    void refusesAMergeThatWouldGrowTheEntityOverOneMiB() {
        TableEntity entity = fresh();
        for (int i = 0; i < 9; i++) {
            entity.addProperty("A" + i, new byte[MAX_BINARY_BYTES]);
        }
        table.createEntity(entity);
        TableEntity more = fresh0(entity);
        for (int i = 0; i < 8; i++) {
            more.addProperty("B" + i, new byte[MAX_BINARY_BYTES]);
        }

        assertServiceError(() -> table.updateEntity(more, TableEntityUpdateMode.MERGE), 400, "EntityTooLarge");
        assertThat(table.getEntity(entity.getPartitionKey(), entity.getRowKey()).getProperties()).doesNotContainKey("B0");
    }

    // ------------------------------------------------------------------ property names

    @ParameterizedTest
    @ValueSource(strings = {"1starts", "has space", "has-dash", "dot.ted", "a+b", "ünïcödé_ok_is_not_this\u2028"})
    void refusesAnInvalidPropertyNameWithPropertyNameInvalid(String name) {
        TableEntity entity = fresh().addProperty(name, "v");

        assertServiceError(() -> table.createEntity(entity), 400, "PropertyNameInvalid");
        assertNotStored(entity);
    }

    @Test
    void acceptsIdentifierNamesUpTo255Characters() {
        String longest = "N".repeat(255);
        TableEntity entity = fresh().addProperty(longest, 1).addProperty("_under", 2).addProperty("ünïcödé", 3)
                .addProperty("a1_b2", 4);

        table.createEntity(entity);

        assertThat(table.getEntity(entity.getPartitionKey(), entity.getRowKey()).getProperties())
                .containsEntry(longest, 1).containsEntry("_under", 2).containsEntry("ünïcödé", 3).containsEntry("a1_b2", 4);
    }

    @Test
    void refusesAPropertyNameOf256CharactersWithPropertyNameTooLong() {
        TableEntity entity = fresh().addProperty("N".repeat(256), 1);

        assertServiceError(() -> table.createEntity(entity), 400, "PropertyNameTooLong");
        assertNotStored(entity);
    }

    // ------------------------------------------------------------------ keys

    @ParameterizedTest
    @ValueSource(strings = {"a/b", "a\\b", "a#b", "a?b", "tab\there", "nul\u0000", "del\u007f", "c1\u0085"})
    void refusesAKeyWithADisallowedCharacterOnInsert(String key) {
        assertServiceError(() -> table.createEntity(new TableEntity(key, "r")), 400, "OutOfRangeInput");
        assertServiceError(() -> table.createEntity(new TableEntity("p", key)), 400, "OutOfRangeInput");
    }

    @ParameterizedTest
    @ValueSource(strings = {"a/b", "a\\b", "a#b", "a?b", "tab\there"})
    void refusesAKeyWithADisallowedCharacterOnUpsert(String key) {
        assertServiceError(() -> table.upsertEntity(new TableEntity("p", key)), 400, "OutOfRangeInput");
        assertServiceError(() -> table.upsertEntity(new TableEntity(key, "r")), 400, "OutOfRangeInput");
    }

    @Test
    void acceptsKeysOfOneKiB() {
        String key = "k".repeat(512);

        table.createEntity(new TableEntity(key, key).addProperty("V", 1));

        assertThat(table.getEntity(key, key).getProperty("V")).isEqualTo(1);
    }

    @Test
    void refusesAKeyOverOneKiBWithPropertyValueTooLarge() {
        String key = "k".repeat(513);

        assertServiceError(() -> table.createEntity(new TableEntity(key, "r")), 400, "PropertyValueTooLarge");
        assertServiceError(() -> table.createEntity(new TableEntity("p", key)), 400, "PropertyValueTooLarge");
    }

    @Test
    void acceptsEmptyKeys() {
        table.createEntity(new TableEntity("", "").addProperty("V", "empty"));

        assertThat(table.getEntity("", "").getProperty("V")).isEqualTo("empty");
    }
}
