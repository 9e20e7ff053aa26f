package io.tablestream.processor.decide;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablestream.core.command.CommandHeader;
import io.tablestream.core.command.EntityChange;
import io.tablestream.core.command.EntityCommand;
import io.tablestream.core.command.EntityOperation;
import io.tablestream.core.command.EntityOperation.Type;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.EdmInt32;
import io.tablestream.core.model.EdmString;
import io.tablestream.core.model.EdmValue;
import io.tablestream.core.model.Entity;
import io.tablestream.core.model.StoredEntity;
import io.tablestream.core.model.TableName;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class EntityDeciderTest {
    private static final CommandHeader HEADER = new CommandHeader("c", "acct", 0L, null, null);
    private static final EdmDateTime EARLIER = EdmDateTime.ofEpochTicks(1_000L);
    private static final EdmDateTime NOW = EdmDateTime.ofEpochTicks(2_000L);
    private static final StoredEntity EXISTING = new StoredEntity(
            Entity.of("pk", "rk", Map.of("A", EdmString.of("old"), "B", EdmInt32.of(1))).withVersion(EARLIER), null);
    private static final String EXISTING_ETAG = EXISTING.entity().etag().value();

    private static EntityDecision decide(StoredEntity current, EntityOperation... ops) {
        EntityCommand command = ops.length == 1
                ? EntityCommand.single(HEADER, 7L, TableName.of("Tbl"), "pk", ops[0])
                : EntityCommand.batch(HEADER, 7L, TableName.of("Tbl"), "pk", List.of(ops));
        Map<String, StoredEntity> rows = new HashMap<>();
        if (current != null) {
            rows.put(current.entity().rowKey(), current);
        }
        return EntityDecider.decide(command, rows::get, NOW, null);
    }

    private static EntityOperation op(Type type, String ifMatch, Map<String, EdmValue> props) {
        return type == Type.DELETE ? EntityOperation.delete("rk", ifMatch) : EntityOperation.of(type, "rk", ifMatch, props);
    }

    /** Every operation against an absent and an existing entity, with and without conditions. */
    @ParameterizedTest(name = "{0} ifMatch={1} existing={2} -> {3}")
    @CsvSource(nullValues = "null", value = {
            "INSERT,            null,     false, INSERTED",
            "INSERT,            null,     true,  EntityAlreadyExists",
            "REPLACE,           *,        false, ResourceNotFound",
            "REPLACE,           *,        true,  REPLACED",
            "REPLACE,           ETAG,     true,  REPLACED",
            "REPLACE,           WRONG,    true,  UpdateConditionNotSatisfied",
            "REPLACE,           null,     true,  REPLACED",
            "MERGE,             *,        false, ResourceNotFound",
            "MERGE,             ETAG,     true,  MERGED",
            "MERGE,             WRONG,    true,  UpdateConditionNotSatisfied",
            "INSERT_OR_REPLACE, null,     false, INSERTED",
            "INSERT_OR_REPLACE, null,     true,  REPLACED",
            "INSERT_OR_MERGE,   null,     false, INSERTED",
            "INSERT_OR_MERGE,   null,     true,  MERGED",
            "DELETE,            *,        false, ResourceNotFound",
            "DELETE,            *,        true,  DELETED",
            "DELETE,            ETAG,     true,  DELETED",
            "DELETE,            WRONG,    true,  UpdateConditionNotSatisfied",
    })
    void decidesEachOperationAsTheServiceDoes(Type type, String ifMatch, boolean existing, String expected) {
        String condition = "ETAG".equals(ifMatch) ? EXISTING_ETAG
                : "WRONG".equals(ifMatch) ? "W/\"datetime'1999-01-01T00%3A00%3A00.0000000Z'\"" : ifMatch;

        EntityDecision d = decide(existing ? EXISTING : null, op(type, condition, Map.of("A", EdmString.of("new"))));

        if (d.succeeded()) {
            assertThat(d.changes()).singleElement().extracting(EntityChange::type).hasToString(expected);
        } else {
            assertThat(d.failure().code().code()).isEqualTo(expected);
            assertThat(d.changes()).isEmpty();
        }
    }

    @Test
    void replaceDropsPropertiesTheNewVersionDoesNotHave() {
        EntityDecision d = decide(EXISTING, op(Type.REPLACE, "*", Map.of("C", EdmInt32.of(3))));

        assertThat(d.changes().get(0).newVersion().entity().properties()).containsOnlyKeys("C");
    }

    @Test
    void mergeKeepsOldPropertiesAndOverwritesNewOnes() {
        EntityDecision d = decide(EXISTING, op(Type.MERGE, "*", Map.of("A", EdmString.of("new"), "C", EdmInt32.of(3))));

        assertThat(d.changes().get(0).newVersion().entity().properties())
                .containsEntry("A", EdmString.of("new"))
                .containsEntry("B", EdmInt32.of(1))
                .containsEntry("C", EdmInt32.of(3));
    }

    @Test
    void everyWrittenVersionGetsTheCommandsTimestampAndItsETag() {
        EntityDecision d = decide(null, op(Type.INSERT, null, Map.of()));

        Entity written = d.changes().get(0).newVersion().entity();
        assertThat(written.timestamp()).isEqualTo(NOW);
        assertThat(written.etag().value()).isEqualTo("W/\"datetime'1970-01-01T00%3A00%3A00.0002000Z'\"");
        assertThat(d.results()).singleElement().extracting(r -> r.timestamp()).isEqualTo(NOW);
    }

    @Test
    void deleteResultHasNoTimestamp() {
        EntityDecision d = decide(EXISTING, op(Type.DELETE, "*", Map.of()));

        assertThat(d.results()).singleElement().extracting(r -> r.timestamp()).isNull();
    }

    @Test
    void aFailingBatchChangesNothingAndNamesTheFailingIndex() {
        EntityDecision d = decide(EXISTING,
                EntityOperation.of(Type.INSERT, "a", null, Map.of()),
                EntityOperation.of(Type.INSERT_OR_MERGE, "b", null, Map.of()),
                EntityOperation.of(Type.INSERT, "rk", null, Map.of()));

        assertThat(d.succeeded()).isFalse();
        assertThat(d.failure().code()).isEqualTo(ErrorCode.ENTITY_ALREADY_EXISTS);
        assertThat(d.failure().operationIndex()).isEqualTo(2);
        assertThat(d.changes()).isEmpty();
        assertThat(d.results()).isEmpty();
    }

    @Test
    void aSingleWriteFailureIsNotAttributedToAnIndex() {
        EntityDecision d = decide(EXISTING, op(Type.INSERT, null, Map.of()));

        assertThat(d.failure().operationIndex()).isNull();
    }

    @Test
    void aSucceedingBatchYieldsOneChangeAndResultPerOperationInOrder() {
        EntityDecision d = decide(EXISTING,
                EntityOperation.of(Type.INSERT, "a", null, Map.of()),
                EntityOperation.delete("rk", "*"),
                EntityOperation.of(Type.INSERT_OR_REPLACE, "c", null, Map.of()));

        assertThat(d.changes()).extracting(EntityChange::rowKey).containsExactly("a", "rk", "c");
        assertThat(d.changes()).extracting(EntityChange::type)
                .containsExactly(EntityChange.Type.INSERTED, EntityChange.Type.DELETED, EntityChange.Type.INSERTED);
        assertThat(d.results()).hasSize(3);
    }

    @Test
    void aMergeThatPushesTheEntityPastTheLimitsFails() {
        Map<String, EdmValue> many = new HashMap<>();
        for (int i = 0; i < 251; i++) {
            many.put("P" + i, EdmInt32.of(i));
        }
        StoredEntity wide = new StoredEntity(Entity.of("pk", "rk", many).withVersion(EARLIER), null);

        EntityDecision d = decide(wide, op(Type.MERGE, "*", Map.of("X", EdmInt32.of(1), "Y", EdmInt32.of(2))));

        assertThat(d.failure().code()).isEqualTo(ErrorCode.TOO_MANY_PROPERTIES);
    }

    @Test
    void ttlComesFromTheEntityOrTheTableDefault() {
        EntityCommand own = EntityCommand.single(HEADER, 7L, TableName.of("Tbl"), "pk",
                EntityOperation.of(Type.INSERT, "a", null, Map.of("TTLInSeconds", EdmInt32.of(10))));
        EntityCommand never = EntityCommand.single(HEADER, 7L, TableName.of("Tbl"), "pk",
                EntityOperation.of(Type.INSERT, "a", null, Map.of("TTLInSeconds", EdmInt32.of(-1))));
        EntityCommand plain = EntityCommand.single(HEADER, 7L, TableName.of("Tbl"), "pk",
                EntityOperation.of(Type.INSERT, "a", null, Map.of()));

        assertThat(EntityDecider.decide(own, rk -> null, NOW, 100).changes().get(0).newVersion().expiresAt())
                .isEqualTo(NOW.plusTicks(10 * EdmDateTime.TICKS_PER_SECOND));
        assertThat(EntityDecider.decide(never, rk -> null, NOW, 100).changes().get(0).newVersion().expiresAt())
                .isNull();
        assertThat(EntityDecider.decide(plain, rk -> null, NOW, 100).changes().get(0).newVersion().expiresAt())
                .isEqualTo(NOW.plusTicks(100 * EdmDateTime.TICKS_PER_SECOND));
        assertThat(EntityDecider.decide(plain, rk -> null, NOW, null).changes().get(0).newVersion().expiresAt())
                .isNull();
    }
}
