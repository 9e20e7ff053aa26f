package io.tablestream.schemas;

import io.tablestream.core.command.AccountCommand;
import io.tablestream.core.command.BulkCommand;
import io.tablestream.core.command.ChangeEvent;
import io.tablestream.core.command.Command;
import io.tablestream.core.command.CommandHeader;
import io.tablestream.core.command.EntityChange;
import io.tablestream.core.command.EntityCommand;
import io.tablestream.core.command.EntityOperation;
import io.tablestream.core.command.JobCommand;
import io.tablestream.core.command.JobReport;
import io.tablestream.core.command.JobSpec;
import io.tablestream.core.command.JobStatus;
import io.tablestream.core.command.JobStep;
import io.tablestream.core.command.JobWork;
import io.tablestream.core.command.Outcome;
import io.tablestream.core.command.PartitionDeletion;
import io.tablestream.core.command.PartitionMarker;
import io.tablestream.core.command.TableAnnouncement;
import io.tablestream.core.command.TableCommand;
import io.tablestream.core.command.TransactionCommand;
import io.tablestream.core.command.TransactionRef;
import io.tablestream.core.command.TransactionReport;
import io.tablestream.core.command.TransactionStatus;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.model.AccountRecord;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.Entity;
import io.tablestream.core.model.IndexDefinition;
import io.tablestream.core.model.RegistryRecord;
import io.tablestream.core.model.StoredEntity;
import io.tablestream.core.model.TableName;
import io.tablestream.core.model.TableRecord;
import io.tablestream.schemas.avro.BulkWrite;
import io.tablestream.schemas.avro.BulkWrites;
import io.tablestream.schemas.avro.ChangeType;
import io.tablestream.schemas.avro.EntityChanged;
import io.tablestream.schemas.avro.EntityOperationType;
import io.tablestream.schemas.avro.EntityOperations;
import io.tablestream.schemas.avro.EntityVersion;
import io.tablestream.schemas.avro.Failure;
import io.tablestream.schemas.avro.JobKind;
import io.tablestream.schemas.avro.JobReportKind;
import io.tablestream.schemas.avro.JobSubmit;
import io.tablestream.schemas.avro.OperationResult;
import io.tablestream.schemas.avro.SetServiceProperties;
import io.tablestream.schemas.avro.TableInfo;
import io.tablestream.schemas.avro.TableOperation;
import io.tablestream.schemas.avro.TableOperationType;
import io.tablestream.schemas.avro.TableState;
import io.tablestream.schemas.avro.TransactionOperations;
import io.tablestream.schemas.avro.TransactionPartRef;
import io.tablestream.schemas.avro.TransactionPartState;
import io.tablestream.schemas.avro.TransactionPartStatus;
import java.util.ArrayList;
import java.util.List;

/**
 * The codecs of every record Tablestream writes to Kafka, each mapping the Avro record to core's
 * domain record at the edge: nothing past this class sees a generated Avro class.
 *
 * <p>One class, over 400 lines: the mappings are many but each is a few lines, and together they are
 * the one edge between the generated Avro classes and the domain; kept in one place, a schema and its
 * mapping change together, and the classes past the edge never see a generated class.
 */
