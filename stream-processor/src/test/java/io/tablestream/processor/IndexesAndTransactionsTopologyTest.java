package io.tablestream.processor;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablestream.core.command.CommandHeader;
import io.tablestream.core.command.EntityCommand;
import io.tablestream.core.command.EntityOperation;
import io.tablestream.core.command.Outcome;
import io.tablestream.core.command.TableCommand;
import io.tablestream.core.command.TransactionCommand;
import io.tablestream.core.command.TransactionStatus;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.model.EdmInt32;
import io.tablestream.core.model.EdmString;
import io.tablestream.core.model.EdmValue;
import io.tablestream.core.model.EntityKey;
import io.tablestream.core.model.TableName;
import io.tablestream.core.rules.IndexRules;
import io.tablestream.core.storekey.ByteRange;
import io.tablestream.core.storekey.IndexKeys;
import io.tablestream.processor.store.IndexBuild;
import io.tablestream.processor.store.StoreNames;
import io.tablestream.processor.store.TransactionKeys;
import io.tablestream.schemas.LogCodecs;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Secondary indexes and cross-partition transactions in the topology, without a broker. */
class IndexesAndTransactionsTopologyTest {
    private final ProcessorHarness h = new ProcessorHarness();

    @AfterEach
    void close() {
        h.close();
    }

    private static Map<String, EdmValue> email(String value) {
        return Map.of("Email", EdmString.of(value));
    }

    private long indexIdOf(long tableId) {
        return h.partitionTable(tableId).orElseThrow().indexes().get(0).indexId();
    }

    private IndexBuild build(long tableId, long indexId) {
        KeyValueStore<String, byte[]> builds = h.driver.getKeyValueStore(StoreNames.INDEX_BUILDS);
        byte[] value = builds.get(IndexBuild.key(tableId, indexId));
        return value == null ? null : IndexBuild.decode(IndexBuild.key(tableId, indexId), value);
    }

    private long entries(long tableId, long indexId) {
        KeyValueStore<Bytes, byte[]> index = h.driver.getKeyValueStore(StoreNames.INDEXES);
        ByteRange range = IndexKeys.index(tableId, indexId);
        long n = 0;
        try (KeyValueIterator<Bytes, byte[]> it = index.range(Bytes.wrap(range.fromInclusive()),
                Bytes.wrap(range.toExclusive()))) {
            while (it.hasNext()) {
                if (range.contains(it.next().key.get())) {
                    n++;
                }
            }
        }
        return n;
    }

    private boolean hasEntry(long indexId, String value, long tableId, String pk, String rk) {
        KeyValueStore<Bytes, byte[]> index = h.driver.getKeyValueStore(StoreNames.INDEXES);
        return index.get(Bytes.wrap(IndexKeys.entry(indexId, EdmString.of(value), EntityKey.of(tableId, pk, rk)))) != null;
    }

    @Test
    void anIndexIsBuiltOverExistingRowsKeptInStepWithEveryChangeAndSweptWhenDropped() {
        long t = h.givenTable("People");
        for (int i = 0; i < 5_000; i++) {
            h.insert(t, "People", "p" + i % 7, "r" + i, email("e" + i % 10));
        }
        h.insert(t, "People", "p0", "noemail", Map.of("Other", EdmInt32.of(1)));
        Outcome created = h.send(TableCommand.createIndex(ProcessorHarness.header(), TableName.of("People"),
                IndexRules.requested("ByEmail", "Email")));
        assertThat(created.succeeded()).isTrue();
        long index = indexIdOf(t);
        assertThat(build(t, index).state()).isEqualTo(IndexBuild.State.BUILDING);
        // a row changed before the build reaches it is indexed once, with its new value
        h.write(t, "People", "p1", EntityOperation.of(EntityOperation.Type.INSERT_OR_REPLACE, "r4999", null,
                email("changed")));

        for (int round = 0; round < 10 && build(t, index).state() != IndexBuild.State.READY; round++) {
            h.advance(Duration.ofMillis(25));
        }

        assertThat(build(t, index).state()).isEqualTo(IndexBuild.State.READY);
        assertThat(entries(t, index)).isEqualTo(5_000).isEqualTo(build(t, index).entries());
        assertThat(hasEntry(index, "changed", t, "p1", "r4999")).isTrue();
        assertThat(hasEntry(index, "e9", t, "p1", "r4999")).isFalse();

        h.write(t, "People", "p0", EntityOperation.of(EntityOperation.Type.INSERT_OR_REPLACE, "r0", null, email("x")));
        h.write(t, "People", "p1", EntityOperation.of(EntityOperation.Type.DELETE, "r1", "*", Map.of()));
        h.write(t, "People", "p2", EntityOperation.of(EntityOperation.Type.MERGE, "r2", "*", Map.of("N", EdmInt32.of(1))));
        h.insert(t, "People", "ttl", "soon", Map.of("Email", EdmString.of("ttl"), "TTLInSeconds", EdmInt32.of(1)));
        assertThat(hasEntry(index, "x", t, "p0", "r0")).isTrue();
        assertThat(hasEntry(index, "e0", t, "p0", "r0")).isFalse();
        assertThat(hasEntry(index, "e1", t, "p1", "r1")).isFalse();
        assertThat(hasEntry(index, "e2", t, "p2", "r2")).as("a merge keeps the value").isTrue();
        assertThat(hasEntry(index, "ttl", t, "ttl", "soon")).isTrue();
        assertThat(entries(t, index)).isEqualTo(5_000).isEqualTo(build(t, index).entries());

        h.advance(Duration.ofSeconds(3)); // the expiry deletes the row through the log
        assertThat(h.stored(t, "ttl", "soon")).isEmpty();
        assertThat(hasEntry(index, "ttl", t, "ttl", "soon")).isFalse();
        assertThat(entries(t, index)).isEqualTo(4_999).isEqualTo(build(t, index).entries());

        assertThat(h.send(TableCommand.dropIndex(ProcessorHarness.header(), TableName.of("People"), "byemail"))
                .succeeded()).isTrue();
        for (int round = 0; round < 10 && build(t, index) != null; round++) {
            h.advance(Duration.ofMillis(25));
        }
        assertThat(build(t, index)).isNull();
        assertThat(entries(t, index)).isZero();
    }

