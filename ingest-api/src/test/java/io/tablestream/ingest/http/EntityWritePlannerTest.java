package io.tablestream.ingest.http;

import static io.tablestream.ingest.http.WriteFixtures.ACCOUNT;
import static io.tablestream.ingest.http.WriteFixtures.ARCHIVE;
import static io.tablestream.ingest.http.WriteFixtures.INSTANCE;
import static io.tablestream.ingest.http.WriteFixtures.ORDERS;
import static io.tablestream.ingest.http.WriteFixtures.delete;
import static io.tablestream.ingest.http.WriteFixtures.entity;
import static io.tablestream.ingest.http.WriteFixtures.insert;
import static io.tablestream.ingest.http.WriteFixtures.op;
import static io.tablestream.ingest.http.WriteFixtures.upsert;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablestream.core.command.BulkCommand;
import io.tablestream.core.command.CommandKey;
import io.tablestream.core.command.EntityCommand;
import io.tablestream.core.command.EntityOperation;
import io.tablestream.core.command.TransactionCommand;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.model.EdmInt32;
import io.tablestream.core.odata.MetadataLevel;
import io.tablestream.core.rules.Limits;
import io.tablestream.ingest.command.CommandSubmitter;
import io.tablestream.protocol.batch.BatchOperation;
import io.tablestream.protocol.http.TableLookup;
import io.tablestream.protocol.request.Operation;
import io.tablestream.protocol.write.EntityWriteRequest;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * What a write becomes before anything is appended — a write of its own, a {@code $batch} change set
 * (Azure's rules: one table, one PartitionKey, each entity once, at most 100 operations, a failure
 * naming its operation) and a cross-partition transaction — without HTTP or Kafka.
 */
class EntityWritePlannerTest {
    private final WriteFixtures.RecordingLog log = new WriteFixtures.RecordingLog();
    private final WriteFixtures.RecordingCaller caller = new WriteFixtures.RecordingCaller();
    private final EntityWritePlanner planner = new EntityWritePlanner(
            new CommandSubmitter(log, Clock.fixed(Instant.parse("2024-05-06T07:08:09Z"), ZoneOffset.UTC),
                    Duration.ofSeconds(5)),
            new TableLookup(new WriteFixtures.Tables(ORDERS, ARCHIVE)));

    private static final Supplier<byte[]> UNREAD = () -> {
        throw new AssertionError("the body was read");
    };

    private static EntityWriteRequest ofItsOwn(BatchOperation op) {
        return EntityWriteRequest.fromChangeSet(ACCOUNT, op);
    }

    // --- a write of its own

    @Test
    void anInsertTakesItsKeysFromItsBodyAndIsAuthorizedAtThem() {
        EntityWritePlanner.SingleWrite single = planner.single(ACCOUNT, caller,
                ofItsOwn(op(0, "POST", "Orders", "{\"PartitionKey\":\"p\",\"RowKey\":\"a\",\"N\":1}")));

        EntityCommand command = single.command();
        assertThat(command.batch()).isFalse();
        assertThat(command.tableId()).isEqualTo(ORDERS.tableId());
        assertThat(command.partitionKey()).isEqualTo("p");
        assertThat(command.operations()).singleElement().satisfies(o -> {
            assertThat(o.type()).isEqualTo(EntityOperation.Type.INSERT);
            assertThat(o.rowKey()).isEqualTo("a");
            assertThat(o.properties()).containsEntry("N", EdmInt32.of(1));
        });
        assertThat(caller.asked).containsExactly("INSERT_ENTITY Orders p a");
        assertThat(command.header().replyTo()).isEqualTo(INSTANCE);
        assertThat(single.async()).isFalse();
        assertThat(single.write().contentLevel()).isEqualTo(MetadataLevel.MINIMAL);
        assertThat(log.appended).as("planning appends nothing").isEmpty();
    }

    @Test
    void anUpdateTakesItsKeysFromItsUrlNotFromItsBody() {
        EntityWritePlanner.SingleWrite single = planner.single(ACCOUNT, caller, ofItsOwn(op(0, "PUT",
                entity("Orders", "p", "r"), "{\"PartitionKey\":\"x\",\"RowKey\":\"y\",\"N\":2}", "If-Match", "*")));

        assertThat(single.command().partitionKey()).isEqualTo("p");
        assertThat(single.command().operations().get(0).rowKey()).isEqualTo("r");
        assertThat(single.command().operations().get(0).type()).isEqualTo(EntityOperation.Type.REPLACE);
        assertThat(single.command().operations().get(0).ifMatch()).isEqualTo("*");
        assertThat(single.write().returnsContent()).isFalse();
        assertThat(caller.asked).containsExactly("UPDATE_ENTITY Orders p r");
    }