public final class LogCodecs {
    /** Records of {@code <prefix>.commands}: the frequent ones written and read directly (see CommandCodec). */
    public static final LogCodec<Command> COMMAND = new CommandCodec(AvroLogCodec.of(
            io.tablestream.schemas.avro.Command.getClassSchema(), LogCodecs::commandToAvro, LogCodecs::commandFromAvro));
    private static final AvroLogCodec<io.tablestream.schemas.avro.Outcome, Outcome> OUTCOMES = AvroLogCodec.of(
            io.tablestream.schemas.avro.Outcome.getClassSchema(), LogCodecs::outcomeToAvro, LogCodecs::outcomeFromAvro);
    /** Records of {@code <prefix>.outcomes}. */
    public static final LogCodec<Outcome> OUTCOME = OUTCOMES;
    /** Records of {@code <prefix>.changes}: written directly, read by Avro (see ChangeEventCodec). */
    public static final LogCodec<ChangeEvent> CHANGE_EVENT = new ChangeEventCodec(AvroLogCodec.of(
            EntityChanged.getClassSchema(), LogCodecs::changeToAvro, LogCodecs::changeFromAvro));
    /** Table records of {@code <prefix>.tables} (keys {@code name/...} and {@code id/...}). */
    public static final LogCodec<TableRecord> TABLE_RECORD = AvroLogCodec.of(
            io.tablestream.schemas.avro.TableRecord.getClassSchema(), LogCodecs::tableToAvro, LogCodecs::tableFromAvro);
    private static final AvroLogCodec<io.tablestream.schemas.avro.AccountRecord, AccountRecord> ACCOUNTS =
            AvroLogCodec.of(io.tablestream.schemas.avro.AccountRecord.getClassSchema(), SettingsMapping::accountToAvro,
                    SettingsMapping::accountFromAvro);
    /** Account records of {@code <prefix>.tables} (keys {@code account/...}). */
    public static final LogCodec<AccountRecord> ACCOUNT_RECORD = ACCOUNTS;
    /** Every record of {@code <prefix>.tables}, told apart by the schema that wrote it. */
    public static final LogCodec<RegistryRecord> REGISTRY_RECORD = new LogCodec<>() {
        @Override
        public byte[] encode(RegistryRecord value) {
            return value instanceof TableRecord t ? TABLE_RECORD.encode(t) : ACCOUNT_RECORD.encode((AccountRecord) value);
        }

        @Override
        public RegistryRecord decode(byte[] bytes) {
            return ACCOUNTS.reads(bytes) ? ACCOUNTS.decode(bytes) : TABLE_RECORD.decode(bytes);
        }
    };

    /** A cross-partition transaction's status, as its coordinator task keeps it. */
    public static final LogCodec<TransactionStatus> TRANSACTION_STATUS = AvroLogCodec.of(
            io.tablestream.schemas.avro.TransactionStatus.getClassSchema(), LogCodecs::transactionToAvro,
            LogCodecs::transactionFromAvro);

    /** A job's status, as its coordinator task keeps it. */
    public static final LogCodec<JobStatus> JOB_STATUS = AvroLogCodec.of(
            io.tablestream.schemas.avro.JobStatus.getClassSchema(), LogCodecs::jobToAvro, LogCodecs::jobFromAvro);

    /** Reads only the header of a command record, for answering one whose body is invalid. */
    private static final LogCodec<CommandHeader> COMMAND_HEADER =
            AvroLogCodec.<io.tablestream.schemas.avro.Command, CommandHeader>of(
                    io.tablestream.schemas.avro.Command.getClassSchema(), LogCodecs::headerOnlyIsReadOnly,
                    a -> new CommandHeader(a.getId(), a.getAccount(), a.getAcceptedAtMillis(), a.getReplyTo(),
                            a.getPrincipal()));

    private LogCodecs() {
    }

    /**
     * The header of a command record whose body may be invalid (so that the rejection can still be
     * answered to whoever awaits it); empty when not even the header can be read.
     */
    public static java.util.Optional<CommandHeader> commandHeaderOf(byte[] bytes) {
        try {
            return java.util.Optional.of(COMMAND_HEADER.decode(bytes));
        } catch (LogFormatException e) {
            return java.util.Optional.empty();
        }
    }

