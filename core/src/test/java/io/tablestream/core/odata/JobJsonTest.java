package io.tablestream.core.odata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablestream.core.command.JobSpec;
import io.tablestream.core.command.JobStatus;
import io.tablestream.core.command.Outcome;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.TableName;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A restore's request body, and a job's status as JSON (extensions). */
class JobJsonTest {
    private static final EdmDateTime AT = EdmDateTime.parse("2026-11-27T10:00:00.1234567Z").orElseThrow();

    private static RestoreTableBody restore(String json) {
        return ODataJsonReader.readRestore(json.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void readsARestoreBody() {
        assertThat(restore("{\"TableName\":\"Copy\",\"AsOf\":\"2026-11-26T12:00:00Z\",\"Other\":[1]}"))
                .isEqualTo(new RestoreTableBody("Copy", "2026-11-26T12:00:00Z"));
        assertThat(restore("{\"TableName\":\"Copy\"}")).isEqualTo(new RestoreTableBody("Copy", null));
        assertThat(restore("{\"AsOf\":null}")).isEqualTo(new RestoreTableBody(null, null));
        for (String bad : List.of("{\"TableName\":1}", "{\"TableName\":\"a\",\"TableName\":\"b\"}", "[]", "",
                "{\"TableName\":\"a\"", "{\"AsOf\":{}}")) {
            assertThatThrownBy(() -> restore(bad)).as(bad).isInstanceOf(TableServiceException.class);
        }
    }

    @Test
    void writesAJobsStatusWithItsKindsMembers() throws IOException {
        JobStatus restore = JobStatus.running("j1", "acct", new JobSpec.Restore(7, TableName.of("Orders"),
                TableName.of("OrdersThen"), AT), "SharedKey acct key1", AT, 2).counting(12);
        assertThat(new String(JobJsonWriter.write(restore), StandardCharsets.UTF_8)).isEqualTo("{\"Id\":\"j1\","
                + "\"Kind\":\"Restore\",\"Table\":\"Orders\",\"State\":\"Running\",\"Entities\":12,"
                + "\"StartedAt\":\"2026-11-27T10:00:00.1234567Z\",\"FinishedAt\":null,\"Error\":null,"
                + "\"Target\":\"OrdersThen\",\"AsOf\":\"2026-11-27T10:00:00.1234567Z\"}");
        JobStatus failed = JobStatus.running("j2", "acct", new JobSpec.DeleteEntities(7, TableName.of("Orders"),
                "N lt 5"), null, AT, 2).failing(new Outcome.Failure(ErrorCode.TABLE_NOT_FOUND, "gone", null))
                .finishedAt(AT.plusTicks(10_000_000));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        JobJsonWriter.writeList(out, List.of(failed));
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("{\"value\":[{\"Id\":\"j2\","
                + "\"Kind\":\"DeleteEntities\",\"Table\":\"Orders\",\"State\":\"Failed\",\"Entities\":0,"
                + "\"StartedAt\":\"2026-11-27T10:00:00.1234567Z\",\"FinishedAt\":\"2026-11-27T10:00:01.1234567Z\","
                + "\"Error\":{\"Code\":\"TableNotFound\",\"Message\":\"gone\"},\"Filter\":\"N lt 5\"}]}");
    }
}