    @Test
    void aDeleteNeverReadsItsBody() {
        EntityWriteRequest delete = new EntityWriteRequest(Operation.DELETE_ENTITY, "Orders", "p", "r", List.of("*"),
                false, List.of(), null, null, UNREAD);

        EntityOperation planned = planner.single(ACCOUNT, caller, delete).command().operations().get(0);

        assertThat(planned.type()).isEqualTo(EntityOperation.Type.DELETE);
        assertThat(planned.properties()).isEmpty();
    }

    @Test
    void aWriteToATableThatDoesNotExistIsRefusedBeforeItsBodyIsReadOrItsCallerAsked() {
        EntityWriteRequest insert = new EntityWriteRequest(Operation.INSERT_ENTITY, "Missing", null, null, List.of(),
                false, List.of(), null, null, UNREAD);

        assertRefused(() -> planner.single(ACCOUNT, caller, insert), ErrorCode.TABLE_NOT_FOUND, null);
        assertThat(caller.asked).isEmpty();
    }

    @Test
    void aCallerWhoMayNotWriteAtTheKeysIsRefused() {
        caller.denyRowKey("a");

        assertRefused(() -> planner.single(ACCOUNT, caller, ofItsOwn(insert(0, "Orders", "p", "a"))),
                ErrorCode.AUTHORIZATION_PERMISSION_MISMATCH, null);
    }

    @Test
    void aWriteThatPrefersRespondAsyncIsNotAwaitedAndIsAnsweredWithoutTheEntity() {
        // no Accept and no $format: negotiating a format for the entity would refuse it (Atom)
        EntityWriteRequest insert = new EntityWriteRequest(Operation.INSERT_ENTITY, "Orders", null, null, List.of(),
                false, List.of("respond-async"), null, null, () -> "{\"PartitionKey\":\"p\",\"RowKey\":\"a\"}".getBytes());

        EntityWritePlanner.SingleWrite single = planner.single(ACCOUNT, caller, insert);

        assertThat(single.async()).isTrue();
        assertThat(single.command().header().replyTo()).isNull();
        assertThat(single.write().returnsContent()).isFalse();
    }

    @Test
    void theDataModelRulesApplyToAWriteOfItsOwn() {
        assertRefused(() -> planner.single(ACCOUNT, caller,
                ofItsOwn(upsert(0, "Orders", "p", "r", "{\"N\":\"" + "x".repeat(70_000) + "\"}"))), null, null);
    }

    // --- a $batch change set

    @Test
    void aChangeSetBecomesOneAwaitedCommandHoldingEveryOperationInOrder() {
        EntityWritePlanner.ChangeSet changeSet = planner.changeSet(ACCOUNT, caller, List.of(
                insert(0, "Orders", "p", "a"),
                upsert(1, "orders", "p", "b", "{\"N\":2}"),
                delete(2, "ORDERS", "p", "c")));

        EntityCommand command = changeSet.command();
        assertThat(command.batch()).isTrue();
        assertThat(command.transaction()).isNull();
        assertThat(command.tableId()).isEqualTo(ORDERS.tableId());
        assertThat(command.partitionKey()).isEqualTo("p");
        assertThat(command.operations()).extracting(EntityOperation::type).containsExactly(
                EntityOperation.Type.INSERT, EntityOperation.Type.INSERT_OR_REPLACE, EntityOperation.Type.DELETE);
        assertThat(command.operations()).extracting(EntityOperation::rowKey).containsExactly("a", "b", "c");
        assertThat(command.header().replyTo()).isEqualTo(INSTANCE);
        assertThat(changeSet.sources()).extracting(BatchOperation::index).containsExactly(0, 1, 2);
        assertThat(caller.asked).containsExactly("INSERT_ENTITY Orders p a", "INSERT_OR_REPLACE_ENTITY Orders p b",
                "DELETE_ENTITY Orders p c");
    }

    @Test
    void rejectsBatchWithTwoPartitionKeys() {
        assertRefused(() -> planner.changeSet(ACCOUNT, caller, List.of(
                        insert(0, "Orders", "p", "a"), insert(1, "Orders", "p", "b"), insert(2, "Orders", "q", "c"))),
                ErrorCode.COMMANDS_IN_BATCH_ACT_ON_DIFFERENT_PARTITIONS, 2);
    }

