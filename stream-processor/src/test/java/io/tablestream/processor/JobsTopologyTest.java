package io.tablestream.processor;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablestream.core.command.ChangeEvent;
import io.tablestream.core.command.CommandHeader;
import io.tablestream.core.command.EntityChange;
import io.tablestream.core.command.EntityOperation;
import io.tablestream.core.command.JobCommand;
import io.tablestream.core.command.JobSpec;
import io.tablestream.core.command.JobStatus;
import io.tablestream.core.command.Outcome;
import io.tablestream.core.command.PartitionDeletion;
import io.tablestream.core.command.TableCommand;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.EdmInt32;
import io.tablestream.core.model.EdmInt64;
import io.tablestream.core.model.EdmString;
import io.tablestream.core.model.EdmValue;
import io.tablestream.core.model.IndexDefinition;
import io.tablestream.core.model.StoredEntity;
import io.tablestream.core.model.TableName;
import io.tablestream.core.model.TableRecord;
import io.tablestream.core.storekey.KeyCodec;
import io.tablestream.processor.store.JobKeys;
import io.tablestream.processor.store.StoreNames;
import io.tablestream.schemas.LogCodecs;
import io.tablestream.schemas.StoredEntityCodec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Jobs in the topology, without a broker: a deletion by filter and a restore each run a step at a
 * time through the log (the driver feeds the steps the task writes back to it) and end in one
 * status, with their counts; their writes are ordinary changes under the job's id and principal.
 * Steps of 7 rows, so that every job takes many.
 */
class JobsTopologyTest {
    private final ProcessorHarness h = new ProcessorHarness(1,
            Housekeeping.DEFAULTS.withSweep(Duration.ofSeconds(5), 2).withJobSteps(7));

    @AfterEach
    void close() {
        h.close();
    }

    private static CommandHeader jobHeader() {
        return new CommandHeader(UUID.randomUUID().toString(), ProcessorHarness.ACCOUNT, Long.MAX_VALUE, "me", "Jobber");
    }

    private long givenTable(String name, Integer ttl, Integer history) {
        Outcome o = h.send(TableCommand.create(ProcessorHarness.header(), TableName.of(name), ttl, history));
        assertThat(o.succeeded()).isTrue();
        return o.table().tableId();
    }

    private static Map<String, EdmValue> n(int i) {
        return Map.of("N", EdmInt32.of(i), "S", EdmString.of("s" + i), "L", EdmInt64.of(i * 10L));
    }

    private JobStatus status(String jobId) {
        KeyValueStore<String, byte[]> store = h.driver.getKeyValueStore(StoreNames.JOBS);
        byte[] value = store.get(JobKeys.status(ProcessorHarness.ACCOUNT, jobId));
        return value == null ? null : LogCodecs.JOB_STATUS.decode(value);
    }

    /** Every live row of a table, by "pk/rk", in key order. */
    private Map<String, StoredEntity> rows(long tableId) {
        Map<String, StoredEntity> out = new LinkedHashMap<>();
        KeyValueStore<Bytes, byte[]> store = h.driver.getKeyValueStore(StoreNames.ENTITIES);
        var range = KeyCodec.table(tableId);
        try (KeyValueIterator<Bytes, byte[]> it = store.range(Bytes.wrap(range.fromInclusive()),
                Bytes.wrap(range.toExclusive()))) {
            while (it.hasNext()) {
                KeyValue<Bytes, byte[]> kv = it.next();
                if (!range.contains(kv.key.get())) {
                    continue;
                }
                var key = KeyCodec.decode(kv.key.get());
                out.put(key.partitionKey() + "/" + key.rowKey(),
                        StoredEntityCodec.decode(key.partitionKey(), key.rowKey(), kv.value));
            }
        }
        return out;
    }