    /**
     * The command id of an outcome record, read without decoding the rest (its first field), so a
     * reader can skip the outcomes nobody waits for cheaply; empty when the record is not an outcome
     * or is cut short.
     */
    public static java.util.Optional<String> outcomeCommandId(byte[] bytes) {
        if (!OUTCOMES.reads(bytes)) {
            return java.util.Optional.empty();
        }
        int i = 10; // after the single-object header
        long raw = 0;
        for (int shift = 0; i < bytes.length && shift < 35; shift += 7) {
            byte b = bytes[i++];
            raw |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                long length = (raw >>> 1) ^ -(raw & 1); // zigzag
                if (length < 0 || i + length > bytes.length) {
                    return java.util.Optional.empty();
                }
                return java.util.Optional.of(new String(bytes, i, (int) length, java.nio.charset.StandardCharsets.UTF_8));
            }
        }
        return java.util.Optional.empty();
    }

    // --- commands ---

    private static io.tablestream.schemas.avro.Command headerOnlyIsReadOnly(CommandHeader header) {
        throw new UnsupportedOperationException("the header-only codec only reads");
    }

    static io.tablestream.schemas.avro.Command commandToAvro(Command command) {
        CommandHeader h = command.header();
        Object operation;
        if (command instanceof TableCommand t) {
            operation = new TableOperation(TableOperationType.valueOf(t.operation().name()), t.tableName().value(),
                    t.defaultTtlSeconds(), t.historyRetentionSeconds(), SettingsMapping.policiesToAvro(t.accessPolicies()),
                    t.index() == null ? null : indexToAvro(t.index()), indexesToAvro(t.indexes()), t.job());
        } else if (command instanceof AccountCommand a) {
            operation = SettingsMapping.updateToAvro(a.serviceProperties());
        } else if (command instanceof TableAnnouncement a) {
            TableRecord t = a.table();
            operation = new io.tablestream.schemas.avro.TableAnnouncement(t.tableId(), t.name().value(), !t.isActive(),
                    t.createdAt().epochTicks(), PropertyMapping.ticksOrNull(t.deletedAt()), t.defaultTtlSeconds(),
                    t.historyRetentionSeconds(), indexesToAvro(t.indexes()));
        } else if (command instanceof PartitionMarker m) {
            operation = new io.tablestream.schemas.avro.PartitionMarker(m.partition());
        } else if (command instanceof PartitionDeletion d) {
            operation = new io.tablestream.schemas.avro.PartitionDelete(d.tableId(), d.tableName().value(),
                    d.partitionKey());
        } else if (command instanceof TransactionCommand t) {
            List<EntityOperations> parts = new ArrayList<>(t.parts().size());
            t.parts().forEach(p -> parts.add(entityOperationsToAvro(p)));
            operation = new TransactionOperations(t.transactionId(), parts);
        } else if (command instanceof BulkCommand b) {
            List<BulkWrite> writes = new ArrayList<>(b.writes().size());
            for (BulkCommand.Write w : b.writes()) {
                writes.add(new BulkWrite(w.partitionKey(), operationToAvro(w.operation())));
            }
            operation = new BulkWrites(b.tableId(), b.tableName().value(), writes);
        } else if (command instanceof TransactionReport r) {
            Outcome.Failure f = r.failure();
            operation = new io.tablestream.schemas.avro.TransactionReport(r.transactionId(), r.part(),
                    f == null ? null : f.code().code(), f == null ? null : f.message(),
                    f == null ? null : f.operationIndex());
        } else if (command instanceof JobCommand j) {
            operation = jobSubmitToAvro(j.spec());
        } else if (command instanceof JobStep st) {
            operation = new io.tablestream.schemas.avro.JobStep(st.jobId(), st.partition(), st.seq(),
                    st.work() == null ? null : workToAvro(st.work()));
        } else if (command instanceof JobReport r) {
            Outcome.Failure f = r.failure();
            operation = new io.tablestream.schemas.avro.JobReport(r.jobId(), JobReportKind.valueOf(r.kind().name()),
                    r.partition(), r.entities(), r.tableId(), f == null ? null : f.code().code(),
                    f == null ? null : f.message());
        } else {
            operation = entityOperationsToAvro((EntityCommand) command);
        }
        return new io.tablestream.schemas.avro.Command(h.id(), h.account(), h.acceptedAtMillis(), h.replyTo(),
                h.principal(), operation);
    }

    static Command commandFromAvro(io.tablestream.schemas.avro.Command a) {
        CommandHeader h = new CommandHeader(a.getId(), a.getAccount(), a.getAcceptedAtMillis(), a.getReplyTo(),
                a.getPrincipal());
        Object operation = a.getOperation();
        if (operation instanceof TableOperation t) {
            return new TableCommand(h, TableCommand.Operation.valueOf(t.getType().name()), TableName.of(t.getTableName()),
                    t.getDefaultTtlSeconds(), SettingsMapping.policiesFromAvro(t.getAccessPolicies()),
                    t.getHistoryRetentionSeconds(), t.getIndex() == null ? null : indexFromAvro(t.getIndex()),
                    indexesFromAvro(t.getIndexes()), t.getJob());
        }
        if (operation instanceof SetServiceProperties p) {
            return AccountCommand.setServiceProperties(h, SettingsMapping.updateFromAvro(p));
        }
        if (operation instanceof io.tablestream.schemas.avro.TableAnnouncement t) {
            return new TableAnnouncement(h, new TableRecord(h.account(), TableName.of(t.getTableName()), t.getTableId(),
                    t.getDeleted() ? TableRecord.State.DELETED : TableRecord.State.ACTIVE,
                    EdmDateTime.ofEpochTicks(t.getCreatedAtTicks()), PropertyMapping.dateTimeOrNull(t.getDeletedAtTicks()),
                    t.getDefaultTtlSeconds(), List.of(), t.getHistoryRetentionSeconds(), indexesFromAvro(t.getIndexes())));
        }
        if (operation instanceof io.tablestream.schemas.avro.PartitionMarker m) {
            return new PartitionMarker(h, m.getPartition());
        }
        if (operation instanceof io.tablestream.schemas.avro.PartitionDelete d) {
            return new PartitionDeletion(h, d.getTableId(), TableName.of(d.getTableName()), d.getPartitionKey());
        }
        if (operation instanceof TransactionOperations t) {
            List<EntityCommand> parts = new ArrayList<>(t.getParts().size());
            for (int i = 0; i < t.getParts().size(); i++) {
                parts.add(entityCommandFromAvro(partHeader(h, t.getTransactionId(), i), t.getParts().get(i)));
            }
            return new TransactionCommand(h, t.getTransactionId(), parts);
        }
        if (operation instanceof BulkWrites b) {
            List<BulkCommand.Write> writes = new ArrayList<>(b.getWrites().size());
            for (BulkWrite w : b.getWrites()) {
                writes.add(new BulkCommand.Write(w.getPartitionKey(), operationFromAvro(w.getOperation())));
            }
            return new BulkCommand(h, b.getTableId(), TableName.of(b.getTableName()), writes);
        }
        if (operation instanceof io.tablestream.schemas.avro.TransactionReport r) {
            return new TransactionReport(h, r.getTransactionId(), r.getPart(),
                    failureOrNull(r.getErrorCode(), r.getErrorMessage(), r.getOperationIndex()));
        }
        if (operation instanceof JobSubmit j) {
            return new JobCommand(h, jobSpecFromAvro(j));
        }
        if (operation instanceof io.tablestream.schemas.avro.JobStep st) {
            return new JobStep(h, st.getJobId(), st.getPartition(), st.getSeq(),
                    st.getWork() == null ? null : workFromAvro(st.getWork()));
        }
        if (operation instanceof io.tablestream.schemas.avro.JobReport r) {
            return new JobReport(h, r.getJobId(), JobReport.Kind.valueOf(r.getKind().name()), r.getPartition(),
                    r.getEntities(), r.getTableId(), failureOrNull(r.getErrorCode(), r.getErrorMessage(), null));
        }
        return entityCommandFromAvro(h, (EntityOperations) operation);
    }

    /** A failure read from the log; an error code this version does not know reads as InternalError. */
    private static Outcome.Failure failureOrNull(String errorCode, String message, Integer operationIndex) {
        if (errorCode == null) {
            return null;
        }
        ErrorCode code = ErrorCode.fromCode(errorCode);
        ErrorCode known = code == null ? ErrorCode.INTERNAL_ERROR : code;
        return new Outcome.Failure(known, message == null ? known.defaultMessage() : message, operationIndex);
    }

    private static JobSubmit jobSubmitToAvro(JobSpec spec) {
        if (spec instanceof JobSpec.Restore r) {
            return new JobSubmit(JobKind.RESTORE, r.tableId(), r.table().value(), r.target().value(),
                    PropertyMapping.ticksOrNull(r.asOf()), null);
        }
        JobSpec.DeleteEntities d = (JobSpec.DeleteEntities) spec;
        return new JobSubmit(JobKind.DELETE_ENTITIES, d.tableId(), d.table().value(), null, null, d.filter());
    }

    private static JobSpec jobSpecFromAvro(JobSubmit a) {
        TableName table = TableName.of(a.getTableName());
        return switch (a.getKind()) {
            case RESTORE -> new JobSpec.Restore(a.getTableId(), table, TableName.of(required(a.getTargetTableName(),
                    "targetTableName")), PropertyMapping.dateTimeOrNull(a.getAsOfTicks()));
            case DELETE_ENTITIES -> new JobSpec.DeleteEntities(a.getTableId(), table, required(a.getFilter(), "filter"));
        };
    }

    private static io.tablestream.schemas.avro.JobWork workToAvro(JobWork work) {
        if (work instanceof JobWork.CopyRows c) {
            return new io.tablestream.schemas.avro.JobWork(JobKind.RESTORE, c.tableId(), c.table().value(),
                    c.targetId(), c.target().value(), PropertyMapping.ticksOrNull(c.asOf()), null, null);
        }
        JobWork.DeleteRows d = (JobWork.DeleteRows) work;
        return new io.tablestream.schemas.avro.JobWork(JobKind.DELETE_ENTITIES, d.tableId(), d.table().value(), null,
                null, null, d.filter(), d.acceptedAt().epochTicks());
    }

    private static JobWork workFromAvro(io.tablestream.schemas.avro.JobWork a) {
        TableName table = TableName.of(a.getTableName());
        return switch (a.getKind()) {
            case RESTORE -> new JobWork.CopyRows(a.getTableId(), table, required(a.getTargetTableId(), "targetTableId"),
                    TableName.of(required(a.getTargetTableName(), "targetTableName")),
                    PropertyMapping.dateTimeOrNull(a.getAsOfTicks()));
            case DELETE_ENTITIES -> new JobWork.DeleteRows(a.getTableId(), table, required(a.getFilter(), "filter"),
                    EdmDateTime.ofEpochTicks(required(a.getAcceptedAtTicks(), "acceptedAtTicks")));
        };
    }

    private static <T> T required(T value, String field) {
        if (value == null) {
            throw new IllegalArgumentException("the job record lacks " + field);
        }
        return value;
    }

    /**
     * The header of part {@code part} of a transaction accepted under {@code header}: its own id, the
     * transaction's account, time and principal, and nobody waiting (the coordinator hears of it).
     */
    public static CommandHeader partHeader(CommandHeader header, String transactionId, int part) {
        return new CommandHeader(transactionId + "/" + part, header.account(), header.acceptedAtMillis(), null,
                header.principal());
    }

    private static io.tablestream.schemas.avro.EntityOperation operationToAvro(EntityOperation op) {
        return new io.tablestream.schemas.avro.EntityOperation(EntityOperationType.valueOf(op.type().name()),
                op.rowKey(), op.ifMatch(), PropertyMapping.toAvro(op.properties()));
    }

    private static EntityOperation operationFromAvro(io.tablestream.schemas.avro.EntityOperation op) {
        return EntityOperation.of(EntityOperation.Type.valueOf(op.getType().name()), op.getRowKey(), op.getIfMatch(),
                PropertyMapping.fromAvro(op.getProperties()));
    }

    private static EntityOperations entityOperationsToAvro(EntityCommand e) {
        List<io.tablestream.schemas.avro.EntityOperation> ops = new ArrayList<>(e.operations().size());
        for (EntityOperation op : e.operations()) {
            ops.add(operationToAvro(op));
        }
        TransactionPartRef ref = e.transaction() == null ? null
                : new TransactionPartRef(e.transaction().transactionId(), e.transaction().part());
        return new EntityOperations(e.tableId(), e.tableName().value(), e.partitionKey(), e.batch(), ops, ref, e.job());
    }

    private static EntityCommand entityCommandFromAvro(CommandHeader h, EntityOperations e) {
        List<EntityOperation> ops = new ArrayList<>(e.getOperations().size());
        for (io.tablestream.schemas.avro.EntityOperation op : e.getOperations()) {
            ops.add(operationFromAvro(op));
        }
        TransactionRef ref = e.getTransaction() == null ? null
                : new TransactionRef(e.getTransaction().getTransactionId(), e.getTransaction().getPart());
        return new EntityCommand(h, e.getTableId(), TableName.of(e.getTableName()), e.getPartitionKey(), ops,
                e.getBatch(), ref, e.getJob());
    }

    // --- transaction status (the coordinator's store) ---

    static io.tablestream.schemas.avro.TransactionStatus transactionToAvro(TransactionStatus t) {
        List<TransactionPartStatus> parts = new ArrayList<>(t.parts().size());
        for (TransactionStatus.Part p : t.parts()) {
            Outcome.Failure f = p.failure();
            parts.add(new TransactionPartStatus(p.table(), p.partitionKey(), p.operations(),
                    TransactionPartState.valueOf(p.state().name()), f == null ? null : f.code().code(),
                    f == null ? null : f.message(), f == null ? null : f.operationIndex(), p.reports()));
        }
        return new io.tablestream.schemas.avro.TransactionStatus(t.transactionId(), t.account(),
                t.acceptedAt().epochTicks(), parts);
    }

    static TransactionStatus transactionFromAvro(io.tablestream.schemas.avro.TransactionStatus a) {
        List<TransactionStatus.Part> parts = new ArrayList<>(a.getParts().size());
        for (TransactionPartStatus p : a.getParts()) {
            parts.add(new TransactionStatus.Part(p.getTable(), p.getPartitionKey(), p.getOperations(),
                    TransactionStatus.PartState.valueOf(p.getState().name()),
                    failureOrNull(p.getErrorCode(), p.getErrorMessage(), p.getOperationIndex()), p.getReports()));
        }
        return new TransactionStatus(a.getTransactionId(), a.getAccount(), EdmDateTime.ofEpochTicks(a.getAcceptedAtTicks()),
                parts);
    }

    // --- job status (the coordinator's store) ---

    static io.tablestream.schemas.avro.JobStatus jobToAvro(JobStatus j) {
        Outcome.Failure f = j.failure();
        List<Boolean> done = new ArrayList<>(j.partitions());
        List<Boolean> fenced = new ArrayList<>(j.partitions());
        boolean[] d = j.done();
        boolean[] fe = j.fenced();
        for (int i = 0; i < d.length; i++) {
            done.add(d[i]);
            fenced.add(fe[i]);
        }
        return new io.tablestream.schemas.avro.JobStatus(j.jobId(), j.account(), j.kind().name(), j.tableId(), j.table(),
                j.target(),
                j.targetTableId(), PropertyMapping.ticksOrNull(j.asOf()), j.filter(), j.principal(), j.state().name(),
                j.entities(), j.startedAt().epochTicks(), PropertyMapping.ticksOrNull(j.finishedAt()),
                f == null ? null : f.code().code(), f == null ? null : f.message(), done, fenced);
    }

    static JobStatus jobFromAvro(io.tablestream.schemas.avro.JobStatus a) {
        boolean[] done = new boolean[a.getDone().size()];
        boolean[] fenced = new boolean[a.getFenced().size()];
        for (int i = 0; i < done.length; i++) {
            done[i] = a.getDone().get(i);
            fenced[i] = a.getFenced().get(i);
        }
        return new JobStatus(a.getJobId(), a.getAccount(), JobSpec.Kind.valueOf(a.getKind()), a.getTableId(), a.getTable(),
                a.getTarget(), a.getTargetTableId(), PropertyMapping.dateTimeOrNull(a.getAsOfTicks()), a.getFilter(),
                a.getPrincipal(), JobStatus.State.valueOf(a.getState()), a.getEntities(),
                EdmDateTime.ofEpochTicks(a.getStartedAtTicks()), PropertyMapping.dateTimeOrNull(a.getFinishedAtTicks()),
                failureOrNull(a.getErrorCode(), a.getErrorMessage(), null), done, fenced);
    }

    // --- outcomes ---

    static io.tablestream.schemas.avro.Outcome outcomeToAvro(Outcome o) {
        Failure failure = o.failure() == null ? null : failureToAvro(o.failure());
        List<OperationResult> results = new ArrayList<>(o.results().size());
        for (Outcome.OperationResult r : o.results()) {
            results.add(new OperationResult(PropertyMapping.ticksOrNull(r.timestamp())));
        }
        TableInfo table = o.table() == null ? null : new TableInfo(o.table().tableId(), o.table().tableName());
        List<Failure> operationFailures = new ArrayList<>(o.operationFailures().size());
        o.operationFailures().forEach(f -> operationFailures.add(failureToAvro(f)));
        return new io.tablestream.schemas.avro.Outcome(o.commandId(), o.replyTo(), o.partition(), o.offset(), failure,
                results, table, operationFailures);
    }

    static Outcome outcomeFromAvro(io.tablestream.schemas.avro.Outcome a) {
        Outcome.Failure failure = a.getFailure() == null ? null : failureFromAvro(a.getFailure());
        List<Outcome.OperationResult> results = new ArrayList<>(a.getResults().size());
        for (OperationResult r : a.getResults()) {
            results.add(new Outcome.OperationResult(PropertyMapping.dateTimeOrNull(r.getTimestampTicks())));
        }
        Outcome.TableInfo table = a.getTable() == null ? null
                : new Outcome.TableInfo(a.getTable().getTableId(), a.getTable().getTableName());
        List<Outcome.Failure> operationFailures = new ArrayList<>(a.getOperationFailures().size());
        a.getOperationFailures().forEach(f -> operationFailures.add(failureFromAvro(f)));
        return new Outcome(a.getCommandId(), a.getReplyTo(), failure, results, table, a.getPartition(), a.getOffset(),
                operationFailures);
    }

    private static Failure failureToAvro(Outcome.Failure f) {
        return new Failure(f.code().code(), f.message(), f.operationIndex());
    }

    private static Outcome.Failure failureFromAvro(Failure f) {
        ErrorCode code = ErrorCode.fromCode(f.getCode());
        return new Outcome.Failure(code == null ? ErrorCode.INTERNAL_ERROR : code, f.getMessage(), f.getOperationIndex());
    }

    // --- change events ---

    /** Avro's form of a change event; ChangeEventCodec writes the same bytes directly. */
    static EntityChanged changeToAvro(ChangeEvent e) {
        EntityChange c = e.change();
        EntityVersion version = null;
        if (c.newVersion() != null) {
            StoredEntity s = c.newVersion();
            version = new EntityVersion(s.entity().timestamp().epochTicks(), PropertyMapping.ticksOrNull(s.expiresAt()),
                    PropertyMapping.toAvro(s.entity().properties()));
        }
        return new EntityChanged(ChangeType.valueOf(c.type().name()), e.account(), c.tableId(), e.tableName().value(),
                c.partitionKey(), c.rowKey(), version, e.commandId(), e.principal(), e.changedAt().epochTicks());
    }

    static ChangeEvent changeFromAvro(EntityChanged a) {
        StoredEntity version = null;
        if (a.getNewVersion() != null) {
            EntityVersion v = a.getNewVersion();
            Entity entity = Entity.of(a.getPartitionKey(), a.getRowKey(), PropertyMapping.fromAvro(v.getProperties()))
                    .withVersion(EdmDateTime.ofEpochTicks(v.getTimestampTicks()));
            version = new StoredEntity(entity, PropertyMapping.dateTimeOrNull(v.getExpiresAtTicks()));
        }
        EntityChange change = new EntityChange(EntityChange.Type.valueOf(a.getType().name()), a.getTableId(),
                a.getPartitionKey(), a.getRowKey(), version);
        return new ChangeEvent(a.getAccount(), TableName.of(a.getTableName()), change, a.getCommandId(),
                a.getPrincipal(), EdmDateTime.ofEpochTicks(a.getChangedAtTicks()));
    }

    // --- table registry ---

    static io.tablestream.schemas.avro.TableRecord tableToAvro(TableRecord t) {
        return new io.tablestream.schemas.avro.TableRecord(t.account(), t.name().value(), t.tableId(),
                TableState.valueOf(t.state().name()), t.createdAt().epochTicks(),
                PropertyMapping.ticksOrNull(t.deletedAt()), t.defaultTtlSeconds(),
                SettingsMapping.policiesToAvro(t.accessPolicies()), t.historyRetentionSeconds(), indexesToAvro(t.indexes()));
    }

    static TableRecord tableFromAvro(io.tablestream.schemas.avro.TableRecord a) {
        return new TableRecord(a.getAccount(), TableName.of(a.getTableName()), a.getTableId(),
                TableRecord.State.valueOf(a.getState().name()), EdmDateTime.ofEpochTicks(a.getCreatedAtTicks()),
                PropertyMapping.dateTimeOrNull(a.getDeletedAtTicks()), a.getDefaultTtlSeconds(),
                SettingsMapping.policiesFromAvro(a.getAccessPolicies()), a.getHistoryRetentionSeconds(),
                indexesFromAvro(a.getIndexes()));
    }

    private static io.tablestream.schemas.avro.IndexDefinition indexToAvro(IndexDefinition i) {
        return new io.tablestream.schemas.avro.IndexDefinition(i.name(), i.property(), i.indexId());
    }

    private static IndexDefinition indexFromAvro(io.tablestream.schemas.avro.IndexDefinition a) {
        return new IndexDefinition(a.getName(), a.getProperty(), a.getIndexId());
    }

    private static List<io.tablestream.schemas.avro.IndexDefinition> indexesToAvro(List<IndexDefinition> indexes) {
        List<io.tablestream.schemas.avro.IndexDefinition> out = new ArrayList<>(indexes.size());
        indexes.forEach(i -> out.add(indexToAvro(i)));
        return out;
    }

    private static List<IndexDefinition> indexesFromAvro(List<io.tablestream.schemas.avro.IndexDefinition> indexes) {
        List<IndexDefinition> out = new ArrayList<>(indexes.size());
        indexes.forEach(a -> out.add(indexFromAvro(a)));
        return out;
    }
}
