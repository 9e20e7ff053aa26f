package io.tablestream.bench.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.data.tables.models.TableEntity;
import java.time.OffsetDateTime;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class SyntheticEntitiesTest {
    private static final String PK = "load-0001";
    private static final String RK = "r00000002";

    @Test
    void derivesTheSameValuesFromTheSameKeysAndOthersFromAnotherRevision() {
        assertThat(SyntheticEntities.properties(PK, RK)).isEqualTo(SyntheticEntities.properties(PK, RK))
                .isNotEqualTo(SyntheticEntities.properties(PK, RK, 1))
                .isNotEqualTo(SyntheticEntities.properties(PK, "r00000003"));
    }

    @Test
    void neverWritesAnIntegralDoubleNorAQuantityOutsideItsRange() {
        for (int r = 0; r < 20_000; r++) {
            Map<String, Object> p = SyntheticEntities.properties(PK, KeyLayout.rowKey(r));
            double score = (Double) p.get(SyntheticEntities.SCORE);
            assertThat(score).isNotEqualTo(Math.rint(score));
            assertThat((Integer) p.get(SyntheticEntities.QUANTITY)).isBetween(0, 999);
        }
    }

    @Test
    void givesTheEdmFormTheSameValues() {
        assertThat(SyntheticEntities.edmProperties(PK, RK)).hasSize(6)
                .containsKeys(SyntheticEntities.LABEL, SyntheticEntities.UPDATED_AT);
    }

    @Test
    void acceptsTheEntityAsTheServiceReturnsIt() {
        assertThatCode(() -> SyntheticEntities.check("test", returned(p -> { }), PK, RK,
                SyntheticEntities.properties(PK, RK))).doesNotThrowAnyException();
    }

    static Stream<Arguments> wrongAnswers() {
        return Stream.of(
                Arguments.of("a changed value", (Consumer<Map<String, Object>>) p -> p.put(SyntheticEntities.LABEL, "x")),
                Arguments.of("a missing property", (Consumer<Map<String, Object>>) p -> p.remove(SyntheticEntities.ACTIVE)),
                Arguments.of("an extra property", (Consumer<Map<String, Object>>) p -> p.put("Extra", 1)),
                Arguments.of("an Int64 read as an Int32", (Consumer<Map<String, Object>>) p ->
                        p.put(SyntheticEntities.SEQUENCE, ((Long) p.get(SyntheticEntities.SEQUENCE)).intValue())),
                Arguments.of("another instant", (Consumer<Map<String, Object>>) p -> p.put(SyntheticEntities.UPDATED_AT,
                        ((OffsetDateTime) p.get(SyntheticEntities.UPDATED_AT)).plusNanos(100))),
                Arguments.of("no ETag", (Consumer<Map<String, Object>>) p -> p.remove("odata.etag")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("wrongAnswers")
    void rejectsAWrongAnswer(String what, Consumer<Map<String, Object>> spoil) {
        TableEntity wrong = returned(spoil);

        assertThatThrownBy(() -> SyntheticEntities.check("test", wrong, PK, RK, SyntheticEntities.properties(PK, RK)))
                .isInstanceOf(WrongAnswer.class);
    }

    @Test
    void rejectsAnotherEntity() {
        assertThatThrownBy(() -> SyntheticEntities.check("test", returned(p -> { }), PK, "r00000009",
                SyntheticEntities.properties(PK, "r00000009"))).isInstanceOf(WrongAnswer.class);
    }

    /** The entity as the SDK hands it out: with Timestamp, ETag and type annotations. */
    private static TableEntity returned(Consumer<Map<String, Object>> change) {
        Map<String, Object> p = new LinkedHashMap<>(SyntheticEntities.properties(PK, RK));
        p.put("Timestamp", OffsetDateTime.parse("2026-01-01T00:00:00Z"));
        p.put("odata.etag", "W/\"datetime'2026-01-01T00%3A00%3A00.0000000Z'\"");
        p.put("Sequence@odata.type", "Edm.Int64");
        change.accept(p);
        return new TableEntity(PK, RK).setProperties(p);
    }
}