    @Test
    void aDeletionByFilterDeletesEachMatchThroughTheChangeFeedUnderTheJob() {
        long t = givenTable("Readings", null, 3600);
        for (int i = 0; i < 60; i++) {
            h.insert(t, "Readings", "p" + i % 4, "r" + i, n(i));
        }
        h.changes().clear();
        CommandHeader header = jobHeader();
        Outcome accepted = h.send(new JobCommand(header, new JobSpec.DeleteEntities(t, TableName.of("Readings"),
                "N lt 25 and PartitionKey ne 'p3'")));

        assertThat(accepted.succeeded()).isTrue();
        JobStatus status = status(header.id());
        assertThat(status.state()).isEqualTo(JobStatus.State.COMPLETED);
        assertThat(status.kind()).isEqualTo(JobSpec.Kind.DELETE_ENTITIES);
        assertThat(status.entities()).isEqualTo(19); // N < 25 and not in p3: 25 - 6
        assertThat(status.finishedAt()).isNotNull();
        Map<String, StoredEntity> left = rows(t);
        assertThat(left).hasSize(41);
        assertThat(left.values()).allMatch(s -> ((EdmInt32) s.entity().property("N")).value() >= 25
                || s.entity().partitionKey().equals("p3"));
        List<ChangeEvent> deletions = h.changes().stream()
                .filter(c -> c.change().type() == EntityChange.Type.DELETED).toList();
        assertThat(deletions).hasSize(19);
        assertThat(deletions).allMatch(c -> c.commandId().equals(header.id()) && c.principal().equals("Jobber"));
    }

    @Test
    void aDeletionSparesRowsWrittenAfterTheJobWasAcceptedAndRowsAlreadyGone() {
        long t = givenTable("Readings", null, null);
        for (int i = 0; i < 10; i++) {
            h.insert(t, "Readings", "old", "r" + i, n(i));
        }
        h.insert(t, "Readings", "gone", "r", n(1));
        h.send(new PartitionDeletion(ProcessorHarness.header(), t, TableName.of("Readings"), "gone"));
        long acceptedAt = h.clock.millis();
        h.advance(Duration.ofSeconds(2));
        h.insert(t, "Readings", "new", "r", n(1)); // written after the job's acceptance
        h.write(t, "Readings", "old", EntityOperation.of(EntityOperation.Type.MERGE, "r0", "*", Map.of("X",
                EdmInt32.of(1)))); // r0 written again since
        CommandHeader header = new CommandHeader(UUID.randomUUID().toString(), ProcessorHarness.ACCOUNT, acceptedAt,
                "me", "Jobber");

        h.send(new JobCommand(header, new JobSpec.DeleteEntities(t, TableName.of("Readings"), "N lt 5")));

        assertThat(status(header.id()).entities()).isEqualTo(4);
        assertThat(rows(t).keySet()).contains("new/r", "old/r0", "old/r5").doesNotContain("old/r1", "old/r4");
        assertThat(h.changes().stream().filter(c -> c.change().type() == EntityChange.Type.DELETED
                && c.change().partitionKey().equals("gone"))).isEmpty();
    }

    @Test
    void aDeletionOfAMissingTableOrWithABadFilterIsRefused() {
        Outcome missing = h.send(new JobCommand(jobHeader(), new JobSpec.DeleteEntities(424242L,
                TableName.of("Nope"), "N lt 5")));
        assertThat(missing.failure().code()).isEqualTo(ErrorCode.TABLE_NOT_FOUND);
        long t = givenTable("Readings", null, null);
        Outcome bad = h.send(new JobCommand(jobHeader(), new JobSpec.DeleteEntities(t, TableName.of("Readings"),
                "N lt")));
        assertThat(bad.failure().code()).isEqualTo(ErrorCode.INVALID_INPUT);
        Outcome everything = h.send(new JobCommand(jobHeader(), new JobSpec.DeleteEntities(t,
                TableName.of("Readings"), " ")));
        assertThat(everything.failure().code()).isEqualTo(ErrorCode.INVALID_INPUT);
    }

