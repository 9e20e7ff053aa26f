package io.tablestream.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablestream.client.LeanTableClient.Answer;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LeanTableClientTest {

    @Test
    void readsTheStatusAndETagOfEveryOperationOfABatchAnswer() {
        String body = String.join("\r\n",
                "--batchresponse_1",
                "Content-Type: multipart/mixed; boundary=changesetresponse_2",
                "",
                "--changesetresponse_2",
                "Content-Type: application/http",
                "Content-Transfer-Encoding: binary",
                "",
                "HTTP/1.1 204 No Content",
                "X-Content-Type-Options: nosniff",
                "ETag: W/\"datetime'2024-05-01T12%3A00%3A00.0000001Z'\"",
                "",
                "",
                "--changesetresponse_2",
                "Content-Type: application/http",
                "Content-Transfer-Encoding: binary",
                "",
                "HTTP/1.1 201 Created",
                "etag: W/\"datetime'2024-05-01T12%3A00%3A00.0000002Z'\"",
                "Content-Type: application/json;odata=nometadata",
                "",
                "{\"PartitionKey\":\"p\"}",
                "--changesetresponse_2--",
                "--batchresponse_1--");

        assertThat(LeanTableClient.parts(body)).containsExactly(
                new Answer(204, "W/\"datetime'2024-05-01T12%3A00%3A00.0000001Z'\"", null),
                new Answer(201, "W/\"datetime'2024-05-01T12%3A00%3A00.0000002Z'\"", null));
    }

    @Test
    void aFailedChangeSetIsOneOperationWithoutETag() {
        String body = "--b\r\nContent-Type: application/http\r\n\r\nHTTP/1.1 409 Conflict\r\nContent-Type: application/json\r\n\r\n"
                + "{\"odata.error\":{\"code\":\"EntityAlreadyExists\"}}\r\n--b--";

        assertThat(LeanTableClient.parts(body)).containsExactly(new Answer(409, null, null));
    }

    @Test
    void writesEntitiesWithTheTypeAnnotationsTheirValuesNeed() {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("S", "a \"quoted\" \\ line\n");
        p.put("I", 7);
        p.put("L", 1L << 40);
        p.put("D", 0.125);
        p.put("B", true);
        p.put("T", OffsetDateTime.of(2024, 5, 1, 12, 0, 0, 0, ZoneOffset.UTC));

        assertThat(LeanTableClient.entityJson("p'k", "r", p)).isEqualTo("{\"PartitionKey\":\"p'k\",\"RowKey\":\"r\","
                + "\"S\":\"a \\\"quoted\\\" \\\\ line\\u000a\",\"I\":7,\"L@odata.type\":\"Edm.Int64\",\"L\":\"1099511627776\","
                + "\"D\":0.125,\"B\":true,\"T@odata.type\":\"Edm.DateTime\",\"T\":\"2024-05-01T12:00:00Z\"}");
        assertThat(LeanTableClient.entityPath("T", "p'k", "a b")).isEqualTo("/T(PartitionKey='p%27%27k',RowKey='a%20b')");
    }
}
