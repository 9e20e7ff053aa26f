package io.tablestream.server.robustness;

import static io.tablestream.server.ServiceErrors.assertWellFormedClientError;
import static org.assertj.core.api.Assertions.assertThat;

import io.tablestream.server.RawTableClient;
import io.tablestream.server.TablestreamServerExtension;
import io.tablestream.server.TablestreamServerExtension.RunningServer;
import io.tablestream.testsupport.KafkaExtension;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Good and bad requests at once, and clients that vanish mid-request: every answer well formed, the server unharmed. */
@ExtendWith({KafkaExtension.class, TablestreamServerExtension.class})
class ConcurrentAbuseIT {
    private static RawTableClient client;
    private static String table;

    @BeforeAll
    static void createTable(RunningServer server) {
        client = new RawTableClient(server.port());
        table = "RobustMixed" + System.nanoTime() % 1_000_000;
        server.client().createTable(table);
    }

    @Test
    void answersTwoHundredConcurrentMixedRequestsEachWellFormed() throws Exception {
        List<IntFunction<RawTableClient.Request>> kinds = List.of(
                i -> client.request("POST", table).body("{\"PartitionKey\":\"p\",\"RowKey\":\"r" + i + "\",\"N\":" + i + "}"),
                i -> client.get(table + "()?$filter=" + RawTableClient.encode("N ge 0")),
                i -> client.request("POST", table).body("{\"PartitionKey\":\"p\",\"RowKey\":"),
                i -> client.get(table + "()?$top=1001"),
                i -> client.get(table + "()?$filter=" + RawTableClient.encode("N eq")),
                i -> client.get("Tables").unsigned(),
                i -> client.request("PUT", table + "(PartitionKey='p',RowKey='u" + i + "')").body("{\"N\":1}"),
                i -> client.request("FOO", "Tables"),
                i -> client.get(table + "(PartitionKey='p',RowKey='missing')"),
                i -> client.request("PATCH", table + "(PartitionKey='p',RowKey='m" + i + "')").header("If-Match", "bad")
                        .body("{}"));
        List<CompletableFuture<RawTableClient.Response>> answers = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            answers.add(kinds.get(i % kinds.size()).apply(i).sendAsync());
        }
        CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);

        int good = 0;
        for (int i = 0; i < answers.size(); i++) {
            RawTableClient.Response r = answers.get(i).join();
            assertThat(r.header("x-ms-request-id")).as("request %d: %s", i, r).isNotBlank();
            if (r.status() < 300) {
                good++;
            } else {
                assertWellFormedClientError(r);
            }
        }
        assertThat(good).isEqualTo(60); // inserts, queries and upserts: 3 kinds of 10
        assertThat(client.get(table + "()?$filter=" + RawTableClient.encode("RowKey ge 'r' and RowKey lt 's'"))
                .send().body().split("\"RowKey\"").length - 1).isEqualTo(20);
    }

    @Test
    void survivesClientsThatDisconnectMidBody() {
        for (int i = 0; i < 20; i++) {
            RawTableClient.Request request = client.request("POST", table)
                    .body("{\"PartitionKey\":\"p\",\"RowKey\":\"cut" + i + "\",\"A\":\"" + "z".repeat(50_000) + "\"}");
            byte[] whole = request.toBytes();
            client.abandon(java.util.Arrays.copyOf(whole, whole.length / 2));
        }
        for (int i = 0; i < 5; i++) {
            RawTableClient.Request request = client.request("POST", "$batch")
                    .contentType("multipart/mixed; boundary=b").body("--b\r\n" + "x".repeat(100_000));
            byte[] whole = request.toBytes();
            client.abandon(java.util.Arrays.copyOf(whole, whole.length - 1000));
        }

        RawTableClient.Response insert = client.request("POST", table)
                .body("{\"PartitionKey\":\"p\",\"RowKey\":\"afterCuts\"}").send();

        assertThat(insert.status()).as("%s", insert).isEqualTo(201);
        for (int i = 0; i < 20; i++) {
            assertThat(client.get(table + "(PartitionKey='p',RowKey='cut" + i + "')").send().status()).isEqualTo(404);
        }
    }

    @Test
    void survivesAClientThatSendsAHeadAndVanishes() {
        byte[] head = "POST /devstoreaccount1/Tables HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{"
                .getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < 20; i++) {
            client.abandon(head);
        }

        assertThat(client.get("Tables").send().status()).isEqualTo(200);
    }
}
