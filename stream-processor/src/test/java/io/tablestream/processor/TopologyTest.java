package io.tablestream.processor;

import static io.tablestream.processor.ProcessorHarness.header;
import static org.assertj.core.api.Assertions.assertThat;

import io.tablestream.core.command.ChangeEvent;
import io.tablestream.core.command.CommandKey;
import io.tablestream.core.command.EntityChange;
import io.tablestream.core.command.EntityCommand;
import io.tablestream.core.command.EntityOperation.Type;
import io.tablestream.core.command.EntityOperation;
import io.tablestream.core.command.Outcome;
import io.tablestream.core.command.PartitionDeletion;
import io.tablestream.core.command.TableCommand;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.model.EdmInt32;
import io.tablestream.core.model.EdmString;
import io.tablestream.core.model.EdmValue;
import io.tablestream.core.model.StoredEntity;
import io.tablestream.core.model.TableName;
import io.tablestream.core.model.TableRecord;
import io.tablestream.processor.internal.RegistryView;
import io.tablestream.processor.store.StoreNames;
import io.tablestream.schemas.LogCodecs;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class TopologyTest {
    private final ProcessorHarness h = new ProcessorHarness();

    @AfterEach
    void close() {
        h.close();
    }

    private RegistryView registry() {
        return new RegistryView(h.driver.getKeyValueStore(StoreNames.REGISTRY));
    }

    @Test
    void createTablePublishesItToTheRegistryUnderNameAndId() {
        long id = h.givenTable("MyOrders");

        assertThat(registry().byName("acct", TableName.of("myorders"))).hasValueSatisfying(t -> {
            assertThat(t.tableId()).isEqualTo(id);
            assertThat(t.name().value()).isEqualTo("MyOrders");
        });
        assertThat(registry().byId(id)).isPresent();
        assertThat(registry().list("acct", null, 10)).extracting(t -> t.name().value()).containsExactly("MyOrders");
    }

    @Test
    void rejectsCreatingATableWhoseNameExistsInAnyCase() {
        h.givenTable("Orders");

        Outcome again = h.send(TableCommand.create(header(), TableName.of("ORDERS"), null));

        assertThat(again.failure().code()).isEqualTo(ErrorCode.TABLE_ALREADY_EXISTS);
    }

    @Test
    void sameNameInAnotherAccountIsAnotherTable() {
        h.givenTable("Orders");

        Outcome other = h.send(TableCommand.create(
                new io.tablestream.core.command.CommandHeader("x", "other", 0L, null, null), TableName.of("Orders"), null));

        assertThat(other.succeeded()).isTrue();
    }

    @Test
    void insertStoresTheEntityAndPublishesTheChange() {
        long t = h.givenTable("Orders");

        Outcome o = h.insert(t, "Orders", "p1", "r1", Map.of("Qty", EdmInt32.of(3)));

        assertThat(o.succeeded()).isTrue();
        assertThat(o.results()).singleElement().satisfies(r -> assertThat(r.timestamp()).isNotNull());
        StoredEntity stored = h.stored(t, "p1", "r1").orElseThrow();
        assertThat(stored.entity().properties()).containsEntry("Qty", EdmInt32.of(3));
        assertThat(stored.entity().timestamp()).isEqualTo(o.results().get(0).timestamp());
        ChangeEvent change = h.changes().get(0);
        assertThat(change.change().type()).isEqualTo(EntityChange.Type.INSERTED);
        assertThat(change.commandId()).isEqualTo(o.commandId());
        assertThat(change.principal()).isEqualTo("tester");
        assertThat(change.tableName().value()).isEqualTo("Orders");
    }

    @Test
    void outcomeCarriesTheCommandsPartitionAndOffset() {
        long t = h.givenTable("Orders");

        Outcome o = h.insert(t, "Orders", "p1", "r1", Map.of());

        assertThat(o.partition()).isZero();
        assertThat(o.offset()).isEqualTo(2L); // after the create (0) and its announcement (1)
        assertThat(h.settings.appliedOffsets().applied(0)).isEqualTo(2L);
    }

    @Test
    void insertingAnExistingEntityFailsWithoutChangingIt() {
        long t = h.givenTable("Orders");
        h.insert(t, "Orders", "p1", "r1", Map.of("V", EdmInt32.of(1)));

        Outcome o = h.insert(t, "Orders", "p1", "r1", Map.of("V", EdmInt32.of(2)));

        assertThat(o.failure().code()).isEqualTo(ErrorCode.ENTITY_ALREADY_EXISTS);
        assertThat(h.stored(t, "p1", "r1").orElseThrow().entity().properties()).containsEntry("V", EdmInt32.of(1));
    }

    @Test
    void updateWithAStaleETagFailsAndWithTheCurrentOneSucceeds() {
        long t = h.givenTable("Orders");
        h.insert(t, "Orders", "p", "r", Map.of("V", EdmInt32.of(1)));
        String etag1 = h.stored(t, "p", "r").orElseThrow().entity().etag().value();
        h.write(t, "Orders", "p", EntityOperation.of(Type.REPLACE, "r", etag1, Map.of("V", EdmInt32.of(2))));

        Outcome stale = h.write(t, "Orders", "p", EntityOperation.of(Type.MERGE, "r", etag1, Map.of("W", EdmInt32.of(9))));
        String etag2 = h.stored(t, "p", "r").orElseThrow().entity().etag().value();
        Outcome current = h.write(t, "Orders", "p", EntityOperation.of(Type.MERGE, "r", etag2, Map.of("W", EdmInt32.of(9))));

        assertThat(stale.failure().code()).isEqualTo(ErrorCode.UPDATE_CONDITION_NOT_SATISFIED);
        assertThat(current.succeeded()).isTrue();
        assertThat(h.stored(t, "p", "r").orElseThrow().entity().properties())
                .containsEntry("V", EdmInt32.of(2)).containsEntry("W", EdmInt32.of(9));
    }

    @Test
    void twoWritesInTheSameInstantGetDifferentTimestampsAndETags() {
        long t = h.givenTable("Orders");

        Outcome first = h.write(t, "Orders", "p", EntityOperation.of(Type.INSERT_OR_REPLACE, "r", null, Map.of()));
        String etag1 = h.stored(t, "p", "r").orElseThrow().entity().etag().value();
        Outcome second = h.write(t, "Orders", "p", EntityOperation.of(Type.INSERT_OR_REPLACE, "r", null, Map.of()));
        String etag2 = h.stored(t, "p", "r").orElseThrow().entity().etag().value();

        assertThat(second.results().get(0).timestamp()).isGreaterThan(first.results().get(0).timestamp());
        assertThat(etag2).isNotEqualTo(etag1);
    }

    @Test
    void deleteRemovesTheEntity() {
        long t = h.givenTable("Orders");
        h.insert(t, "Orders", "p", "r", Map.of());

        Outcome o = h.write(t, "Orders", "p", EntityOperation.delete("r", "*"));
        Outcome again = h.write(t, "Orders", "p", EntityOperation.delete("r", "*"));

        assertThat(o.succeeded()).isTrue();
        assertThat(h.stored(t, "p", "r")).isEmpty();
        assertThat(again.failure().code()).isEqualTo(ErrorCode.RESOURCE_NOT_FOUND);
        assertThat(h.changes()).extracting(c -> c.change().type())
                .containsExactly(EntityChange.Type.INSERTED, EntityChange.Type.DELETED);
    }

    @Test
    void aBatchAppliesAllOrNothing() {
        long t = h.givenTable("Orders");
        h.insert(t, "Orders", "p", "exists", Map.of());

        Outcome failed = h.send(EntityCommand.batch(header(), t, TableName.of("Orders"), "p", List.of(
                EntityOperation.of(Type.INSERT, "a", null, Map.of()),
                EntityOperation.of(Type.INSERT, "b", null, Map.of()),
                EntityOperation.of(Type.INSERT, "exists", null, Map.of()))));
        Outcome applied = h.send(EntityCommand.batch(header(), t, TableName.of("Orders"), "p", List.of(
                EntityOperation.of(Type.INSERT, "a", null, Map.of()),
                EntityOperation.of(Type.INSERT, "b", null, Map.of()),
                EntityOperation.delete("exists", "*"))));

        assertThat(failed.failure().code()).isEqualTo(ErrorCode.ENTITY_ALREADY_EXISTS);
        assertThat(failed.failure().operationIndex()).isEqualTo(2);
        assertThat(applied.succeeded()).isTrue();
        assertThat(applied.results()).hasSize(3);
        assertThat(h.stored(t, "p", "a")).isPresent();
        assertThat(h.stored(t, "p", "b")).isPresent();
        assertThat(h.stored(t, "p", "exists")).isEmpty();
    }

    @Test
    void rejectsABatchWithADuplicateRowAndDeadLettersIt() {
        long t = h.givenTable("Orders");

        Outcome o = h.send(EntityCommand.batch(header(), t, TableName.of("Orders"), "p", List.of(
                EntityOperation.of(Type.INSERT, "a", null, Map.of()),
                EntityOperation.of(Type.INSERT, "a", null, Map.of()))));

        assertThat(o.failure().code()).isEqualTo(ErrorCode.INVALID_DUPLICATE_ROW);
        assertThat(o.failure().operationIndex()).isEqualTo(1);
        assertThat(h.deadLetters()).hasSize(1);
        assertThat(h.rowCount()).isZero();
    }

    @Test
    void rejectsAnInvalidEntityWithAnOutcomeAndADeadLetterAndKeepsGoing() {
        long t = h.givenTable("Orders");
        Map<String, EdmValue> tooMany = new HashMap<>();
        for (int i = 0; i < 253; i++) {
            tooMany.put("P" + i, EdmInt32.of(i));
        }

        Outcome bad = h.insert(t, "Orders", "p", "r", tooMany);
        Outcome good = h.insert(t, "Orders", "p", "r2", Map.of());

        assertThat(bad.failure().code()).isEqualTo(ErrorCode.TOO_MANY_PROPERTIES);
        List<TestRecord<byte[], byte[]>> dead = h.deadLetters();
        assertThat(dead).hasSize(1);
        assertThat(new String(dead.get(0).headers().lastHeader("tablestream.error.code").value(), StandardCharsets.UTF_8))
                .isEqualTo("TooManyProperties");
        assertThat(good.succeeded()).isTrue();
    }

    @Test
    void deadLettersUndecodableBytesAndKeepsGoing() {
        long t = h.givenTable("Orders");

        h.sendRaw("acct/1/p", "not avro at all".getBytes(StandardCharsets.UTF_8));
        Outcome next = h.insert(t, "Orders", "p", "r", Map.of());

        List<TestRecord<byte[], byte[]>> dead = h.deadLetters();
        assertThat(dead).hasSize(1);
        assertThat(dead.get(0).value()).isEqualTo("not avro at all".getBytes(StandardCharsets.UTF_8));
        assertThat(next.succeeded()).isTrue();
    }

    @Test
    void answersACommandWithAValidHeaderButAnInvalidBody() {
        io.tablestream.schemas.avro.Command avro = new io.tablestream.schemas.avro.Command("bad-1", "acct", 0L, "me", null,
                new io.tablestream.schemas.avro.TableOperation(io.tablestream.schemas.avro.TableOperationType.CREATE,
                        "no", null, null, List.of(), null, List.of(), null));
        byte[] bytes = io.tablestream.schemas.AvroLogCodec.<io.tablestream.schemas.avro.Command,
                io.tablestream.schemas.avro.Command>of(avro.getSchema(), a -> a, a -> a).encode(avro);

        h.sendRaw("acct/no", bytes);

        assertThat(h.outcomeOf("bad-1")).hasValueSatisfying(o ->
                assertThat(o.failure().code()).isEqualTo(ErrorCode.INVALID_INPUT));
        assertThat(h.deadLetters()).hasSize(1);
    }

    @Test
    void writesToAMissingTableFailWithTableNotFound() {
        Outcome o = h.insert(12345L, "Ghost", "p", "r", Map.of());

        assertThat(o.failure().code()).isEqualTo(ErrorCode.TABLE_NOT_FOUND);
        assertThat(h.rowCount()).isZero();
    }

    @Test
    void deletingATableRetiresItsIdAndTheSweeperRemovesItsRows() {
        long t = h.givenTable("Orders");
        for (int i = 0; i < 5; i++) {
            h.insert(t, "Orders", "p", "r" + i, Map.of());
        }

        Outcome deleted = h.send(TableCommand.delete(header(), TableName.of("orders")));
        Outcome writeAfter = h.insert(t, "Orders", "p", "late", Map.of());
        long recreated = h.givenTable("Orders");

        assertThat(deleted.succeeded()).isTrue();
        assertThat(writeAfter.failure().code()).isEqualTo(ErrorCode.TABLE_NOT_FOUND);
        assertThat(recreated).isNotEqualTo(t);
        assertThat(registry().byId(t)).hasValueSatisfying(r -> assertThat(r.state()).isEqualTo(TableRecord.State.DELETED));
        assertThat(registry().byName("acct", TableName.of("Orders"))).hasValueSatisfying(r ->
                assertThat(r.tableId()).isEqualTo(recreated));
        assertThat(h.rowCount()).isEqualTo(5);

        for (int round = 0; round < 3; round++) { // the harness sweeps 2 rows per round
            h.advance(Duration.ofSeconds(5));
        }

        assertThat(h.rowCount()).isZero();
    }

    @Test
    void deletingAPartitionHidesItsRowsFromCommandsAtOnceAndTheSweepRemovesOnlyTheOlderOnes() {
        long t = h.givenTable("Orders");
        for (int i = 0; i < 4; i++) {
            h.insert(t, "Orders", "p", "r" + i, Map.of("V", EdmInt32.of(1)));
        }
        h.insert(t, "Orders", "q", "r0", Map.of());

        Outcome deleted = h.send(new PartitionDeletion(header(), t, TableName.of("Orders"), "p"));
        Outcome reinserted = h.insert(t, "Orders", "p", "r0", Map.of("V", EdmInt32.of(2)));
        Outcome deleteOfAGoneRow = h.write(t, "Orders", "p", EntityOperation.delete("r1", null));
        Outcome missingTable = h.send(new PartitionDeletion(header(), 12345L, TableName.of("Ghost"), "p"));

        assertThat(deleted.succeeded()).isTrue();
        assertThat(deleted.results()).singleElement().satisfies(r -> assertThat(r.timestamp()).isNotNull());
        assertThat(reinserted.succeeded()).as("the old p/r0 is gone: an insert succeeds").isTrue();
        assertThat(deleteOfAGoneRow.failure().code()).isEqualTo(ErrorCode.RESOURCE_NOT_FOUND);
        assertThat(missingTable.failure().code()).isEqualTo(ErrorCode.TABLE_NOT_FOUND);
        assertThat(h.changes()).filteredOn(c -> c.change().type() == EntityChange.Type.PARTITION_DELETED)
                .singleElement().satisfies(c -> {
                    assertThat(c.change().partitionKey()).isEqualTo("p");
                    assertThat(c.commandId()).isEqualTo(deleted.commandId());
                    assertThat(c.changedAt()).isEqualTo(deleted.results().get(0).timestamp());
                });
        assertThat(h.rowCount()).isEqualTo(5); // not swept yet: p/r0 (new), p/r1..r3 (old), q/r0

        for (int round = 0; round < 4; round++) { // the harness sweeps 2 rows per round
            h.advance(Duration.ofSeconds(5));
        }

        assertThat(h.rowCount()).isEqualTo(2);
        assertThat(h.stored(t, "p", "r0")).hasValueSatisfying(s ->
                assertThat(s.entity().properties()).containsEntry("V", EdmInt32.of(2)));
        assertThat(h.stored(t, "q", "r0")).isPresent();
        // the deletion is forgotten once swept (no history): the partition is an ordinary one again
        assertThat(h.insert(t, "Orders", "p", "r1", Map.of()).succeeded()).isTrue();
        assertThat(h.insert(t, "Orders", "p", "r0", Map.of()).failure().code())
                .isEqualTo(ErrorCode.ENTITY_ALREADY_EXISTS);
    }

    @Test
    void aTablesDeletionIsOneTableDeletedChangeFromTheTaskThatSeesIt() {
        long t = h.givenTable("Orders");
        h.insert(t, "Orders", "p", "r", Map.of());

        Outcome deleted = h.send(TableCommand.delete(header(), TableName.of("orders")));

        assertThat(deleted.succeeded()).isTrue();
        assertThat(h.changes()).extracting(c -> c.change().type())
                .containsExactly(EntityChange.Type.INSERTED, EntityChange.Type.TABLE_DELETED);
        ChangeEvent event = h.changes().get(1);
        assertThat(event.change().tableId()).isEqualTo(t);
        assertThat(event.commandId()).isEqualTo(deleted.commandId());
        assertThat(event.principal()).isEqualTo("tester");
    }

    @Test
    void theHistorySweepKeepsTheVersionInForceAtTheRetentionHorizonUnlessItIsADelete() {
        Outcome created = h.send(TableCommand.create(header(), TableName.of("Audit"), null, 60));
        long t = created.table().tableId();
        h.insert(t, "Audit", "p", "kept", Map.of("V", EdmInt32.of(1)));
        h.clock.advance(Duration.ofSeconds(1));
        h.write(t, "Audit", "p", EntityOperation.of(Type.REPLACE, "kept", null, Map.of("V", EdmInt32.of(2))));
        h.insert(t, "Audit", "p", "gone", Map.of());
        h.clock.advance(Duration.ofSeconds(1));
        h.write(t, "Audit", "p", EntityOperation.delete("gone", null));

        for (int round = 0; round < 6; round++) { // every version past the retention; 2 examined per round
            h.advance(Duration.ofSeconds(61));
        }

        // "kept": its newest version (V=2) stays, the older one goes; "gone": its delete and its insert go
        assertThat(versionsOf(t, "p", "kept")).singleElement()
                .satisfies(version -> assertThat(version.change().newVersion().entity().properties())
                        .containsEntry("V", EdmInt32.of(2)));
        assertThat(versionsOf(t, "p", "gone")).isEmpty();
    }

    private List<ChangeEvent> versionsOf(long tableId, String pk, String rk) {
        org.apache.kafka.streams.state.KeyValueStore<org.apache.kafka.common.utils.Bytes, byte[]> store =
                h.driver.getKeyValueStore(StoreNames.HISTORY);
        io.tablestream.core.storekey.ByteRange range = io.tablestream.core.storekey.KeyCodec.versions(
                io.tablestream.core.model.EntityKey.of(tableId, pk, rk), null);
        List<ChangeEvent> out = new java.util.ArrayList<>();
        try (var it = store.range(org.apache.kafka.common.utils.Bytes.wrap(range.fromInclusive()),
                org.apache.kafka.common.utils.Bytes.wrap(range.toExclusive()))) {
            while (it.hasNext()) {
                var kv = it.next();
                if (range.contains(kv.key.get())) {
                    out.add(LogCodecs.CHANGE_EVENT.decode(kv.value));
                }
            }
        }
        return out;
    }

    @Test
    void deletingAMissingTableFailsWithResourceNotFound() {
        Outcome o = h.send(TableCommand.delete(header(), TableName.of("Nope")));

        assertThat(o.failure().code()).isEqualTo(ErrorCode.RESOURCE_NOT_FOUND);
    }

    @Test
    void anExpiredEntityIsGoneForCommandsAtOnceAndDeletedThroughTheChangeFeed() {
        long t = h.givenTable("Sensors");
        h.insert(t, "Sensors", "dev1", "r", Map.of("TTLInSeconds", EdmInt32.of(10)));

        h.clock.advance(Duration.ofSeconds(11)); // expired, not yet swept
        Outcome reinsert = h.insert(t, "Sensors", "dev1", "r", Map.of("TTLInSeconds", EdmInt32.of(10)));
        h.clock.advance(Duration.ofSeconds(11));
        h.driver.advanceWallClockTime(Duration.ofSeconds(1));

        assertThat(reinsert.succeeded()).isTrue();
        assertThat(h.stored(t, "dev1", "r")).isEmpty();
        assertThat(h.changes()).extracting(c -> c.change().type())
                .containsExactly(EntityChange.Type.INSERTED, EntityChange.Type.INSERTED, EntityChange.Type.EXPIRED);
        ChangeEvent expired = h.changes().get(2);
        assertThat(expired.commandId()).isNull();
        assertThat(expired.tableName().value()).isEqualTo("Sensors");
    }

    @Test
    void tableDefaultTtlExpiresEntitiesUnlessTheyOptOut() {
        long t = h.givenTable("Telemetry", 60);
        h.insert(t, "Telemetry", "d", "short", Map.of());
        h.insert(t, "Telemetry", "d", "forever", Map.of("TTLInSeconds", EdmInt32.of(-1)));

        h.advance(Duration.ofSeconds(61));

        assertThat(h.stored(t, "d", "short")).isEmpty();
        assertThat(h.stored(t, "d", "forever")).isPresent();
    }

    @Test
    void rewritingAnEntityMovesItsExpiry() {
        long t = h.givenTable("Sensors");
        h.insert(t, "Sensors", "d", "r", Map.of("TTLInSeconds", EdmInt32.of(10)));
        h.advance(Duration.ofSeconds(5));
        h.write(t, "Sensors", "d", EntityOperation.of(Type.INSERT_OR_REPLACE, "r", null,
                Map.of("TTLInSeconds", EdmInt32.of(100), "V", EdmString.of("x"))));

        h.advance(Duration.ofSeconds(10));

        assertThat(h.stored(t, "d", "r")).isPresent();
    }

    @Test
    void deadLettersACommandOnTheWrongPartition() {
        try (ProcessorHarness eight = new ProcessorHarness(8)) {
            // Find a table name whose key does not hash to partition 0 (the only one the driver feeds).
            String name = null;
            for (int i = 0; name == null; i++) {
                String candidate = "Tbl" + i;
                if (io.tablestream.schemas.LogPartitioner.partitionOf(CommandKey.forTable("acct", TableName.of(candidate)), 8) != 0) {
                    name = candidate;
                }
            }
            TableCommand command = TableCommand.create(header(), TableName.of(name), null);
            eight.sendRaw(CommandKey.of(command).value(), LogCodecs.COMMAND.encode(command));

            assertThat(eight.outcomeOf(command.id())).hasValueSatisfying(o ->
                    assertThat(o.failure().message()).contains("belongs on partition"));
            assertThat(eight.deadLetters()).hasSize(1);
        }
    }

    @Test
    void aStartingTaskServesReadsOnlyOnceItReachesTheMarkerItWroteAtTheEndOfItsPartition() {
        long t = h.givenTable("Orders");
        h.insert(t, "Orders", "p", "r", Map.of());
        assertThat(h.settings.appliedOffsets().readable(0)).isFalse();

        h.driver.advanceWallClockTime(Duration.ofMillis(5)); // the task writes its marker; it comes back in order

        assertThat(h.settings.appliedOffsets().readable(0)).isTrue();
        assertThat(h.outcomeOf("none")).isEmpty();
        assertThat(h.changes()).hasSize(1); // a marker changes nothing
    }

    @Test
    void aTableIsKnownToTheTaskFromItsAnnouncementOnwards() {
        long t = h.givenTable("Orders");

        Outcome before = h.insert(t, "Orders", "p", "a", Map.of());
        h.send(TableCommand.delete(header(), TableName.of("Orders")));
        Outcome after = h.insert(t, "Orders", "p", "b", Map.of());

        assertThat(before.succeeded()).isTrue();
        assertThat(after.failure().code()).isEqualTo(ErrorCode.TABLE_NOT_FOUND);
        assertThat(h.partitionTable(t)).hasValueSatisfying(r -> assertThat(r.isActive()).isFalse());
    }

    @Test
    void aTableRegisteredBeforeAnnouncementsExistedIsLiveUntilItsDeletionIsAnnounced() {
        TableRecord old = TableRecord.active("acct", TableName.of("Legacy"), 12345L,
                io.tablestream.core.model.EdmDateTime.of(h.clock.instant()), null);
        h.register(old);
        h.register(old.deleted(io.tablestream.core.model.EdmDateTime.of(h.clock.instant()))); // the view already moved on

        Outcome write = h.insert(old.tableId(), "Legacy", "p", "a", Map.of());
        Outcome otherAccount = h.send(EntityCommand.single(new io.tablestream.core.command.CommandHeader("x-1", "other",
                Long.MAX_VALUE, "me", null), old.tableId(), TableName.of("Legacy"), "p",
                EntityOperation.of(Type.INSERT, "b", null, Map.of())));
        Outcome unknown = h.insert(999L, "Nothing", "p", "a", Map.of());

        assertThat(write.succeeded()).as("the registered id counts, not the view's later state").isTrue();
        assertThat(otherAccount.failure().code()).isEqualTo(ErrorCode.TABLE_NOT_FOUND);
        assertThat(unknown.failure().code()).isEqualTo(ErrorCode.TABLE_NOT_FOUND);
    }

    @Test
    void timestampsComeFromTheCommandsAndThePartitionClockNeverTheWallClock() {
        long t = h.givenTable("Orders");
        java.time.Instant accepted = java.time.Instant.parse("2030-01-01T00:00:00Z");
        h.clock.advance(Duration.ofDays(3650)); // the record's timestamp (and wall clock) is far later than the header

        Outcome first = h.send(EntityCommand.single(new io.tablestream.core.command.CommandHeader("c-1", "acct",
                accepted.toEpochMilli(), "me", null), t, TableName.of("Orders"), "p",
                EntityOperation.of(Type.INSERT, "a", null, Map.of())));
        Outcome second = h.send(EntityCommand.single(new io.tablestream.core.command.CommandHeader("c-2", "acct",
                accepted.toEpochMilli(), "me", null), t, TableName.of("Orders"), "p",
                EntityOperation.of(Type.INSERT, "b", null, Map.of())));

        assertThat(first.results().get(0).timestamp().toInstant()).isEqualTo(accepted);
        assertThat(second.results().get(0).timestamp().epochTicks())
                .isEqualTo(first.results().get(0).timestamp().epochTicks() + 1);
    }

    @Test
    void everyOutcomeSomeoneWaitsForIsHandedOverAsDecided() {
        long t = h.givenTable("Orders");
        Outcome ok = h.insert(t, "Orders", "p", "a", Map.of());
        Outcome conflict = h.insert(t, "Orders", "p", "a", Map.of());

        assertThat(h.handedOff).contains(ok, conflict);
    }

    @Test
    void anOutcomeTakenInProcessIsNotWrittenToTheOutcomesTopic() {
        long t = h.givenTable("Orders");
        h.outcomeRecords();
        h.handOffTaken = true;
        EntityCommand taken = EntityCommand.single(ProcessorHarness.header(), t, TableName.of("Orders"), "p",
                EntityOperation.of(Type.INSERT, "a", null, Map.of()));
        h.sendRaw(CommandKey.of(taken).value(), LogCodecs.COMMAND.encode(taken));

        assertThat(h.handedOff).extracting(Outcome::commandId).contains(taken.id());
        assertThat(h.outcomeRecords()).as("nobody needs it on the topic").isEmpty();

        h.handOffTaken = false;
        Outcome conflict = h.insert(t, "Orders", "p", "a", Map.of());
        assertThat(conflict.failure().code()).isEqualTo(ErrorCode.ENTITY_ALREADY_EXISTS);
        assertThat(h.handedOff).contains(conflict);
    }
}
