package io.tablestream.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablestream.core.command.AccountCommand;
import io.tablestream.core.command.ChangeEvent;
import io.tablestream.core.command.Command;
import io.tablestream.core.command.CommandHeader;
import io.tablestream.core.command.EntityChange;
import io.tablestream.core.command.EntityCommand;
import io.tablestream.core.command.EntityOperation;
import io.tablestream.core.command.BulkCommand;
import io.tablestream.core.command.CommandKey;
import io.tablestream.core.command.Outcome;
import io.tablestream.core.command.PartitionMarker;
import io.tablestream.core.command.TableAnnouncement;
import io.tablestream.core.command.TableCommand;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.model.AccessPolicy;
import io.tablestream.core.model.AccountRecord;
import io.tablestream.core.model.CorsRule;
import io.tablestream.core.model.EdmBinary;
import io.tablestream.core.model.EdmBoolean;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.EdmDouble;
import io.tablestream.core.model.EdmGuid;
import io.tablestream.core.model.EdmInt32;
import io.tablestream.core.model.EdmInt64;
import io.tablestream.core.model.EdmString;
import io.tablestream.core.model.EdmValue;
import io.tablestream.core.model.Entity;
import io.tablestream.core.model.LoggingSettings;
import io.tablestream.core.model.MetricsSettings;
import io.tablestream.core.model.RegistryRecord;
import io.tablestream.core.model.RetentionPolicy;
import io.tablestream.core.model.ServiceProperties;
import io.tablestream.core.model.ServicePropertiesUpdate;
import io.tablestream.core.model.StoredEntity;
import io.tablestream.core.model.TableName;
import io.tablestream.core.model.TablePermission;
import io.tablestream.core.model.TableRecord;
import io.tablestream.core.rules.IndexRules;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class LogCodecsTest {
    private static final CommandHeader HEADER = new CommandHeader("c-1", "devstoreaccount1", 1_700_000_000_000L,
            "instance-a", "sharedkey:devstoreaccount1");

    static Map<String, EdmValue> everyTypeAtItsExtremes() {
        Map<String, EdmValue> p = new LinkedHashMap<>();
        p.put("Str", EdmString.of("quote ' backslash \\ surrogate \uD83D\uDE00 nul-free"));
        p.put("Empty", EdmString.of(""));
        p.put("True", EdmBoolean.TRUE);
        p.put("False", EdmBoolean.FALSE);
        p.put("IntMin", EdmInt32.of(Integer.MIN_VALUE));
        p.put("IntMax", EdmInt32.of(Integer.MAX_VALUE));
        p.put("LongMin", EdmInt64.of(Long.MIN_VALUE));
        p.put("LongMax", EdmInt64.of(Long.MAX_VALUE));
        p.put("NaN", EdmDouble.of(Double.NaN));
        p.put("PosInf", EdmDouble.of(Double.POSITIVE_INFINITY));
        p.put("NegInf", EdmDouble.of(Double.NEGATIVE_INFINITY));
        p.put("NegZero", EdmDouble.of(-0.0));
        p.put("Tiny", EdmDouble.of(Double.MIN_VALUE));
        p.put("Huge", EdmDouble.of(Double.MAX_VALUE));
        p.put("Earliest", EdmDateTime.ofEpochTicks(EdmDateTime.MIN_EPOCH_TICKS));
        p.put("Latest", EdmDateTime.ofEpochTicks(EdmDateTime.MAX_EPOCH_TICKS));
        p.put("Guid", EdmGuid.of(UUID.fromString("c9da6455-213d-42c9-9a79-3e9149a57833")));
        p.put("GuidMax", EdmGuid.of(new UUID(-1L, -1L)));
        p.put("NoBytes", EdmBinary.of(new byte[0]));
        byte[] big = new byte[65536];
        for (int i = 0; i < big.length; i++) {
            big[i] = (byte) (i * 31);
        }
        p.put("Bytes", EdmBinary.of(big));
        return p;
    }

    @Test
    void entityCommandRoundTripsWithEveryTypeAtItsExtremes() {
        Command command = EntityCommand.batch(HEADER, 42L, TableName.of("MyTable"), "pk", List.of(
                EntityOperation.of(EntityOperation.Type.INSERT, "r1", null, everyTypeAtItsExtremes()),
                EntityOperation.of(EntityOperation.Type.MERGE, "r2", "*", Map.of("A", EdmInt32.of(1))),
                EntityOperation.delete("r3", "W/\"datetime'2024-01-01T00%3A00%3A00.0000000Z'\"")));

        Command decoded = LogCodecs.COMMAND.decode(LogCodecs.COMMAND.encode(command));

        assertThat(decoded).isEqualTo(command);
        assertThat(((EntityCommand) decoded).operations().get(0).properties().keySet())
                .containsExactlyElementsOf(everyTypeAtItsExtremes().keySet());
    }

    @Test
    void bulkCommandRoundTrips() {
        Command bulk = new BulkCommand(HEADER, 42L, TableName.of("MyTable"), List.of(
                new BulkCommand.Write("pk-a", EntityOperation.of(EntityOperation.Type.INSERT_OR_REPLACE, "r1", null,
                        everyTypeAtItsExtremes())),
                new BulkCommand.Write("pk-b", EntityOperation.of(EntityOperation.Type.INSERT_OR_MERGE, "r1", null,
                        Map.of("A", EdmInt32.of(1)))),
                new BulkCommand.Write("pk-a", EntityOperation.of(EntityOperation.Type.INSERT, "r2", null, Map.of()))));

        Command decoded = LogCodecs.COMMAND.decode(LogCodecs.COMMAND.encode(bulk));

        assertThat(decoded).isEqualTo(bulk);
        assertThat(CommandKey.of(decoded)).isEqualTo(CommandKey.forEntity(HEADER.account(), 42L, "pk-a"));
    }

    @Test
    void tableCommandRoundTrips() {
        Command create = TableCommand.create(HEADER, TableName.of("Orders"), 3600);
        Command delete = TableCommand.delete(new CommandHeader("c-2", "acct", 1L, null, null), TableName.of("Orders"));

        assertThat(LogCodecs.COMMAND.decode(LogCodecs.COMMAND.encode(create))).isEqualTo(create);
        assertThat(LogCodecs.COMMAND.decode(LogCodecs.COMMAND.encode(delete))).isEqualTo(delete);
    }

    @Test
    void processorNoticesRoundTrip() {
        TableRecord created = TableRecord.active(HEADER.account(), TableName.of("Orders"), 12L,
                EdmDateTime.ofEpochTicks(1L), 60);
        Command announced = TableAnnouncement.of(HEADER, created);
        Command dropped = TableAnnouncement.of(HEADER, created.deleted(EdmDateTime.ofEpochTicks(2L)));
        Command marker = PartitionMarker.of("incarnation-1", 5, 3L);

        for (Command c : List.of(announced, dropped, marker)) {
            assertThat(LogCodecs.COMMAND.decode(LogCodecs.COMMAND.encode(c))).isEqualTo(c);
            assertThat(c.isWrite()).isFalse();
        }
        assertThat(announced.header().replyTo()).isNull();
    }

    @Test
    void outcomeRoundTrips() {
        Outcome ok = new Outcome("c-1", "instance-a", null,
                List.of(new Outcome.OperationResult(EdmDateTime.ofEpochTicks(17_000_000_000_000_000L)),
                        new Outcome.OperationResult(null)),
                null, 3, 12345L);
        Outcome failed = new Outcome("c-2", null, new Outcome.Failure(ErrorCode.ENTITY_ALREADY_EXISTS, "exists", 7),
                List.of(), null, 0, 0L);
        Outcome table = new Outcome("c-3", "i", null, List.of(), new Outcome.TableInfo(99L, "Orders"), 1, 2L);
        Outcome bulk = new Outcome("c-4", "i", null, List.of(), null, 1, 3L, List.of(
                new Outcome.Failure(ErrorCode.ENTITY_ALREADY_EXISTS, "exists", 0),
                new Outcome.Failure(ErrorCode.PROPERTY_VALUE_TOO_LARGE, "too large", 9)));

        for (Outcome o : List.of(ok, failed, table, bulk)) {
            assertThat(LogCodecs.OUTCOME.decode(LogCodecs.OUTCOME.encode(o))).isEqualTo(o);
            assertThat(LogCodecs.outcomeCommandId(LogCodecs.OUTCOME.encode(o))).contains(o.commandId());
        }
        String longId = "x".repeat(300) + "\u00e9";
        assertThat(LogCodecs.outcomeCommandId(LogCodecs.OUTCOME.encode(new Outcome(longId, null, null, List.of(), null,
                0, 0L)))).contains(longId);
        byte[] cut = java.util.Arrays.copyOf(LogCodecs.OUTCOME.encode(ok), 12);
        assertThat(LogCodecs.outcomeCommandId(cut)).isEmpty();
        assertThat(LogCodecs.outcomeCommandId(LogCodecs.COMMAND.encode(TableCommand.create(HEADER,
                TableName.of("Orders"), null)))).isEmpty();
    }

    @Test
    void changeEventRoundTrips() {
        Entity entity = Entity.of("pk", "rk", everyTypeAtItsExtremes()).withVersion(EdmDateTime.ofEpochTicks(5L));
        ChangeEvent inserted = new ChangeEvent("acct", TableName.of("Orders"),
                new EntityChange(EntityChange.Type.INSERTED, 7L, "pk", "rk",
                        new StoredEntity(entity, EdmDateTime.ofEpochTicks(99L))),
                "c-1", "someone", EdmDateTime.ofEpochTicks(5L));
        ChangeEvent expired = new ChangeEvent("acct", TableName.of("Orders"),
                new EntityChange(EntityChange.Type.EXPIRED, 7L, "pk", "rk", null), null, null,
                EdmDateTime.ofEpochTicks(100L));

        assertThat(LogCodecs.CHANGE_EVENT.decode(LogCodecs.CHANGE_EVENT.encode(inserted))).isEqualTo(inserted);
        assertThat(LogCodecs.CHANGE_EVENT.decode(LogCodecs.CHANGE_EVENT.encode(expired))).isEqualTo(expired);
    }

    @Test
    void indexCommandsAndATableWithIndexesRoundTrip() {
        Command create = TableCommand.createIndex(HEADER, TableName.of("Orders"),
                IndexRules.requested("ByEmail", "Email"));
        Command drop = TableCommand.dropIndex(HEADER, TableName.of("Orders"), "ByEmail");
        TableRecord indexed = TableRecord.active(HEADER.account(), TableName.of("Orders"), 12L, EdmDateTime.ofEpochTicks(1L), null)
                .withIndexes(List.of(new io.tablestream.core.model.IndexDefinition("ByEmail", "Email", 99L)));

        assertThat(LogCodecs.COMMAND.decode(LogCodecs.COMMAND.encode(create))).isEqualTo(create);
        assertThat(LogCodecs.COMMAND.decode(LogCodecs.COMMAND.encode(drop))).isEqualTo(drop);
        assertThat(LogCodecs.TABLE_RECORD.decode(LogCodecs.TABLE_RECORD.encode(indexed))).isEqualTo(indexed);
        Command announced = TableAnnouncement.of(HEADER, indexed);
        assertThat(LogCodecs.COMMAND.decode(LogCodecs.COMMAND.encode(announced))).isEqualTo(announced);
    }

    @Test
    void transactionRecordsRoundTrip() {
        EntityCommand part0 = EntityCommand.part(LogCodecs.partHeader(HEADER, "tx", 0), 12L, TableName.of("Orders"), "p",
                List.of(EntityOperation.of(EntityOperation.Type.INSERT, "r", null, Map.of("N", EdmInt32.of(1)))), "tx", 0);
        EntityCommand part1 = EntityCommand.part(LogCodecs.partHeader(HEADER, "tx", 1), 13L, TableName.of("Archive"), "q",
                List.of(EntityOperation.delete("r", "*")), "tx", 1);
        Command transaction = new io.tablestream.core.command.TransactionCommand(HEADER, "tx", List.of(part0, part1));
        Command report = new io.tablestream.core.command.TransactionReport(HEADER, "tx", 1,
                new Outcome.Failure(ErrorCode.ENTITY_ALREADY_EXISTS, "exists", 0));
        io.tablestream.core.command.TransactionStatus status = new io.tablestream.core.command.TransactionStatus("tx", "acct",
                EdmDateTime.ofEpochTicks(5L), List.of(
                        new io.tablestream.core.command.TransactionStatus.Part("Orders", "p", 1,
                                io.tablestream.core.command.TransactionStatus.PartState.PENDING, null, 0)))
                .reported(0, new Outcome.Failure(ErrorCode.UPDATE_CONDITION_NOT_SATISFIED, "no", 0));

        for (Command c : List.of(transaction, report, part0)) {
            assertThat(LogCodecs.COMMAND.decode(LogCodecs.COMMAND.encode(c))).isEqualTo(c);
        }
        assertThat(report.isWrite()).isFalse();
        assertThat(LogCodecs.TRANSACTION_STATUS.decode(LogCodecs.TRANSACTION_STATUS.encode(status))).isEqualTo(status);
    }

    @Test
    void jobRecordsRoundTrip() {
        EdmDateTime at = EdmDateTime.ofEpochTicks(17_000_000_000_000_000L);
        Command restore = new io.tablestream.core.command.JobCommand(HEADER, new io.tablestream.core.command.JobSpec.Restore(
                12L, TableName.of("Orders"), TableName.of("OrdersThen"), at));
        Command restoreNow = new io.tablestream.core.command.JobCommand(HEADER,
                new io.tablestream.core.command.JobSpec.Restore(12L, TableName.of("Orders"), TableName.of("Copy"), null));
        Command delete = new io.tablestream.core.command.JobCommand(HEADER,
                new io.tablestream.core.command.JobSpec.DeleteEntities(12L, TableName.of("Orders"), "N lt 5"));
        Command copyStep = new io.tablestream.core.command.JobStep(HEADER, "job", 3, 7,
                new io.tablestream.core.command.JobWork.CopyRows(12L, TableName.of("Orders"), 99L,
                        TableName.of("OrdersThen"), at));
        Command deleteStep = new io.tablestream.core.command.JobStep(HEADER, "job", 0, 0,
                new io.tablestream.core.command.JobWork.DeleteRows(12L, TableName.of("Orders"), "N lt 5", at));
        Command fence = new io.tablestream.core.command.JobStep(HEADER, "job", 2, 0, null);
        Command report = new io.tablestream.core.command.JobReport(HEADER, "job",
                io.tablestream.core.command.JobReport.Kind.DONE, 2, 1234, 0,
                new Outcome.Failure(ErrorCode.TABLE_NOT_FOUND, "gone", null));
        Command created = TableCommand.createRestored(HEADER, TableName.of("OrdersThen"), 60, 3600,
                List.of(new io.tablestream.core.model.IndexDefinition("ByN", "N", 77L)), "job");
        Command copies = EntityCommand.ofJob(HEADER, 99L, TableName.of("OrdersThen"), "p",
                List.of(EntityOperation.of(EntityOperation.Type.INSERT_OR_REPLACE, "r", null, Map.of("N", EdmInt32.of(1)))),
                "job");
        for (Command c : List.of(restore, restoreNow, delete, copyStep, deleteStep, fence, report, created, copies)) {
            assertThat(LogCodecs.COMMAND.decode(LogCodecs.COMMAND.encode(c))).isEqualTo(c);
        }
        assertThat(delete.isWrite()).isTrue();
        assertThat(copyStep.isWrite()).isFalse();
        assertThat(report.isWrite()).isFalse();

        io.tablestream.core.command.JobStatus status = io.tablestream.core.command.JobStatus.running("job", "acct",
                        ((io.tablestream.core.command.JobCommand) restore).spec(), "SharedKey acct key1", at, 3)
                .withTarget(99L).counting(42).partitionDone(1).partitionFenced(2)
                .failing(new Outcome.Failure(ErrorCode.TABLE_NOT_FOUND, "gone", null)).finishedAt(at.plusTicks(1));
        assertThat(LogCodecs.JOB_STATUS.decode(LogCodecs.JOB_STATUS.encode(status))).isEqualTo(status);
    }

    @Test
    void tableRecordRoundTrips() {
        TableRecord active = TableRecord.active("acct", TableName.of("Orders"), 12L, EdmDateTime.ofEpochTicks(1L), null);
        TableRecord deleted = active.deleted(EdmDateTime.ofEpochTicks(2L));

        assertThat(LogCodecs.TABLE_RECORD.decode(LogCodecs.TABLE_RECORD.encode(active))).isEqualTo(active);
        assertThat(LogCodecs.TABLE_RECORD.decode(LogCodecs.TABLE_RECORD.encode(deleted))).isEqualTo(deleted);
    }

    @Test
    void storedEntityRoundTripsWithKeysFromOutside() {
        Entity entity = Entity.of("p", "r", everyTypeAtItsExtremes()).withVersion(EdmDateTime.ofEpochTicks(123L));
        StoredEntity stored = new StoredEntity(entity, null);

        assertThat(StoredEntityCodec.decode("p", "r", StoredEntityCodec.encode(stored))).isEqualTo(stored);
    }

    @Test
    void rejectsBytesThatAreNotARecord() {
        assertThatThrownBy(() -> LogCodecs.COMMAND.decode(new byte[] {1, 2, 3}))
                .isInstanceOf(LogFormatException.class);
        assertThatThrownBy(() -> LogCodecs.COMMAND.decode(null)).isInstanceOf(LogFormatException.class);
        assertThatThrownBy(() -> LogCodecs.COMMAND.decode("{\"id\":\"json is not avro\"}".getBytes()))
                .isInstanceOf(LogFormatException.class);
    }

    @Test
    void rejectsARecordOfAnotherKind() {
        byte[] outcome = LogCodecs.OUTCOME.encode(new Outcome("c", null, null, List.of(), null, 0, 0));

        assertThatThrownBy(() -> LogCodecs.COMMAND.decode(outcome))
                .isInstanceOf(LogFormatException.class)
                .hasMessageContaining("Command");
    }

    @Test
    void rejectsATruncatedRecord() {
        byte[] whole = LogCodecs.COMMAND.encode(TableCommand.create(HEADER, TableName.of("Orders"), null));
        byte[] truncated = java.util.Arrays.copyOf(whole, whole.length - 3);

        assertThatThrownBy(() -> LogCodecs.COMMAND.decode(truncated)).isInstanceOf(LogFormatException.class);
    }

    @Test
    void rejectsAWellFormedCommandWithAnInvalidTableName() {
        io.tablestream.schemas.avro.Command avro = LogCodecs.commandToAvro(
                TableCommand.create(HEADER, TableName.of("Orders"), null));
        ((io.tablestream.schemas.avro.TableOperation) avro.getOperation()).setTableName("1-not-a-name");
        byte[] bytes = AvroLogCodec.<io.tablestream.schemas.avro.Command, io.tablestream.schemas.avro.Command>of(
                avro.getSchema(), a -> a, a -> a).encode(avro);

        assertThatThrownBy(() -> LogCodecs.COMMAND.decode(bytes))
                .isInstanceOf(LogFormatException.class)
                .hasMessageContaining("invalid Command");
    }

    private static final List<AccessPolicy> POLICIES = List.of(
            AccessPolicy.of("full", EdmDateTime.ofEpochTicks(1L), EdmDateTime.ofEpochTicks(EdmDateTime.MAX_EPOCH_TICKS),
                    TablePermission.parse("raud")),
            AccessPolicy.of("expiry-only", null, EdmDateTime.ofEpochTicks(17_000_000_000_000_000L), Set.of()),
            AccessPolicy.of("bare", null, null, Set.of()));

    private static final ServiceProperties EVERY_SETTING = ServiceProperties.of(
            LoggingSettings.of("2.0", true, false, true, RetentionPolicy.ofDays(365)),
            MetricsSettings.enabled("1.0", false, RetentionPolicy.ofDays(1)),
            MetricsSettings.disabled("1.0", RetentionPolicy.DISABLED),
            List.of(CorsRule.parse("https://a.example, https://*.b.example", "GET,PUT,MERGE", "x-ms-meta*,Content-Type",
                            "x-ms-*", 3600),
                    CorsRule.parse("*", "CONNECT,DELETE,GET,HEAD,MERGE,OPTIONS,PATCH,POST,PUT,TRACE", "", "", 0)));

    @Test
    void setAclCommandRoundTripsWithItsPoliciesInOrder() {
        Command set = TableCommand.setAcl(HEADER, TableName.of("Orders"), POLICIES);
        Command clear = TableCommand.setAcl(HEADER, TableName.of("Orders"), List.of());

        assertThat(LogCodecs.COMMAND.decode(LogCodecs.COMMAND.encode(set))).isEqualTo(set);
        assertThat(LogCodecs.COMMAND.decode(LogCodecs.COMMAND.encode(clear))).isEqualTo(clear);
    }

    @Test
    void accountCommandRoundTripsKeepingWhichGroupsItCarries() {
        List<ServicePropertiesUpdate> updates = List.of(
                ServicePropertiesUpdate.replacingAll(EVERY_SETTING),
                ServicePropertiesUpdate.replacingAll(ServiceProperties.DEFAULT),
                ServicePropertiesUpdate.NONE,
                ServicePropertiesUpdate.NONE.withCors(List.of()),
                ServicePropertiesUpdate.NONE.withMinuteMetrics(EVERY_SETTING.hourMetrics()));

        for (ServicePropertiesUpdate u : updates) {
            Command command = AccountCommand.setServiceProperties(HEADER, u);
            assertThat(LogCodecs.COMMAND.decode(LogCodecs.COMMAND.encode(command))).isEqualTo(command);
        }
    }

    @Test
    void tableRecordRoundTripsWithItsAccessPolicies() {
        TableRecord record = TableRecord.active("acct", TableName.of("Orders"), 12L, EdmDateTime.ofEpochTicks(1L), 60)
                .withAccessPolicies(POLICIES);

        assertThat(LogCodecs.TABLE_RECORD.decode(LogCodecs.TABLE_RECORD.encode(record))).isEqualTo(record);
    }

    @Test
    void accountRecordRoundTrips() {
        for (AccountRecord record : List.of(AccountRecord.of("acct", EVERY_SETTING), AccountRecord.initial("other"))) {
            assertThat(LogCodecs.ACCOUNT_RECORD.decode(LogCodecs.ACCOUNT_RECORD.encode(record))).isEqualTo(record);
        }
    }

    @Test
    void registryCodecTellsTableAndAccountRecordsApart() {
        TableRecord table = TableRecord.active("acct", TableName.of("Orders"), 12L, EdmDateTime.ofEpochTicks(1L), null);
        AccountRecord account = AccountRecord.of("acct", EVERY_SETTING);

        RegistryRecord t = LogCodecs.REGISTRY_RECORD.decode(LogCodecs.TABLE_RECORD.encode(table));
        RegistryRecord a = LogCodecs.REGISTRY_RECORD.decode(LogCodecs.REGISTRY_RECORD.encode(account));

        assertThat(t).isEqualTo(table);
        assertThat(a).isEqualTo(account);
        assertThatThrownBy(() -> LogCodecs.TABLE_RECORD.decode(LogCodecs.ACCOUNT_RECORD.encode(account)))
                .isInstanceOf(LogFormatException.class);
        assertThatThrownBy(() -> LogCodecs.REGISTRY_RECORD.decode(new byte[] {(byte) 0xC3, 1, 2}))
                .isInstanceOf(LogFormatException.class);
    }

    @Test
    void rejectsAStoredAccessPolicyWithAnUnknownPermission() {
        io.tablestream.schemas.avro.Command avro = LogCodecs.commandToAvro(
                TableCommand.setAcl(HEADER, TableName.of("Orders"), POLICIES));
        ((io.tablestream.schemas.avro.TableOperation) avro.getOperation()).getAccessPolicies().get(0)
                .setPermissions("rwx");
        byte[] bytes = AvroLogCodec.<io.tablestream.schemas.avro.Command, io.tablestream.schemas.avro.Command>of(
                avro.getSchema(), x -> x, x -> x).encode(avro);

        assertThatThrownBy(() -> LogCodecs.COMMAND.decode(bytes))
                .isInstanceOf(LogFormatException.class)
                .hasMessageContaining("invalid Command");
    }

    @Test
    void rejectsServicePropertiesOutsideTheirLimits() {
        io.tablestream.schemas.avro.Command avro = LogCodecs.commandToAvro(AccountCommand.setServiceProperties(HEADER,
                ServicePropertiesUpdate.replacingAll(EVERY_SETTING)));
        ((io.tablestream.schemas.avro.SetServiceProperties) avro.getOperation()).getLogging().setRetentionDays(0);
        byte[] bytes = AvroLogCodec.<io.tablestream.schemas.avro.Command, io.tablestream.schemas.avro.Command>of(
                avro.getSchema(), x -> x, x -> x).encode(avro);

        assertThatThrownBy(() -> LogCodecs.COMMAND.decode(bytes))
                .isInstanceOf(LogFormatException.class)
                .hasMessageContaining("Retention days");
    }
}
