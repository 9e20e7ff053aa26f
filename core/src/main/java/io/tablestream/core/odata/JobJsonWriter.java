package io.tablestream.core.odata;

import com.fasterxml.jackson.core.JsonGenerator;
import io.tablestream.core.command.JobSpec;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.command.JobStatus;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * Writes a job's status (a Tablestream extension) as JSON:
 * {@code {"Id":"…","Kind":"Restore|DeleteEntities","Table":"…","State":"Running|Completed|Failed",
 * "Entities":n,"StartedAt":"…","FinishedAt":"…"|null,"Error":{"Code":"…","Message":"…"}|null}},
 * with a restore's {@code "Target"} and {@code "AsOf"} and a deletion's {@code "Filter"} after them;
 * a list as {@code {"value":[…]}}.
 */
public final class JobJsonWriter {
    private JobJsonWriter() {
    }

    /** The job's status as a JSON document. */
    public static byte[] write(JobStatus job) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        try (JsonGenerator g = JsonSupport.generator(out)) {
            writeJob(g, job);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** Jobs, in the order given, as {@code {"value":[…]}}. */
    public static void writeList(OutputStream out, List<JobStatus> jobs) throws IOException {
        try (JsonGenerator g = JsonSupport.generator(out)) {
            g.writeStartObject();
            g.writeArrayFieldStart("value");
            for (JobStatus job : jobs) {
                writeJob(g, job);
            }
            g.writeEndArray();
            g.writeEndObject();
        }
    }

    /** {@code Restore} or {@code DeleteEntities}. */
    public static String kindName(JobSpec.Kind kind) {
        return kind == JobSpec.Kind.RESTORE ? "Restore" : "DeleteEntities";
    }

    private static void writeJob(JsonGenerator g, JobStatus job) throws IOException {
        g.writeStartObject();
        g.writeStringField("Id", job.jobId());
        g.writeStringField("Kind", kindName(job.kind()));
        g.writeStringField("Table", job.table());
        g.writeStringField("State", switch (job.state()) {
            case RUNNING -> "Running";
            case COMPLETED -> "Completed";
            case FAILED -> "Failed";
        });
        g.writeNumberField("Entities", job.entities());
        g.writeStringField("StartedAt", job.startedAt().toIso());
        time(g, "FinishedAt", job.finishedAt());
        if (job.failure() == null) {
            g.writeNullField("Error");
        } else {
            g.writeObjectFieldStart("Error");
            g.writeStringField("Code", job.failure().code().code());
            g.writeStringField("Message", job.failure().message());
            g.writeEndObject();
        }
        if (job.kind() == JobSpec.Kind.RESTORE) {
            g.writeStringField("Target", job.target());
            time(g, "AsOf", job.asOf());
        } else {
            g.writeStringField("Filter", job.filter());
        }
        g.writeEndObject();
    }

    private static void time(JsonGenerator g, String name, EdmDateTime time) throws IOException {
        if (time == null) {
            g.writeNullField(name);
        } else {
            g.writeStringField(name, time.toIso());
        }
    }
}
