package io.tablestream.query.http;

import io.javalin.http.Context;
import io.tablestream.core.command.CommandKey;
import io.tablestream.core.command.JobStatus;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.odata.JobJsonWriter;
import io.tablestream.processor.store.EntityStore;
import io.tablestream.protocol.http.RequestContext;
import io.tablestream.protocol.request.Operation;
import io.tablestream.protocol.request.ResourcePath;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Get Job and List Jobs (extensions): a job's status and the account's jobs, from the account's
 * partition (where its jobs are coordinated), routed like a point read ({@link PartitionReads}).
 */
record JobStatusHandler(EntityStore store, PartitionReads reads) {
    /**
     * A job's status, from its coordinator's partition (the account's), routed like a point read;
     * authorized once read, against the job's table (a service SAS for that table may read it).
     */
    void get(RequestContext request, Context http) {
        String id = ((ResourcePath.JobItem) request.resource()).jobId();
        reads.readOnePartition(request, http, CommandKey.forAccount(request.account()),
                (replica, partition) -> store.job(replica, partition, request.account(), id), found -> {
                    JobStatus job = found.orElseThrow(() -> TableServiceException.of(ErrorCode.JOB_NOT_FOUND));
                    request.caller().authorize(Operation.GET_JOB, job.table(), null, null);
                    return JobJsonWriter.write(job);
                });
    }

    /** The account's jobs, newest first: the running ones and the recently finished. */
    void list(RequestContext request, Context http) {
        request.caller().authorize(Operation.LIST_JOBS, null, null, null);
        reads.readOnePartition(request, http, CommandKey.forAccount(request.account()),
                (replica, partition) -> store.jobs(replica, partition, request.account()), jobs -> {
                    List<JobStatus> newest = new ArrayList<>(jobs);
                    newest.sort(Comparator.comparing((JobStatus j) -> j.startedAt()).reversed()
                            .thenComparing(JobStatus::jobId));
                    return ResponseBodies.write(out -> JobJsonWriter.writeList(out, newest));
                });
    }
}
