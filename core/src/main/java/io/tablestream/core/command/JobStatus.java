package io.tablestream.core.command;

import io.tablestream.core.model.EdmDateTime;
import java.util.Arrays;
import java.util.Objects;

/**
 * Where a job stands, as its coordinator task keeps it: what it does, how many entities it has
 * processed, and, per partition of the command log, whether that partition's share is done (and,
 * for a restore, whether every write it sent there is applied: the fence).
 *
 * @param tableId the id of the table the job works on
 * @param table the table the job works on (a restore's source)
 * @param target a restore's new table; null for other kinds
 * @param targetTableId a restore's new table's id once created; 0 before
 * @param asOf a restore's point in time (null: as of its acceptance)
 * @param filter a deletion's {@code $filter}; null for other kinds
 * @param principal who submitted it
 * @param entities entities processed so far (copied, deleted)
 * @param startedAt when it was accepted
 * @param finishedAt when it completed or failed; null while it runs
 * @param failure why it failed; null unless {@link State#FAILED}
 * @param done per partition, whether its share is done
 * @param fenced per partition, whether its fence was reached (a restore's writes there are applied)
 */
public record JobStatus(String jobId, String account, JobSpec.Kind kind, long tableId, String table, String target, long targetTableId,
                        EdmDateTime asOf, String filter, String principal, State state, long entities,
                        EdmDateTime startedAt, EdmDateTime finishedAt, Outcome.Failure failure, boolean[] done,
                        boolean[] fenced) {
    public enum State { RUNNING, COMPLETED, FAILED }

    public JobStatus {
        Objects.requireNonNull(jobId, "jobId");
        Objects.requireNonNull(account, "account");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(startedAt, "startedAt");
        done = done.clone();
        fenced = fenced.clone();
        if (done.length != fenced.length) {
            throw new IllegalArgumentException("one done and one fenced flag per partition");
        }
    }

    /** A job just accepted, over {@code partitions} partitions, none of them done. */
    public static JobStatus running(String jobId, String account, JobSpec spec, String principal, EdmDateTime startedAt,
                                    int partitions) {
        String target = spec instanceof JobSpec.Restore r ? r.target().value() : null;
        EdmDateTime asOf = spec instanceof JobSpec.Restore r ? r.asOf() : null;
        String filter = spec instanceof JobSpec.DeleteEntities d ? d.filter() : null;
        return new JobStatus(jobId, account, spec.kind(), spec.tableId(), spec.table().value(), target, 0, asOf, filter,
                principal, State.RUNNING, 0, startedAt, null, null, new boolean[partitions], new boolean[partitions]);
    }

    public boolean finished() {
        return state != State.RUNNING;
    }

    public int partitions() {
        return done.length;
    }

    @Override
    public boolean[] done() {
        return done.clone();
    }

    @Override
    public boolean[] fenced() {
        return fenced.clone();
    }

    public boolean allDone() {
        return all(done);
    }

    public boolean allFenced() {
        return all(fenced);
    }

    /** This status with the target table's id (a restore's target was created). */
    public JobStatus withTarget(long targetId) {
        return new JobStatus(jobId, account, kind, tableId, table, target, targetId, asOf, filter, principal, state,
                entities, startedAt, finishedAt, failure, done, fenced);
    }

    /** This status with {@code more} entities processed. */
    public JobStatus counting(long more) {
        return new JobStatus(jobId, account, kind, tableId, table, target, targetTableId, asOf, filter, principal, state,
                entities + more, startedAt, finishedAt, failure, done, fenced);
    }

    /** This status with partition {@code partition}'s share done. */
    public JobStatus partitionDone(int partition) {
        boolean[] d = done.clone();
        d[partition] = true;
        return new JobStatus(jobId, account, kind, tableId, table, target, targetTableId, asOf, filter, principal, state,
                entities, startedAt, finishedAt, failure, d, fenced);
    }

    /** This status with partition {@code partition}'s fence reached. */
    public JobStatus partitionFenced(int partition) {
        boolean[] f = fenced.clone();
        f[partition] = true;
        return new JobStatus(jobId, account, kind, tableId, table, target, targetTableId, asOf, filter, principal, state,
                entities, startedAt, finishedAt, failure, done, f);
    }

    /** This status with {@code first} as its failure, unless it has one already (the first one is kept). */
    public JobStatus failing(Outcome.Failure first) {
        return failure != null ? this : new JobStatus(jobId, account, kind, tableId, table, target, targetTableId, asOf,
                filter, principal, state, entities, startedAt, finishedAt, first, done, fenced);
    }

    /** This job finished at {@code at}: FAILED when it has a failure, else COMPLETED. */
    public JobStatus finishedAt(EdmDateTime at) {
        return new JobStatus(jobId, account, kind, tableId, table, target, targetTableId, asOf, filter, principal,
                failure == null ? State.COMPLETED : State.FAILED, entities, startedAt, at, failure, done, fenced);
    }

    private static boolean all(boolean[] flags) {
        for (boolean f : flags) {
            if (!f) {
                return false;
            }
        }
        return true;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof JobStatus s && jobId.equals(s.jobId) && account.equals(s.account) && kind == s.kind
                && tableId == s.tableId && table.equals(s.table) && Objects.equals(target, s.target) && targetTableId == s.targetTableId
                && Objects.equals(asOf, s.asOf) && Objects.equals(filter, s.filter)
                && Objects.equals(principal, s.principal) && state == s.state && entities == s.entities
                && startedAt.equals(s.startedAt) && Objects.equals(finishedAt, s.finishedAt)
                && Objects.equals(failure, s.failure) && Arrays.equals(done, s.done) && Arrays.equals(fenced, s.fenced);
    }

    @Override
    public int hashCode() {
        return Objects.hash(jobId, account, state, entities, Arrays.hashCode(done), Arrays.hashCode(fenced));
    }

    @Override
    public String toString() {
        return "JobStatus[" + jobId + " " + kind + " " + table + " " + state + " entities=" + entities + "]";
    }
}
