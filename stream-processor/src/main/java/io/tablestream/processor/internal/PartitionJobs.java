package io.tablestream.processor.internal;

import io.tablestream.core.command.ChangeEvent;
import io.tablestream.core.command.CommandHeader;
import io.tablestream.core.command.EntityChange;
import io.tablestream.core.command.EntityCommand;
import io.tablestream.core.command.EntityOperation;
import io.tablestream.core.command.JobReport;
import io.tablestream.core.command.JobStep;
import io.tablestream.core.command.JobWork;
import io.tablestream.core.command.Outcome;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.filter.Filter;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.EntityKey;
import io.tablestream.core.model.StoredEntity;
import io.tablestream.core.model.TableRecord;
import io.tablestream.core.rules.EntitySize;
import io.tablestream.core.rules.History;
import io.tablestream.core.rules.Limits;
import io.tablestream.core.storekey.ByteRange;
import io.tablestream.core.storekey.KeyCodec;
import io.tablestream.processor.ApplyObserver;
import io.tablestream.processor.store.JobKeys;
import io.tablestream.schemas.LogCodecs;
import io.tablestream.schemas.StoredEntityCodec;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One task's share of the jobs (restores, deletions by filter) working on its partition: each
 * {@link JobStep} that reaches the partition does one bounded batch of the work — at most a batch
 * of rows examined — and writes the next step to the end of the partition, in the same Kafka
 * transaction as the batch and its report to the job's coordinator. Between two steps the
 * partition's other commands are decided as usual; a step is decided at its own point of the log
 * like any command, so a replay after a crash does every batch again identically, and since the
 * batch, the next step and the report commit together, each batch is done exactly once.
 *
 * <ul>
 *   <li><b>Deleting</b> ({@link JobWork.DeleteRows}): the rows of the filter's key range that match
 *       it and were written at or before the job's acceptance (and before the job reached the
 *       partition: its cut) are deleted, each as a change of its own (change feed, history, indexes),
 *       under the job's id and principal. A row written after the cut is not touched.</li>
 *   <li><b>Copying as of a time</b> ({@link JobWork.CopyRows} with {@code asOf}): the entities as
 *       they were then, from the entity history, go to the target table's partitions as change sets
 *       of upserts (written by the job, so their owners answer nobody). While it runs, the history
 *       of the source table in this partition is not swept.</li>
 *   <li><b>Copying the present</b> ({@code asOf} null, a table without history): the rows as they
 *       stood at the cut. A row the cursor has not passed yet that is about to change (a write, a
 *       delete, an expiry, a partition's sweep) is copied first, as it stood at the cut, so the copy
 *       is of one point of the partition's log however long the copy takes.</li>
 * </ul>
 *
 * <p>One class, over 400 lines: the three kinds of work share one bounded walk over the share's rows,
 * one cut, one cursor and one way of writing a batch, its next step and its report in the task's
 * transaction; split by kind, each would repeat that walk and the rules of what a batch may touch.
 */
final class PartitionJobs {
    private static final Logger LOG = LoggerFactory.getLogger(PartitionJobs.class);
    /** Bytes of entities one restore step copies at most, and one change set of copies holds at most. */
    private static final long STEP_BYTES = 4L * 1024 * 1024;
    private static final long CHANGE_SET_BYTES = 2L * 1024 * 1024;

    private final KeyValueStore<String, byte[]> store;
    private final KeyValueStore<Bytes, byte[]> entities;
    private final KeyValueStore<Bytes, byte[]> historyStore;
    private final EntityRows rows;
    private final HistoryRows history;
    private final PartitionTables tables;
    private final TaskState taskState;
    private final Outputs outputs;
    private final ApplyObserver observer;
    private final int partition;
    private final int batch;
    private final Clock clock;
    /** The jobs at work here, by id (read from the store when first needed). */
    private Map<String, Share> active;
    private final Map<String, Filter> filters = new HashMap<>();

    PartitionJobs(KeyValueStore<String, byte[]> store, KeyValueStore<Bytes, byte[]> entities,
                  KeyValueStore<Bytes, byte[]> historyStore, EntityRows rows, HistoryRows history,
                  PartitionTables tables, TaskState taskState, Outputs outputs, ApplyObserver observer, int partition,
                  int batch, Clock clock) {
        this.store = store;
        this.entities = entities;
        this.historyStore = historyStore;
        this.rows = rows;
        this.history = history;
        this.tables = tables;
        this.taskState = taskState;
        this.outputs = outputs;
        this.observer = observer;
        this.partition = partition;
        this.batch = batch;
        this.clock = clock;
    }

    /**
     * This partition's share of one job: the step it expects next (carrying the work), where its
     * walk resumes, its cut (the partition's clock when the job reached it) and the entities it
     * processed since its last report.
     */
    private record Share(JobStep next, byte[] cursor, long cutTicks, long unreported) {
        JobWork work() {
            return next.work();
        }

        /** The share after a batch that processed {@code processed} entities, its next step written at {@code nowMillis}. */
        Share advanced(byte[] resumeAt, long processed, long nowMillis) {
            return new Share(successor(next, nowMillis), resumeAt, cutTicks, unreported + processed);
        }

        Share counted(long processed) {
            return new Share(next, cursor, cutTicks, unreported + processed);
        }

        Share reported() {
            return new Share(next, cursor, cutTicks, 0);
        }

        byte[] encode() {
            byte[] step = LogCodecs.COMMAND.encode(next);
            return ByteBuffer.allocate(Integer.BYTES * 2 + step.length + cursor.length + Long.BYTES * 2)
                    .putInt(step.length).put(step).putInt(cursor.length).put(cursor).putLong(cutTicks)
                    .putLong(unreported).array();
        }

        static Share decode(byte[] value) {
            ByteBuffer b = ByteBuffer.wrap(value);
            byte[] step = new byte[b.getInt()];
            b.get(step);
            byte[] cursor = new byte[b.getInt()];
            b.get(cursor);
            return new Share((JobStep) LogCodecs.COMMAND.decode(step), cursor, b.getLong(), b.getLong());
        }
    }

    /** The step after {@code step}, at {@code nowMillis}: its time, like a marker's, is when it is written. */
    private static JobStep successor(JobStep step, long nowMillis) {
        CommandHeader h = step.header();
        return new JobStep(new CommandHeader(stepId(step.jobId(), step.partition(), step.seq() + 1), h.account(),
                nowMillis, null, h.principal()), step.jobId(), step.partition(), step.seq() + 1, step.work());
    }

    /** The id of step {@code seq} of a job in a partition. */
    static String stepId(String jobId, int partition, long seq) {
        return jobId + "/step/" + partition + "/" + seq;
    }

    /**
     * Does the step: a fence is acknowledged at once; work is done a batch at a time.
     *
     * @param time the step's own time (see {@link TaskState#commandTime})
     * @param recordTimestamp the step record's timestamp, for what the batch writes
     */
    void step(JobStep step, EdmDateTime time, long recordTimestamp) {
        if (step.partition() != partition) {
            LOG.warn("A job step for partition {} reached partition {}; ignored", step.partition(), partition);
            return;
        }
        if (step.fence()) {
            report(step, JobReport.Kind.FENCED, 0, null, recordTimestamp);
            return;
        }
        Share share = active().get(step.jobId());
        if (share == null) {
            if (step.seq() != 0) {
                LOG.warn("Step {} of job {} reached partition {}, which has no share of it; ignored", step.seq(),
                        step.jobId(), partition);
                return;
            }
            share = start(step, time);
        } else if (step.seq() != share.next().seq()) {
            LOG.warn("Step {} of job {} reached partition {}, which expects step {}; ignored", step.seq(), step.jobId(),
                    partition, share.next().seq());
            return;
        }
        Outcome.Failure unworkable = unworkable(share, time);
        if (unworkable != null) {
            finish(share, unworkable, recordTimestamp);
            return;
        }
        Batch done = share.work() instanceof JobWork.DeleteRows d ? delete(share, d, time, recordTimestamp)
                : copy(share, (JobWork.CopyRows) share.work(), time, recordTimestamp);
        long now = clock.millis();
        Share next = share.advanced(done.resumeAt(), done.processed(), now);
        if (done.resumeAt() == null) {
            finish(next, null, recordTimestamp);
            return;
        }
        report(step, JobReport.Kind.PROGRESS, next.unreported(), null, recordTimestamp);
        next = next.reported();
        save(next);
        outputs.step(next.next(), now);
    }

    /** A job's first step reached the partition: its share starts at the beginning of its range, cut at the clock. */
    private Share start(JobStep step, EdmDateTime time) {
        EdmDateTime clock = taskState.clock();
        long clockTicks = clock == null ? Long.MIN_VALUE : clock.epochTicks();
        // a deletion's cut: its acceptance, to the millisecond (a row written in that millisecond counts
        // as written before it, its Timestamp a few ticks past the millisecond by the partition's clock)
        long cut = step.work() instanceof JobWork.DeleteRows d
                ? Math.min(d.acceptedAt().epochTicks() + TICKS_PER_MILLI - 1, clockTicks) : clockTicks;
        Share share = new Share(step, range(step.jobId(), step.work()).fromInclusive(), cut, 0);
        active().put(step.jobId(), share);
        return share;
    }

    /** Why the work cannot go on here (a table gone, a point in time no longer kept), or null. */
    private Outcome.Failure unworkable(Share share, EdmDateTime time) {
        String account = share.next().header().account();
        JobWork work = share.work();
        Optional<TableRecord> table = tables.live(work.tableId(), account);
        if (table.isEmpty()) {
            return new Outcome.Failure(ErrorCode.TABLE_NOT_FOUND, "The table " + work.table().value()
                    + " was deleted while the job ran.", null);
        }
        if (work instanceof JobWork.CopyRows c) {
            if (tables.live(c.targetId(), account).isEmpty()) {
                return new Outcome.Failure(ErrorCode.TABLE_NOT_FOUND, "The table " + c.target().value()
                        + " was deleted while it was being restored.", null);
            }
            TableRecord source = table.get();
            if (c.asOf() != null && share.next().seq() == 0 && (!source.keepsHistory()
                    || c.asOf().compareTo(History.horizon(time, source.historyRetentionSeconds())) < 0)) {
                return new Outcome.Failure(ErrorCode.INVALID_INPUT, "AsOf " + c.asOf().toIso()
                        + " fell outside the table's history retention before the restore began.", null);
            }
        }
        return null;
    }

    /** A batch: the entities processed, and where the next resumes (null: the range is done). */
    private record Batch(long processed, byte[] resumeAt) {
    }

    /**
     * Deletes the matching rows among at most a batch examined: those written at or before the cut,
     * live at the step's time (an expired row is the expiry's), not gone with their partition.
     */
    private Batch delete(Share share, JobWork.DeleteRows work, EdmDateTime time, long recordTimestamp) {
        Filter filter = filter(share.next().jobId(), work);
        ByteRange range = range(share.next().jobId(), work).startingAt(share.cursor());
        List<StoredEntity> doomed = new ArrayList<>();
        byte[] resumeAt = eachRow(range, () -> false, s -> {
            if (s.entity().timestamp().epochTicks() <= share.cutTicks() && !s.isExpiredAt(time)
                    && !tables.deletedWithPartition(work.tableId(), s) && filter.test(s.entity())) {
                doomed.add(s);
            }
        });
        if (!doomed.isEmpty()) {
            TableRecord table = tables.live(work.tableId(), share.next().header().account()).orElseThrow();
            EdmDateTime at = taskState.nextTimestamp(time);
            CommandHeader job = share.next().header();
            for (StoredEntity s : doomed) {
                EntityChange change = new EntityChange(EntityChange.Type.DELETED, work.tableId(),
                        s.entity().partitionKey(), s.entity().rowKey(), null);
                rows.apply(change, s);
                observer.applied(change);
                ChangeEvent event = new ChangeEvent(job.account(), table.name(), change, share.next().jobId(),
                        job.principal(), at);
                outputs.change(event, recordTimestamp);
                if (table.keepsHistory()) {
                    history.record(event);
                }
            }
        }
        return new Batch(doomed.size(), resumeAt);
    }

    /** Copies the entities among at most a batch examined (versions, from the history) into the target. */
    private Batch copy(Share share, JobWork.CopyRows work, EdmDateTime time, long recordTimestamp) {
        ByteRange range = range(share.next().jobId(), work).startingAt(share.cursor());
        Copies copies = new Copies(share, time.epochTicks() / TICKS_PER_MILLI, recordTimestamp);
        byte[] resumeAt;
        if (work.asOf() != null) {
            BoundedVersions versions = new BoundedVersions(historyStore.range(Bytes.wrap(range.fromInclusive()),
                    Bytes.wrap(range.toExclusive())), batch, STEP_BYTES);
            try (AsOfRows asOf = new AsOfRows(versions, range, work.asOf(), tables.deletionsOf(work.tableId()))) {
                while (asOf.hasNext()) {
                    copies.add(asOf.next());
                }
            }
            resumeAt = versions.resumeAt();
        } else {
            resumeAt = eachRow(range, () -> copies.bytes() >= STEP_BYTES, s -> {
                if (atCut(share, s)) {
                    copies.add(s);
                }
            });
        }
        copies.flush();
        return new Batch(copies.count(), resumeAt);
    }

    /**
     * Hands the rows of {@code range} to {@code row} in key order, at most a batch of them and none
     * once {@code full} says so; returns where the next batch resumes, or null at the range's end.
     */
    private byte[] eachRow(ByteRange range, BooleanSupplier full, Consumer<StoredEntity> row) {
        int examined = 0;
        try (KeyValueIterator<Bytes, byte[]> it = entities.range(Bytes.wrap(range.fromInclusive()),
                Bytes.wrap(range.toExclusive()))) {
            while (it.hasNext()) {
                KeyValue<Bytes, byte[]> kv = it.next();
                byte[] key = kv.key.get();
                if (!range.contains(key)) {
                    return null;
                }
                if (examined == batch || full.getAsBoolean()) {
                    return key;
                }
                examined++;
                EntityKey k = KeyCodec.decode(key);
                row.accept(StoredEntityCodec.decode(k.partitionKey(), k.rowKey(), kv.value));
            }
        }
        return null;
    }

    private static final long TICKS_PER_MILLI = EdmDateTime.TICKS_PER_SECOND / 1000;

    /** Whether row {@code s} of the source stood in the table at the share's cut. */
    private boolean atCut(Share share, StoredEntity s) {
        long ticks = s.entity().timestamp().epochTicks();
        return ticks <= share.cutTicks() && !s.isExpiredAt(EdmDateTime.ofEpochTicks(share.cutTicks()))
                && !tables.deletedBetween(share.work().tableId(), s.entity().partitionKey(), ticks, share.cutTicks());
    }

    /**
     * A row of table {@code key.tableId()} is about to change from {@code previous}: a copy of the
     * present that has not passed it yet copies it first, as it stood at the cut.
     */
    void beforeChange(EntityKey key, byte[] encodedKey, StoredEntity previous) {
        Map<String, Share> jobs = active();
        if (jobs.isEmpty()) {
            return;
        }
        for (Map.Entry<String, Share> e : jobs.entrySet()) {
            Share share = e.getValue();
            if (share.work() instanceof JobWork.CopyRows c && c.asOf() == null && c.tableId() == key.tableId()
                    && Arrays.compareUnsigned(encodedKey, share.cursor()) >= 0 && atCut(share, previous)) {
                EdmDateTime clock = taskState.clock();
                long millis = clock == null ? 0 : clock.epochTicks() / TICKS_PER_MILLI;
                Copies copies = new Copies(share, millis, millis);
                copies.add(previous);
                copies.flush();
                Share counted = share.counted(1);
                e.setValue(counted);
                store.put(JobKeys.part(e.getKey()), counted.encode());
            }
        }
    }

    /** Whether a job at work here reads table {@code tableId}'s history (which must then not be swept). */
    boolean readsHistoryOf(long tableId) {
        for (Share s : active().values()) {
            if (s.work() instanceof JobWork.CopyRows c && c.asOf() != null && c.tableId() == tableId) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether a copy of the present of table {@code tableId} is at work here: it judges rows at its
     * cut, so every earlier deletion of a partition must be kept meanwhile.
     */
    boolean copiesPresentOf(long tableId) {
        for (Share s : active().values()) {
            if (s.work() instanceof JobWork.CopyRows c && c.asOf() == null && c.tableId() == tableId) {
                return true;
            }
        }
        return false;
    }

    /** The share is over: forgotten here, and reported done (or failed) to the coordinator. */
    private void finish(Share share, Outcome.Failure failure, long recordTimestamp) {
        String jobId = share.next().jobId();
        active().remove(jobId);
        filters.remove(jobId);
        store.delete(JobKeys.part(jobId));
        report(share.next(), JobReport.Kind.DONE, share.unreported(), failure, recordTimestamp);
    }

    private void report(JobStep step, JobReport.Kind kind, long processed, Outcome.Failure failure, long timestamp) {
        CommandHeader h = step.header();
        outputs.command(new JobReport(new CommandHeader(step.jobId() + "/report/" + partition + "/" + step.seq() + "/"
                + kind, h.account(), h.acceptedAtMillis(), null, h.principal()), step.jobId(), kind, partition,
                processed, 0, failure), timestamp);
    }

    private void save(Share share) {
        active().put(share.next().jobId(), share);
        store.put(JobKeys.part(share.next().jobId()), share.encode());
    }

    private Map<String, Share> active() {
        if (active == null) {
            active = new LinkedHashMap<>();
            String prefix = JobKeys.partPrefix();
            try (KeyValueIterator<String, byte[]> it = store.range(prefix, JobKeys.end(prefix))) {
                while (it.hasNext()) {
                    Share s = Share.decode(it.next().value);
                    active.put(s.next().jobId(), s);
                }
            }
        }
        return active;
    }

    /** The keys a job's work walks: a deletion's, the filter's key range; a copy's, the whole table. */
    private ByteRange range(String jobId, JobWork work) {
        if (work instanceof JobWork.DeleteRows d) {
            return KeyCodec.range(d.tableId(), filter(jobId, d).keyRange());
        }
        return KeyCodec.table(work.tableId());
    }

    /** A deletion's filter, parsed once per job here. */
    private Filter filter(String jobId, JobWork.DeleteRows work) {
        return filters.computeIfAbsent(jobId, id -> Filter.parse(work.filter()));
    }

    /**
     * The copies one step (or one change about to happen) sends to the target table: upserts,
     * grouped into change sets by PartitionKey, each at most {@value Limits#MAX_BATCH_OPERATIONS}
     * entities and about {@link #CHANGE_SET_BYTES} bytes, written by the job (their owners answer
     * nobody and report a failure to the coordinator). The entities come in key order, so one
     * PartitionKey's are consecutive.
     */
    private final class Copies {
        private final Share share;
        private final long acceptedAtMillis;
        private final long recordTimestamp;
        private final List<EntityOperation> pending = new ArrayList<>();
        private String partitionKey;
        private long pendingBytes;
        private long bytes;
        private long count;

        Copies(Share share, long acceptedAtMillis, long recordTimestamp) {
            this.share = share;
            this.acceptedAtMillis = acceptedAtMillis;
            this.recordTimestamp = recordTimestamp;
        }

        void add(StoredEntity s) {
            String pk = s.entity().partitionKey();
            long size = EntitySize.of(s.entity());
            if (!pk.equals(partitionKey) || pending.size() == Limits.MAX_BATCH_OPERATIONS
                    || pendingBytes + size > CHANGE_SET_BYTES) {
                flush();
                partitionKey = pk;
            }
            pending.add(EntityOperation.of(EntityOperation.Type.INSERT_OR_REPLACE, s.entity().rowKey(), null,
                    s.entity().properties()));
            pendingBytes += size;
            bytes += size;
            count++;
        }

        void flush() {
            if (pending.isEmpty()) {
                return;
            }
            JobWork.CopyRows work = (JobWork.CopyRows) share.work();
            CommandHeader job = share.next().header();
            outputs.command(EntityCommand.ofJob(new CommandHeader(share.next().jobId(), job.account(), acceptedAtMillis,
                    null, job.principal()), work.targetId(), work.target(), partitionKey, List.copyOf(pending),
                    share.next().jobId()), recordTimestamp);
            pending.clear();
            pendingBytes = 0;
        }

        long bytes() {
            return bytes;
        }

        long count() {
            return count;
        }
    }

    /**
     * A history range's versions, ending early — at the first entity boundary after {@code budget}
     * versions or {@code maxBytes} bytes of them — so that a step examines a bounded number of
     * versions and resumes at an entity.
     */
    private static final class BoundedVersions implements KeyValueIterator<Bytes, byte[]> {
        private final KeyValueIterator<Bytes, byte[]> it;
        private final int budget;
        private final long maxBytes;
        private int read;
        private long bytes;
        private byte[] lastEntity;
        private byte[] resumeAt;

        BoundedVersions(KeyValueIterator<Bytes, byte[]> it, int budget, long maxBytes) {
            this.it = it;
            this.budget = budget;
            this.maxBytes = maxBytes;
        }

        /** The entity key the range resumes at, or null when it was read to its end. */
        byte[] resumeAt() {
            return resumeAt;
        }

        @Override
        public boolean hasNext() {
            if (resumeAt != null || !it.hasNext()) {
                return false;
            }
            if (read >= budget || bytes >= maxBytes) {
                byte[] key = it.peekNextKey().get();
                byte[] entity = Arrays.copyOf(key, key.length - Long.BYTES);
                if (!Arrays.equals(entity, lastEntity)) {
                    resumeAt = entity;
                    return false;
                }
            }
            return true;
        }

        @Override
        public KeyValue<Bytes, byte[]> next() {
            if (!hasNext()) {
                throw new java.util.NoSuchElementException();
            }
            KeyValue<Bytes, byte[]> kv = it.next();
            byte[] key = kv.key.get();
            lastEntity = Arrays.copyOf(key, key.length - Long.BYTES);
            read++;
            bytes += kv.value.length;
            return kv;
        }

        @Override
        public Bytes peekNextKey() {
            if (!hasNext()) {
                throw new java.util.NoSuchElementException();
            }
            return it.peekNextKey();
        }

        @Override
        public void close() {
            it.close();
        }
    }
}