    @Test
    void rejectsAChangeSetOverTwoTables() {
        assertRefused(() -> planner.changeSet(ACCOUNT, caller, List.of(
                insert(0, "Orders", "p", "a"), insert(1, "Archive", "p", "b"))), ErrorCode.INVALID_INPUT, 1);
    }

    @Test
    void rejectsAnEntityTwiceInOneChangeSet() {
        assertRefused(() -> planner.changeSet(ACCOUNT, caller, List.of(
                        insert(0, "Orders", "p", "a"), upsert(1, "Orders", "p", "b", "{}"), delete(2, "Orders", "p", "a"))),
                ErrorCode.INVALID_DUPLICATE_ROW, 2);
    }

    @Test
    void takesAHundredOperationsAndRefusesAHundredAndOne() {
        List<BatchOperation> hundred = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            hundred.add(insert(i, "Orders", "p", "r" + i));
        }
        assertThat(planner.changeSet(ACCOUNT, caller, hundred).command().operations()).hasSize(100);

        List<BatchOperation> more = new ArrayList<>(hundred);
        more.add(insert(100, "Orders", "p", "r100"));
        assertRefused(() -> planner.changeSet(ACCOUNT, caller, more), ErrorCode.INVALID_INPUT, null);
    }

    @Test
    void aRefusedOperationNamesItsIndex() {
        assertRefused(() -> planner.changeSet(ACCOUNT, caller, List.of(insert(0, "Orders", "p", "a"),
                        op(1, "MERGE", entity("Orders", "p", "b"), "{}", "If-Match", "\"not\", \"one\""))),
                ErrorCode.INVALID_INPUT, 1);
        assertRefused(() -> planner.changeSet(ACCOUNT, caller, List.of(insert(0, "Missing", "p", "a"))),
                ErrorCode.TABLE_NOT_FOUND, 0);
        assertRefused(() -> planner.changeSet(ACCOUNT, caller, List.of(insert(0, "Orders", "p", "a"),
                op(1, "POST", "http://127.0.0.1:10002/other/Orders", "{}"))), ErrorCode.INVALID_INPUT, 1);
    }

    @Test
    void aCallerRefusedAtOneOperationsKeysRefusesTheChangeSetAtThatOperation() {
        caller.denyRowKey("b");

        assertRefused(() -> planner.changeSet(ACCOUNT, caller, List.of(insert(0, "Orders", "p", "a"),
                        insert(1, "Orders", "p", "b"), insert(2, "Orders", "p", "c"))),
                ErrorCode.AUTHORIZATION_PERMISSION_MISMATCH, 1);
        assertThat(caller.asked).hasSize(2);
    }

    // --- a cross-partition transaction

    @Test
    void aTransactionGroupsItsOperationsIntoOnePartPerTableAndPartitionKeyInTheOrderTheyFirstAppear() {
        TransactionCommand transaction = planner.transaction(ACCOUNT, caller, List.of(
                insert(0, "Orders", "p", "a"),
                delete(1, "Archive", "q", "b"),
                insert(2, "orders", "p", "c"),
                insert(3, "Orders", "r", "d")));

        assertThat(transaction.header().replyTo()).as("answered once the log has it").isNull();
        List<EntityCommand> parts = transaction.parts();
        assertThat(parts).extracting(EntityCommand::tableId).containsExactly(ORDERS.tableId(), ARCHIVE.tableId(),
                ORDERS.tableId());
        assertThat(parts).extracting(EntityCommand::partitionKey).containsExactly("p", "q", "r");
        assertThat(parts.get(0).operations()).extracting(EntityOperation::rowKey).containsExactly("a", "c");
        for (int i = 0; i < parts.size(); i++) {
            assertThat(parts.get(i).transaction().transactionId()).isEqualTo(transaction.transactionId());
            assertThat(parts.get(i).transaction().part()).isEqualTo(i);
            assertThat(parts.get(i).header().id()).isEqualTo(transaction.transactionId() + "/" + i);
        }
    }

    @Test
    void anEntityTwiceInOnePartIsRefusedAtItsIndexInTheRequest() {
        assertRefused(() -> planner.transaction(ACCOUNT, caller, List.of(
                        insert(0, "Orders", "p", "a"), insert(1, "Archive", "q", "b"), insert(2, "Orders", "q", "a"),
                        delete(3, "Orders", "p", "a"))),
                ErrorCode.INVALID_DUPLICATE_ROW, 3);
    }

    @Test
    void aTransactionRefusesAMissingTableOrAnUnauthorizedOperationAtItsIndex() {
        assertRefused(() -> planner.transaction(ACCOUNT, caller, List.of(
                insert(0, "Orders", "p", "a"), insert(1, "Missing", "q", "b"))), ErrorCode.TABLE_NOT_FOUND, 1);
        caller.denyRowKey("c");
        assertRefused(() -> planner.transaction(ACCOUNT, caller, List.of(
                        insert(0, "Orders", "p", "a"), insert(1, "Archive", "q", "b"), insert(2, "Archive", "q", "c"))),
                ErrorCode.AUTHORIZATION_PERMISSION_MISMATCH, 2);
    }

    @Test
    void aTransactionHoldsAtMostAHundredOperations() {
        List<BatchOperation> operations = new ArrayList<>();
        for (int i = 0; i <= TransactionCommand.MAX_OPERATIONS; i++) {
            operations.add(insert(i, i % 2 == 0 ? "Orders" : "Archive", "p" + i, "r"));
        }

        assertRefused(() -> planner.transaction(ACCOUNT, caller, operations), ErrorCode.INVALID_INPUT, null);
        assertThat(planner.transaction(ACCOUNT, caller, operations.subList(0, 100)).parts()).hasSize(100);
    }

    // --- a bulk write

    private static byte[] ndjson(String... lines) {
        return String.join("\n", lines).getBytes(StandardCharsets.UTF_8);
    }

    private static String line(String pk, String rk, String more) {
        return "{\"PartitionKey\":\"" + pk + "\",\"RowKey\":\"" + rk + "\"" + more + "}";
    }

    @Test
    void aBulkWriteIsOneCommandPerPartitionOfTheLogInBodyOrderAndKnowsEachWritesLine() {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            lines.add(line("pk" + (i % 10), "r" + i, ",\"N\":" + i));
        }

        EntityWritePlanner.BulkWrite bulk = planner.bulk(ACCOUNT, caller, "orders", BulkMode.REPLACE,
                ndjson(lines.toArray(String[]::new)), true);

        assertThat(bulk.entities()).isEqualTo(40);
        assertThat(bulk.refused()).isEmpty();
        assertThat(bulk.commands()).hasSizeLessThanOrEqualTo(4);
        List<Integer> seen = new ArrayList<>();
        for (int c = 0; c < bulk.commands().size(); c++) {
            BulkCommand command = bulk.commands().get(c);
            int[] linesOf = bulk.lines().get(c);
            assertThat(command.tableId()).isEqualTo(ORDERS.tableId());
            assertThat(command.header().replyTo()).isEqualTo(INSTANCE);
            assertThat(command.writes().stream().map(w -> log.partitionOf(CommandKey.forEntity(ACCOUNT,
                    ORDERS.tableId(), w.partitionKey()))).distinct()).as("one partition of the log").hasSize(1);
            for (int w = 0; w < command.writes().size(); w++) {
                BulkCommand.Write write = command.writes().get(w);
                int n = linesOf[w] - 1;
                assertThat(write.partitionKey()).isEqualTo("pk" + (n % 10));
                assertThat(write.operation().rowKey()).isEqualTo("r" + n);
                assertThat(write.operation().type()).isEqualTo(EntityOperation.Type.INSERT_OR_REPLACE);
                assertThat(write.operation().properties()).containsEntry("N", EdmInt32.of(n));
                if (w > 0) {
                    assertThat(linesOf[w]).as("body order").isGreaterThan(linesOf[w - 1]);
                }
                seen.add(linesOf[w]);
            }
        }
        assertThat(seen).containsExactlyInAnyOrderElementsOf(IntStream.rangeClosed(1, 40).boxed().toList());
        assertThat(caller.asked.get(0)).isEqualTo("BULK_WRITE Orders null null");
        assertThat(caller.asked).contains("INSERT_OR_REPLACE_ENTITY Orders pk3 r13").hasSize(41);
        assertThat(log.appended).as("planning appends nothing").isEmpty();
    }

    @Test
    void eachModeWritesAsItsOperation() {
        for (BulkMode mode : BulkMode.values()) {
            EntityWritePlanner.BulkWrite bulk = planner.bulk(ACCOUNT, caller, "Orders", mode,
                    ndjson(line("p", "r", "")), false);

            assertThat(bulk.commands()).singleElement().satisfies(c -> {
                assertThat(c.writes().get(0).operation().type()).isEqualTo(mode.type());
                assertThat(c.header().replyTo()).as("not awaited").isNull();
            });
            assertThat(caller.asked).last().isEqualTo(mode.operation() + " Orders p r");
        }
        assertThat(BulkMode.parse(null)).isEqualTo(BulkMode.REPLACE);
        assertThat(BulkMode.parse("Merge")).isEqualTo(BulkMode.MERGE);
        assertRefused(() -> BulkMode.parse("upsert"), ErrorCode.INVALID_QUERY_PARAMETER_VALUE, null);
    }

    @Test
    void aLineThatIsNoValidEntityIsRefusedAloneAndBlankLinesAreSkipped() {
        caller.denyRowKeyOutOfRange("outside");
        byte[] body = ndjson(
                line("p", "ok1", ""),
                "{\"PartitionKey\":\"p\",",
                "",
                "  \r",
                "{\"PartitionKey\":\"p\"}",
                line("p", "bad#key", ""),
                line("p", "outside", ""),
                line("p", "big", ",\"S\":\"" + "x".repeat(40_000) + "\""),
                "[1,2]",
                line("p", "ok2", ",\"T@odata.type\":\"Edm.Int64\",\"T\":\"5\"") + "\r",
                "");

        EntityWritePlanner.BulkWrite bulk = planner.bulk(ACCOUNT, caller, "Orders", BulkMode.REPLACE, body, true);

        assertThat(bulk.entities()).isEqualTo(8);
        assertThat(bulk.refused()).extracting(f -> f.line() + " " + f.code().code()).containsExactly(
                "2 InvalidInput", "5 PropertiesNeedValue", "6 OutOfRangeInput", "7 AuthorizationFailure",
                "8 PropertyValueTooLarge", "9 InvalidInput");
        assertThat(bulk.commands()).singleElement().satisfies(c -> assertThat(c.writes())
                .extracting(w -> w.operation().rowKey()).containsExactly("ok1", "ok2"));
        assertThat(bulk.lines().get(0)).containsExactly(1, 10);
    }

    @Test
    void aCommandHoldsABoundedNumberOfWrites() {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < EntityWritePlanner.BULK_COMMAND_WRITES + 10; i++) {
            lines.add(line("same", String.format("r%05d", i), ""));
        }

        EntityWritePlanner.BulkWrite bulk = planner.bulk(ACCOUNT, caller, "Orders", BulkMode.INSERT,
                ndjson(lines.toArray(String[]::new)), true);

        assertThat(bulk.commands()).extracting(c -> c.writes().size())
                .containsExactly(EntityWritePlanner.BULK_COMMAND_WRITES, 10);
        assertThat(bulk.lines().get(1)[0]).isEqualTo(EntityWritePlanner.BULK_COMMAND_WRITES + 1);
    }

    @Test
    void aBulkWriteTheCallerMayNotMakeInItsModeIsRefusedWhole() {
        caller.denyRowKey("r2");

        assertRefused(() -> planner.bulk(ACCOUNT, caller, "Orders", BulkMode.MERGE,
                ndjson(line("p", "r1", ""), line("p", "r2", "")), true), ErrorCode.AUTHORIZATION_PERMISSION_MISMATCH,
                null);
        assertRefused(() -> planner.bulk(ACCOUNT, caller, "Missing", BulkMode.MERGE, ndjson(line("p", "r1", "")), true),
                ErrorCode.TABLE_NOT_FOUND, null);
    }

    @Test
    void aBulkWriteHoldsAtMostAHundredThousandEntities() {
        StringBuilder body = new StringBuilder();
        for (int i = 0; i <= Limits.MAX_BULK_ENTITIES; i++) {
            body.append("{\"PartitionKey\":\"p\",\"RowKey\":\"").append(i).append("\"}\n");
        }

        assertRefused(() -> planner.bulk(ACCOUNT, caller, "Orders", BulkMode.REPLACE,
                body.toString().getBytes(StandardCharsets.UTF_8), true), ErrorCode.INVALID_INPUT, null);
    }

    /** Refused with {@code code} (any 4xx when null), naming operation {@code index} (none when null). */
    private static void assertRefused(ThrowingCallable planning, ErrorCode code, Integer index) {
        assertThatThrownBy(planning).isInstanceOfSatisfying(TableServiceException.class, e -> {
            if (code != null) {
                assertThat(e.errorCode()).as(e.getMessage()).isEqualTo(code);
            } else {
                assertThat(e.httpStatus()).as(e.getMessage()).isBetween(400, 499);
            }
            if (index == null) {
                assertThat(e.failedIndex()).isEmpty();
            } else {
                assertThat(e.failedIndex()).hasValue(index);
            }
        });
    }
}
