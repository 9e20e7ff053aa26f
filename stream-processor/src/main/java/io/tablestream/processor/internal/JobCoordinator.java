package io.tablestream.processor.internal;

import io.tablestream.core.command.CommandHeader;
import io.tablestream.core.command.JobCommand;
import io.tablestream.core.command.JobReport;
import io.tablestream.core.command.JobSpec;
import io.tablestream.core.command.JobStatus;
import io.tablestream.core.command.JobStep;
import io.tablestream.core.command.JobWork;
import io.tablestream.core.command.Outcome;
import io.tablestream.core.command.TableCommand;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.filter.Filter;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.TableName;
import io.tablestream.core.model.TableRecord;
import io.tablestream.core.rules.CommandRules;
import io.tablestream.core.rules.History;
import io.tablestream.processor.store.JobKeys;
import io.tablestream.schemas.LogCodecs;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.BiConsumer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The coordinator of the jobs of the accounts whose key is on a task's partition: records each job
 * ({@link JobCommand}), hands every partition of the log its share as a first {@link JobStep}, and
 * records each partition's {@link JobReport}s — progress, its share done, a restore's fences — into
 * the job's status, which {@code GET /<account>/$jobs} reads. Everything it writes goes out in the
 * task's Kafka transaction, so no step or report is lost or written twice.
 *
 * <ul>
 *   <li>A deletion by filter is recorded and answered at once; every partition then deletes its
 *       matches; the job completes when the last partition reports its share done.</li>
 *   <li>A restore is recorded, and its target table's creation is sent to the task that decides the
 *       target's name — with the source's settings as this partition knows them at this point of its
 *       log — which answers the client (created, or TableAlreadyExists) and reports here. Then every
 *       partition copies its share; when all are done, a fence goes to every partition, and once each
 *       has reached its fence (so applied every copy sent to it before), the job completes.</li>
 * </ul>
 *
 * <p>Of each account, the newest {@value #KEPT_FINISHED} finished jobs are kept (the oldest
 * finished are forgotten first), and every running one.
 */
final class JobCoordinator {
    private static final Logger LOG = LoggerFactory.getLogger(JobCoordinator.class);
    /** Finished jobs kept per account. */
    static final int KEPT_FINISHED = 100;

    private final KeyValueStore<String, byte[]> store;
    private final Outputs outputs;
    private final PartitionTables tables;
    private final BiConsumer<Outcome, Record<byte[], byte[]>> answer;
    private final int partitions;
    private final Clock clock;

    JobCoordinator(KeyValueStore<String, byte[]> store, Outputs outputs, PartitionTables tables,
                   BiConsumer<Outcome, Record<byte[], byte[]>> answer, int partitions, Clock clock) {
        this.store = store;
        this.outputs = outputs;
        this.tables = tables;
        this.answer = answer;
        this.partitions = partitions;
        this.clock = clock;
    }

    /**
     * Records a submitted job, decided at {@code time} (its own time, see {@link TaskState#commandTime}):
     * refused when it breaks a rule or its table is not live here; else recorded and started.
     */
    void accept(Record<byte[], byte[]> record, JobCommand command, EdmDateTime time, int partition, long offset) {
        String key = JobKeys.status(command.account(), command.jobId());
        if (store.get(key) != null) {
            // the same job again (a producer's retry): the first one counts
            answer.accept(new Outcome(command.id(), command.header().replyTo(), null, List.of(), null, partition,
                    offset), record);
            return;
        }
        Outcome.Failure refused = refusal(command, time);
        if (refused != null) {
            answer.accept(new Outcome(command.id(), command.header().replyTo(), refused, List.of(), null, partition,
                    offset), record);
            return;
        }
        JobSpec spec = command.spec();
        JobStatus status = JobStatus.running(command.jobId(), command.account(), spec, command.header().principal(),
                time, partitions);
        store.put(key, LogCodecs.JOB_STATUS.encode(status));
        if (spec instanceof JobSpec.Restore restore) {
            // the target's creation is decided (and answered) by the task of its name
            TableRecord source = tables.live(spec.tableId(), command.account()).orElseThrow();
            outputs.command(TableCommand.createRestored(command.header(), restore.target(),
                    source.defaultTtlSeconds(), source.historyRetentionSeconds(), source.indexes(), command.jobId()),
                    record.timestamp());
            return;
        }
        JobSpec.DeleteEntities d = (JobSpec.DeleteEntities) spec;
        dispatch(status, new JobWork.DeleteRows(d.tableId(), d.table(), d.filter(), time));
        answer.accept(new Outcome(command.id(), command.header().replyTo(), null, List.of(), null, partition, offset),
                record);
    }

    /** Why the job is refused, or null: a rule broken, its table not live, a point in time outside the retention. */
    private Outcome.Failure refusal(JobCommand command, EdmDateTime time) {
        JobSpec spec = command.spec();
        try {
            CommandRules.validate(command);
            if (spec instanceof JobSpec.DeleteEntities d) {
                Filter.parse(d.filter());
            }
        } catch (TableServiceException e) {
            return new Outcome.Failure(e.errorCode(), e.getMessage(), null);
        }
        Optional<TableRecord> table = tables.live(spec.tableId(), command.account());
        if (table.isEmpty()) {
            return new Outcome.Failure(ErrorCode.TABLE_NOT_FOUND, ErrorCode.TABLE_NOT_FOUND.defaultMessage(), null);
        }
        if (spec instanceof JobSpec.Restore r && r.asOf() != null) {
            TableRecord source = table.get();
            if (!source.keepsHistory()) {
                return new Outcome.Failure(ErrorCode.INVALID_INPUT, "The table keeps no entity history, so it cannot"
                        + " be restored as of a past time; leave AsOf out for a copy as of now.", null);
            }
            EdmDateTime horizon = History.horizon(time, source.historyRetentionSeconds());
            if (r.asOf().compareTo(horizon) < 0 || r.asOf().compareTo(time) > 0) {
                return new Outcome.Failure(ErrorCode.INVALID_INPUT, "AsOf " + r.asOf().toIso()
                        + " is outside the table's history retention (" + horizon.toIso() + " to " + time.toIso()
                        + ").", null);
            }
        }
        return null;
    }

