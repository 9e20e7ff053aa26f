package io.tablestream.processor;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tablestream.core.command.CommandKey;
import io.tablestream.core.command.EntityCommand;
import io.tablestream.core.command.EntityOperation;
import io.tablestream.core.command.Outcome;
import io.tablestream.core.model.EdmInt32;
import io.tablestream.core.model.TableName;
import io.tablestream.schemas.LogCodecs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What the tasks count, through the topology (TopologyTestDriver), as Micrometer meters. */
class StreamProcessorMetricsTest {
    private final ProcessorHarness h = new ProcessorHarness();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @AfterEach
    void close() {
        h.close();
    }

    private double count(String name, String tag, String value) {
        return registry.get(name).tag(tag, value).functionCounter().count();
    }

    @Test
    void countsOutcomesByResultChangesByTypeDeadLettersByCodeAndExpiries() {
        h.settings.metrics().bindTo(registry);
        long t = h.givenTable("Orders");
        h.insert(t, "Orders", "p", "r1", Map.of());
        h.insert(t, "Orders", "p", "r1", Map.of()); // 409: rejected
        h.insert(t, "Orders", "p", "ttl", Map.of("TTLInSeconds", EdmInt32.of(10)));
        h.sendRaw("acct/1/p", "not avro".getBytes(StandardCharsets.UTF_8));
        h.advance(Duration.ofSeconds(11));

        assertThat(count(StreamProcessorMetrics.COMMANDS_APPLIED, "result", "applied")).isEqualTo(3); // table, 2 inserts
        assertThat(count(StreamProcessorMetrics.COMMANDS_APPLIED, "result", "rejected")).isEqualTo(1);
        assertThat(count(StreamProcessorMetrics.ENTITY_CHANGES, "type", "inserted")).isEqualTo(2);
        assertThat(count(StreamProcessorMetrics.ENTITY_CHANGES, "type", "expired")).isEqualTo(1);
        assertThat(registry.get(StreamProcessorMetrics.TTL_EXPIRED).functionCounter().count()).isEqualTo(1);
        assertThat(count(StreamProcessorMetrics.DEAD_LETTERS, "code", "InvalidInput")).isEqualTo(1);
        assertThat(registry.get(StreamProcessorMetrics.APPLY_DELAY).timer().count()).isEqualTo(4);
    }

    @Test
    void timesSingleWritesAndTheirRowLookupsByWhetherTheRowWasThereButNotChangeSets() {
        h.settings.metrics().bindTo(registry);
        long t = h.givenTable("Orders");
        h.insert(t, "Orders", "p", "r1", Map.of()); // absent
        h.insert(t, "Orders", "p", "r1", Map.of()); // there: 409
        h.send(EntityCommand.batch(ProcessorHarness.header(), t, TableName.of("Orders"), "p", List.of(
                EntityOperation.of(EntityOperation.Type.INSERT, "r2", null, Map.of()),
                EntityOperation.of(EntityOperation.Type.INSERT, "r3", null, Map.of()))));

        assertThat(registry.get(StreamProcessorMetrics.SINGLE_WRITE_DECIDE).timer().count()).isEqualTo(2);
        assertThat(registry.get(StreamProcessorMetrics.ROW_LOOKUP).tag("found", "false").timer().count()).isEqualTo(1);
        assertThat(registry.get(StreamProcessorMetrics.ROW_LOOKUP).tag("found", "true").timer().count()).isEqualTo(1);
    }

    @Test
    void countsOutcomesTakenInProcessToo() {
        h.settings.metrics().bindTo(registry);
        long t = h.givenTable("Orders");
        h.handOffTaken = true; // the waiters are in this process: no outcome record is written
        for (String rowKey : new String[] {"r1", "r1", "r2"}) {
            EntityCommand insert = EntityCommand.single(ProcessorHarness.header(), t, TableName.of("Orders"), "p",
                    EntityOperation.of(EntityOperation.Type.INSERT, rowKey, null, Map.of()));
            h.sendRaw(CommandKey.of(insert).value(), LogCodecs.COMMAND.encode(insert));
        }

        assertThat(h.outcomeRecords()).extracting(Outcome::commandId).hasSize(1); // the table's create only
        assertThat(count(StreamProcessorMetrics.COMMANDS_APPLIED, "result", "applied")).isEqualTo(3); // table, r1, r2
        assertThat(count(StreamProcessorMetrics.COMMANDS_APPLIED, "result", "rejected")).isEqualTo(1); // r1 again
    }

    @Test
    void aDeadLetterCodeFirstSeenAfterBindingGetsItsCounter() {
        h.settings.metrics().bindTo(registry);
        h.givenTable("Orders");

        h.send(io.tablestream.core.command.TableCommand.create(ProcessorHarness.header(),
                io.tablestream.core.model.TableName.of("Orders"), null)); // 409, not dead-lettered
        h.settings.metrics().deadLettered(io.tablestream.core.error.ErrorCode.INTERNAL_ERROR);

        assertThat(count(StreamProcessorMetrics.DEAD_LETTERS, "code", "InternalError")).isEqualTo(1);
        assertThat(count(StreamProcessorMetrics.DEAD_LETTERS, "code", "InvalidInput")).isZero();
    }

    @Test
    void aStateDirectoryFileBelongsToTheStoreNamedAfterItsRocksDbDirectory() {
        assertThat(StreamProcessorMetrics.storeOf(Path.of("0_3/committed-rocksdb/entities/000012.sst")))
                .isEqualTo("entities");
        assertThat(StreamProcessorMetrics.storeOf(Path.of("global/rocksdb/registry/MANIFEST-000005")))
                .isEqualTo("registry");
        assertThat(StreamProcessorMetrics.storeOf(Path.of("0_3/.checkpoint"))).isNull();
        assertThat(StreamProcessorMetrics.storeOf(Path.of("0_3/rocksdb"))).isNull();
    }
}
