package io.tablestream.processor;

import static io.tablestream.processor.ProcessorHarness.ACCOUNT;
import static io.tablestream.processor.ProcessorHarness.header;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.tablestream.core.command.BulkCommand;
import io.tablestream.core.command.ChangeEvent;
import io.tablestream.core.command.CommandKey;
import io.tablestream.core.command.EntityChange;
import io.tablestream.core.command.EntityOperation;
import io.tablestream.core.command.EntityOperation.Type;
import io.tablestream.core.command.Outcome;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.model.EdmInt32;
import io.tablestream.core.model.EdmString;
import io.tablestream.core.model.EdmValue;
import io.tablestream.core.model.TableName;
import io.tablestream.schemas.LogPartitioner;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A bulk command: writes on several PartitionKeys of one partition of the log, each decided and
 * applied on its own and in order, at a Timestamp of its own; a write that fails fails alone, and
 * the outcome names it by its index.
 */
class BulkCommandTopologyTest {

    private static BulkCommand.Write write(String pk, Type type, String rk, Map<String, EdmValue> properties) {
        return new BulkCommand.Write(pk, EntityOperation.of(type, rk, null, properties));
    }

    private static BulkCommand bulk(long tableId, List<BulkCommand.Write> writes) {
        return new BulkCommand(header(), tableId, TableName.of("Orders"), writes);
    }

    @Test
    void appliesEachWriteOnItsOwnAndNamesTheOnesThatFail() {
        try (ProcessorHarness h = new ProcessorHarness()) {
            long t = h.givenTable("Orders");
            h.insert(t, "Orders", "a", "exists", Map.of("V", EdmInt32.of(1)));

            Outcome o = h.send(bulk(t, List.of(
                    write("a", Type.INSERT_OR_REPLACE, "r1", Map.of("V", EdmInt32.of(1))),
                    write("a", Type.INSERT, "exists", Map.of("V", EdmInt32.of(2))),
                    write("b", Type.INSERT_OR_MERGE, "r1", Map.of("V", EdmInt32.of(3))),
                    write("b", Type.INSERT_OR_REPLACE, "bad/key", Map.of()),
                    write("c", Type.INSERT, "r1", Map.of("S", EdmString.of("x".repeat(40_000)))))));

            assertThat(o.succeeded()).isTrue();
            assertThat(o.operationFailures()).extracting(Outcome.Failure::operationIndex, Outcome.Failure::code)
                    .containsExactly(tuple(1, ErrorCode.ENTITY_ALREADY_EXISTS),
                            tuple(3, ErrorCode.OUT_OF_RANGE_INPUT),
                            tuple(4, ErrorCode.PROPERTY_VALUE_TOO_LARGE));
            assertThat(h.stored(t, "a", "r1")).isPresent();
            assertThat(h.stored(t, "a", "exists").orElseThrow().entity().properties()).containsEntry("V", EdmInt32.of(1));
            assertThat(h.stored(t, "b", "r1").orElseThrow().entity().properties()).containsEntry("V", EdmInt32.of(3));
            assertThat(h.stored(t, "c", "r1")).isEmpty();
            List<ChangeEvent> changes = h.changes();
            assertThat(changes).extracting(c -> c.change().partitionKey() + "/" + c.change().rowKey())
                    .containsExactly("a/exists", "a/r1", "b/r1");
            assertThat(changes.get(1).commandId()).isEqualTo(o.commandId());
        }
    }

    @Test
    void writesOfOneEntityApplyInOrderEachAtATimestampOfItsOwn() {
        try (ProcessorHarness h = new ProcessorHarness()) {
            long t = h.givenTable("Orders");

            Outcome o = h.send(bulk(t, List.of(
                    write("p", Type.INSERT_OR_REPLACE, "r", Map.of("A", EdmInt32.of(1))),
                    write("p", Type.INSERT_OR_MERGE, "r", Map.of("B", EdmInt32.of(2))),
                    write("q", Type.INSERT, "r", Map.of()))));

            assertThat(o.operationFailures()).isEmpty();
            assertThat(h.stored(t, "p", "r").orElseThrow().entity().properties())
                    .containsEntry("A", EdmInt32.of(1)).containsEntry("B", EdmInt32.of(2));
            List<ChangeEvent> changes = h.changes();
            assertThat(changes).extracting(c -> c.change().type())
                    .containsExactly(EntityChange.Type.INSERTED, EntityChange.Type.MERGED, EntityChange.Type.INSERTED);
            long first = changes.get(0).changedAt().epochTicks();
            assertThat(changes).extracting(c -> c.changedAt().epochTicks() - first).containsExactly(0L, 1L, 2L);
            assertThat(h.stored(t, "q", "r").orElseThrow().entity().timestamp().epochTicks()).isEqualTo(first + 2);

            Outcome next = h.insert(t, "Orders", "z", "r", Map.of());
            assertThat(next.results().get(0).timestamp().epochTicks()).as("the clock moved past every write")
                    .isGreaterThan(first + 2);
        }
    }

    @Test
    void aWriteWhosePartitionKeyBelongsOnAnotherPartitionFailsAlone() {
        try (ProcessorHarness eight = new ProcessorHarness(8)) {
            // a table whose commands the driver's one partition (0) decides
            String table = null;
            for (int i = 0; table == null; i++) {
                if (LogPartitioner.partitionOf(CommandKey.forTable(ACCOUNT, TableName.of("Orders" + i)), 8) == 0) {
                    table = "Orders" + i;
                }
            }
            long t = eight.givenTable(table);
            List<String> here = new ArrayList<>();
            String elsewhere = null;
            for (int i = 0; here.size() < 2 || elsewhere == null; i++) {
                String pk = "pk" + i;
                if (LogPartitioner.partitionOf(CommandKey.forEntity(ACCOUNT, t, pk), 8) == 0) {
                    here.add(pk);
                } else {
                    elsewhere = pk;
                }
            }

            Outcome o = eight.send(bulk(t, List.of(
                    write(here.get(0), Type.INSERT, "r", Map.of()),
                    write(elsewhere, Type.INSERT, "r", Map.of()),
                    write(here.get(1), Type.INSERT, "r", Map.of()))));

            assertThat(o.operationFailures()).singleElement().satisfies(f -> {
                assertThat(f.operationIndex()).isEqualTo(1);
                assertThat(f.message()).contains("belongs on partition");
            });
            assertThat(eight.stored(t, here.get(1), "r")).isPresent();
            assertThat(eight.stored(t, elsewhere, "r")).isEmpty();
        }
    }

    @Test
    void aBulkCommandOnAMissingTableFailsAsAWhole() {
        try (ProcessorHarness h = new ProcessorHarness()) {
            Outcome o = h.send(bulk(12345L, List.of(write("p", Type.INSERT, "r", Map.of()))));

            assertThat(o.failure().code()).isEqualTo(ErrorCode.TABLE_NOT_FOUND);
        }
    }
}