    @Test
    void aRestoreAsOfATimeCopiesTheEntitiesThenWithTheSourcesSettings() {
        long t = givenTable("Orders", 86_400, 3600);
        h.send(TableCommand.createIndex(ProcessorHarness.header(), TableName.of("Orders"),
                io.tablestream.core.rules.IndexRules.requested("ByN", "N")));
        for (int i = 0; i < 30; i++) {
            h.insert(t, "Orders", "p" + i % 3, "r" + i, n(i));
        }
        h.advance(Duration.ofSeconds(1));
        EdmDateTime asOf = EdmDateTime.of(h.clock.instant());
        Map<String, StoredEntity> then = rows(t);
        h.advance(Duration.ofSeconds(1));
        for (int i = 0; i < 10; i++) {
            h.write(t, "Orders", "p" + i % 3, EntityOperation.delete("r" + i, "*"));
        }
        h.write(t, "Orders", "p0", EntityOperation.of(EntityOperation.Type.INSERT_OR_REPLACE, "r12", null, n(1000)));
        h.insert(t, "Orders", "p9", "later", n(1));
        CommandHeader header = jobHeader();

        Outcome created = h.send(new JobCommand(header, new JobSpec.Restore(t, TableName.of("Orders"),
                TableName.of("OrdersThen"), asOf)));

        assertThat(created.succeeded()).isTrue();
        long target = created.table().tableId();
        JobStatus status = status(header.id());
        assertThat(status.state()).as("%s", status).isEqualTo(JobStatus.State.COMPLETED);
        assertThat(status.entities()).isEqualTo(30);
        assertThat(status.targetTableId()).isEqualTo(target);
        Map<String, StoredEntity> restored = rows(target);
        assertThat(restored.keySet()).containsExactlyElementsOf(then.keySet());
        restored.forEach((k, s) -> assertThat(s.entity().properties()).isEqualTo(then.get(k).entity().properties()));
        TableRecord record = h.partitionTable(target).orElseThrow();
        TableRecord source = h.partitionTable(t).orElseThrow();
        assertThat(record.defaultTtlSeconds()).isEqualTo(86_400);
        assertThat(record.historyRetentionSeconds()).isEqualTo(3600);
        assertThat(record.indexes()).isEqualTo(source.indexes());
        assertThat(h.changes().stream().filter(c -> c.change().tableId() == target))
                .hasSize(30).allMatch(c -> c.change().type() == EntityChange.Type.INSERTED
                        && c.commandId().equals(header.id()) && c.principal().equals("Jobber"));
    }

    @Test
    void aRestoreOfATableWithoutHistoryCopiesItsPresentAndARestoreIntoAnExistingTableIsRefused() {
        long t = givenTable("Plain", null, null);
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            h.insert(t, "Plain", "p" + i % 2, "r" + i, n(i));
            keys.add("p" + i % 2 + "/r" + i);
        }
        givenTable("Taken", null, null);
        CommandHeader refused = jobHeader();
        Outcome exists = h.send(new JobCommand(refused, new JobSpec.Restore(t, TableName.of("Plain"),
                TableName.of("TAKEN"), null)));
        assertThat(exists.failure().code()).isEqualTo(ErrorCode.TABLE_ALREADY_EXISTS);
        assertThat(status(refused.id()).state()).isEqualTo(JobStatus.State.FAILED);

        Outcome pastTime = h.send(new JobCommand(jobHeader(), new JobSpec.Restore(t, TableName.of("Plain"),
                TableName.of("Copy"), EdmDateTime.of(h.clock.instant()))));
        assertThat(pastTime.failure().code()).as("no history, no AsOf").isEqualTo(ErrorCode.INVALID_INPUT);

        CommandHeader header = jobHeader();
        Outcome created = h.send(new JobCommand(header, new JobSpec.Restore(t, TableName.of("Plain"),
                TableName.of("Copy"), null)));
        assertThat(status(header.id()).state()).isEqualTo(JobStatus.State.COMPLETED);
        assertThat(rows(created.table().tableId()).keySet()).containsExactlyInAnyOrderElementsOf(keys);
    }
}