    /** Records a partition's report on a job, at {@code time} (the report's own time). */
    void report(JobReport report, EdmDateTime time) {
        String key = JobKeys.status(report.account(), report.jobId());
        byte[] bytes = store.get(key);
        if (bytes == null) {
            LOG.warn("A {} report for unknown job {} is ignored", report.kind(), report.jobId());
            return;
        }
        JobStatus status = LogCodecs.JOB_STATUS.decode(bytes);
        if (status.finished() || report.partition() < 0 || report.partition() >= status.partitions()) {
            LOG.debug("A {} report from partition {} for job {} ({}) is ignored", report.kind(), report.partition(),
                    report.jobId(), status.state());
            return;
        }
        status = status.counting(report.entities());
        switch (report.kind()) {
            case TABLE_CREATED -> {
                if (report.failure() != null) {
                    status = status.failing(report.failure()).finishedAt(time);
                } else {
                    status = status.withTarget(report.tableId());
                    status = startCopies(status, time);
                }
            }
            case PROGRESS -> {
                // counted above
            }
            case DONE -> {
                if (report.failure() != null) {
                    status = status.failing(report.failure());
                }
                status = status.partitionDone(report.partition());
                if (status.allDone()) {
                    if (status.kind() == JobSpec.Kind.RESTORE && status.failure() == null) {
                        fences(status);
                    } else {
                        status = status.finishedAt(time);
                    }
                }
            }
            case FENCED -> {
                status = status.partitionFenced(report.partition());
                if (status.allFenced()) {
                    status = status.finishedAt(time);
                }
            }
            case WRITE_FAILED -> status = status.failing(report.failure());
        }
        store.put(key, LogCodecs.JOB_STATUS.encode(status));
        if (status.finished()) {
            forgetOldFinished(report.account());
        }
    }

    /**
     * A restore's target exists: every partition copies its share — as of the job's point in time,
     * from the history (for a source that keeps one, the job's acceptance when none was given), or
     * the present rows of a source without history.
     */
    private JobStatus startCopies(JobStatus status, EdmDateTime time) {
        Optional<TableRecord> source = tables.live(status.tableId(), status.account());
        if (source.isEmpty()) {
            return status.failing(new Outcome.Failure(ErrorCode.TABLE_NOT_FOUND, "The table " + status.table()
                    + " was deleted before its restore began.", null)).finishedAt(time);
        }
        TableRecord table = source.get();
        // without a time: as of the acceptance, to its millisecond (as a deletion's cut)
        EdmDateTime asOf = status.asOf() != null ? status.asOf()
                : table.keepsHistory() ? status.startedAt().plusTicks(EdmDateTime.TICKS_PER_SECOND / 1000 - 1) : null;
        dispatch(status, new JobWork.CopyRows(table.tableId(), table.name(), status.targetTableId(),
                TableName.of(status.target()), asOf));
        return status;
    }

    /** Every partition's first step of {@code work}. */
    private void dispatch(JobStatus status, JobWork work) {
        long now = clock.millis();
        for (int p = 0; p < partitions; p++) {
            outputs.step(new JobStep(header(status, PartitionJobs.stepId(status.jobId(), p, 0), now), status.jobId(),
                    p, 0, work), now);
        }
    }

    /** A fence to every partition: each reports once it has applied every copy sent to it before. */
    private void fences(JobStatus status) {
        long now = clock.millis();
        for (int p = 0; p < partitions; p++) {
            outputs.step(new JobStep(header(status, status.jobId() + "/fence/" + p, now), status.jobId(), p, 0, null),
                    now);
        }
    }

    private static CommandHeader header(JobStatus status, String id, long now) {
        return new CommandHeader(id, status.account(), now, null, status.principal());
    }

    /** Keeps the newest {@value #KEPT_FINISHED} finished jobs of the account. */
    private void forgetOldFinished(String account) {
        List<JobStatus> finished = new ArrayList<>();
        String prefix = JobKeys.statusPrefix(account);
        try (KeyValueIterator<String, byte[]> it = store.range(prefix, JobKeys.end(prefix))) {
            while (it.hasNext()) {
                KeyValue<String, byte[]> kv = it.next();
                JobStatus s = LogCodecs.JOB_STATUS.decode(kv.value);
                if (s.finished()) {
                    finished.add(s);
                }
            }
        }
        if (finished.size() <= KEPT_FINISHED) {
            return;
        }
        finished.sort(Comparator.comparing((JobStatus s) -> s.finishedAt()).thenComparing(JobStatus::jobId));
        for (JobStatus s : finished.subList(0, finished.size() - KEPT_FINISHED)) {
            store.delete(JobKeys.status(account, s.jobId()));
        }
    }
}
