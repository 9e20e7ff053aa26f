package io.tablestream.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;

/**
 * Test vocabulary for jobs over raw HTTP (the official SDK cannot send these requests): a restore
 * ({@code POST <table>()/$restore}), a deletion by filter ({@code DELETE <table>()?$filter=}), and
 * a job's status ({@code GET $jobs/<id>}), polled until the job has finished.
 */
public final class JobRequests {
    private final RawTableClient raw;

    public JobRequests(RawTableClient raw) {
        this.raw = raw;
    }

    /** Restores {@code source} into {@code target} as of {@code asOf} (null: as of the request). */
    public RawTableClient.Response restore(String source, String target, String asOf, String... headers) {
        String body = "{\"TableName\":\"" + target + "\"" + (asOf == null ? "" : ",\"AsOf\":\"" + asOf + "\"") + "}";
        return raw.send("POST", source + "()/$restore", body, headers);
    }

    /** Deletes the entities of {@code table} that match {@code filter}; {@code sas} (null: none) is appended. */
    public RawTableClient.Response deleteWhere(String table, String filter, String sas) {
        return raw.send("DELETE", table + "()?" + RawTableClient.query("$filter", filter)
                + (sas == null ? "" : "&" + sas), null);
    }

    public RawTableClient.Response status(String jobId) {
        return raw.read("$jobs/" + jobId);
    }

    /** The job's id, from the answer that accepted it (202, with its Location). */
    public static String jobId(RawTableClient.Response accepted) {
        assertThat(accepted.status()).as(accepted.body()).isEqualTo(202);
        String id = (String) accepted.json().get("Id");
        assertThat(accepted.header("Location")).endsWith("/" + RawTableClient.ACCOUNT + "/$jobs/" + id);
        return id;
    }

    /** Polls the job's status until it is no longer Running (within {@code timeout}); returns it. */
    public Map<String, Object> awaitFinished(String jobId, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            RawTableClient.Response r;
            try {
                r = status(jobId);
            } catch (RuntimeException e) {
                r = null; // the instance is down or restarting: ask again
            }
            if (r != null && r.status() == 200 && !"Running".equals(r.json().get("State"))) {
                return r.json();
            }
            assertThat(System.nanoTime()).as("job %s finished within %s: %s", jobId, timeout, r).isLessThan(deadline);
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }
}
