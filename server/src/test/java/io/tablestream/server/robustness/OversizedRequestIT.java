package io.tablestream.server.robustness;

import static io.tablestream.server.ServiceErrors.assertServiceError;
import static org.assertj.core.api.Assertions.assertThat;

import io.tablestream.server.RawTableClient;
import io.tablestream.core.rules.Limits;
import io.tablestream.server.TablestreamServerExtension;
import io.tablestream.server.TablestreamServerExtension.RunningServer;
import io.tablestream.testsupport.KafkaExtension;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Bodies over the service's 4 MiB limit and request heads beyond any sane size: a 4xx, and the server stays up. */
@ExtendWith({KafkaExtension.class, TablestreamServerExtension.class})
class OversizedRequestIT {
    private static final int MAX_REQUEST_BYTES = Limits.MAX_REQUEST_BODY_BYTES;

    private static RawTableClient client;
    private static String table;

    @BeforeAll
    static void createTable(RunningServer server) {
        client = new RawTableClient(server.port());
        table = "RobustSize" + System.nanoTime() % 1_000_000;
        server.client().createTable(table);
    }

    @Test
    void rejectsAnInsertOverMaxRequestBytes() {
        RawTableClient.Response r = client.request("POST", table).body(entityOfBytes("big", MAX_REQUEST_BYTES + 1024))
                .send();

        assertServiceError(r, 413, "RequestBodyTooLarge");
        assertServerStillServes("after-big");
    }

    @Test
    void rejectsAChunkedBodyOverMaxRequestBytes() {
        byte[] body = entityOfBytes("chunked", MAX_REQUEST_BYTES + 64 * 1024);
        RawTableClient.Request request = client.request("POST", table);
        StringBuilder head = new StringBuilder("POST " + request.rawPath() + " HTTP/1.1\r\nHost: 127.0.0.1\r\n");
        for (String[] h : request.allHeaders()) {
            head.append(h[0]).append(": ").append(h[1]).append("\r\n");
        }
        head.append("Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n");
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        wire.writeBytes(head.toString().getBytes(StandardCharsets.US_ASCII));
        for (int off = 0; off < body.length; off += 8192) {
            int n = Math.min(8192, body.length - off);
            wire.writeBytes((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.US_ASCII));
            wire.write(body, off, n);
            wire.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
        }
        wire.writeBytes("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));

        assertServiceError(client.exchange(wire.toByteArray()), 413, "RequestBodyTooLarge");
        assertServerStillServes("after-chunked");
    }

    @Test
    void rejectsABatchOverMaxRequestBytes() {
        RawTableClient.Response r = client.request("POST", "$batch").contentType("multipart/mixed; boundary=b")
                .body(new byte[MAX_REQUEST_BYTES + 1]).send();

        assertServiceError(r, 413, "RequestBodyTooLarge");
    }

    @Test
    void rejectsABatchOverFourMebibytes() {
        byte[] body = new byte[4 * 1024 * 1024 + 16];
        java.util.Arrays.fill(body, (byte) 'x');

        RawTableClient.Response r = client.request("POST", "$batch").contentType("multipart/mixed; boundary=b")
                .body(body).send();

        assertServiceError(r, 413, "RequestBodyTooLarge");
    }

    @Test
    void rejectsAnEntityOverOneMebibyteButUnderTheRequestLimit() {
        StringBuilder json = new StringBuilder("{\"PartitionKey\":\"p\",\"RowKey\":\"wide\"");
        for (int i = 0; i < 40; i++) {
            json.append(",\"P").append(i).append("\":\"").append("y".repeat(30_000)).append('"');
        }
        RawTableClient.Response r = client.request("POST", table).body(json.append('}').toString()).send();

        assertServiceError(r, 400, "EntityTooLarge");
    }

    @Test
    void rejectsARequestHeadOfAMegabyte() {
        RawTableClient.Response r = client.get(table + "()?$filter=" + "x".repeat(1024 * 1024)).sendOverSocket();

        assertThat(r.status()).as("%s", r).isBetween(400, 499);
        assertThat(r.header("x-ms-error-code")).isNotBlank();
        assertThat(r.header("x-ms-request-id")).isNotBlank();
        assertServerStillServes("after-long-url");
    }

    @Test
    void rejectsAHugeHeader() {
        RawTableClient.Response r = client.get("Tables").header("x-ms-client-request-id", "c".repeat(512 * 1024))
                .sendOverSocket();

        assertThat(r.status()).as("%s", r).isBetween(400, 499);
        assertThat(r.header("x-ms-error-code")).isNotBlank();
        assertThat(r.header("x-ms-request-id")).isNotBlank();
        assertServerStillServes("after-huge-header");
    }

    private static byte[] entityOfBytes(String rowKey, int size) {
        String prefix = "{\"PartitionKey\":\"p\",\"RowKey\":\"" + rowKey + "\",\"A\":\"";
        byte[] body = new byte[size];
        java.util.Arrays.fill(body, (byte) 'x');
        byte[] p = prefix.getBytes(StandardCharsets.UTF_8);
        System.arraycopy(p, 0, body, 0, p.length);
        body[size - 2] = '"';
        body[size - 1] = '}';
        return body;
    }

    private static void assertServerStillServes(String rowKey) {
        RawTableClient.Response insert = client.request("POST", table)
                .body("{\"PartitionKey\":\"p\",\"RowKey\":\"" + rowKey + "\"}").send();
        assertThat(insert.status()).as("%s", insert).isEqualTo(201);
        assertThat(client.get(table + "(PartitionKey='p',RowKey='" + rowKey + "')").send().status()).isEqualTo(200);
    }
}