    private TransactionStatus status(String id) {
        KeyValueStore<String, byte[]> store = h.driver.getKeyValueStore(StoreNames.TRANSACTIONS);
        return LogCodecs.TRANSACTION_STATUS.decode(store.get(TransactionKeys.of(ProcessorHarness.ACCOUNT, id)));
    }

    private static EntityOperation insert(String rk) {
        return EntityOperation.of(EntityOperation.Type.INSERT, rk, null, Map.of());
    }

    private static EntityCommand part(CommandHeader header, String id, int index, long table, String name, String pk,
                                      List<EntityOperation> ops) {
        return EntityCommand.part(LogCodecs.partHeader(header, id, index), table, TableName.of(name), pk, ops, id, index);
    }

    @Test
    void aTransactionsPartsAreAppliedByTheirOwnersAndReportedOnceEachToTheCoordinator() {
        long a = h.givenTable("Alpha");
        long b = h.givenTable("Beta");
        h.insert(b, "Beta", "p2", "taken", Map.of());
        CommandHeader header = ProcessorHarness.header();
        String id = "tx-1";

        Outcome accepted = h.send(new TransactionCommand(header, id, List.of(
                part(header, id, 0, a, "Alpha", "p1", List.of(insert("r1"))),
                part(header, id, 1, b, "Beta", "p2", List.of(insert("new"), insert("taken"))),
                part(header, id, 2, b, "Beta", "p3", List.of(insert("r3"))))));

        assertThat(accepted.succeeded()).isTrue();
        TransactionStatus status = status(id);
        assertThat(status.state()).isEqualTo(TransactionStatus.State.PARTIALLY_APPLIED);
        assertThat(status.parts()).extracting(TransactionStatus.Part::state).containsExactly(
                TransactionStatus.PartState.APPLIED, TransactionStatus.PartState.FAILED,
                TransactionStatus.PartState.APPLIED);
        assertThat(status.parts()).extracting(TransactionStatus.Part::reports).containsExactly(1, 1, 1);
        assertThat(status.parts().get(1).failure().code()).isEqualTo(ErrorCode.ENTITY_ALREADY_EXISTS);
        assertThat(status.parts().get(1).failure().operationIndex()).isEqualTo(1);
        assertThat(h.stored(a, "p1", "r1")).isPresent();
        assertThat(h.stored(b, "p2", "new")).as("a failed part is all or none").isEmpty();
        assertThat(h.stored(b, "p3", "r3")).isPresent();
        // the same transaction again (a producer's retry) changes nothing
        h.send(new TransactionCommand(ProcessorHarness.header(), id, List.of(
                part(header, id, 0, a, "Alpha", "p9", List.of(insert("r9"))))));
        assertThat(h.stored(a, "p9", "r9")).isEmpty();
        assertThat(status(id).parts()).hasSize(3);
    }

    @Test
    void aTransactionThatBreaksARuleIsRecordedFailedAndChangesNothing() {
        long a = h.givenTable("Gamma");
        CommandHeader header = ProcessorHarness.header();
        String id = "tx-2";

        Outcome o = h.send(new TransactionCommand(header, id, List.of(
                part(header, id, 0, a, "Gamma", "p1", List.of(insert("r1"))),
                part(header, id, 1, a, "Gamma", "p2", List.of(
                        EntityOperation.of(EntityOperation.Type.INSERT, "r2", "*", Map.of()))))));

        assertThat(o.succeeded()).isFalse();
        assertThat(status(id).state()).isEqualTo(TransactionStatus.State.FAILED);
        assertThat(status(id).parts()).extracting(TransactionStatus.Part::reports).containsExactly(0, 0);
        assertThat(h.stored(a, "p1", "r1")).isEmpty();
    }
}
