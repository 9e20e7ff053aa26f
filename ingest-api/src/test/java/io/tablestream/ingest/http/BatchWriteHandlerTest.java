package io.tablestream.ingest.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.javalin.Javalin;
import io.tablestream.core.command.EntityCommand;
import io.tablestream.core.command.EntityOperation;
import io.tablestream.core.command.Outcome;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.protocol.http.Authenticator;
import io.tablestream.protocol.http.TableServiceEndpoint;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code $batch} over real HTTP in front of a recording command log (no Kafka): what one change set
 * becomes on the log, and how the processor's answer becomes the multipart response.
 */
class BatchWriteHandlerTest {
    private static final String ACCOUNT = WriteFixtures.ACCOUNT;

    private final WriteFixtures.RecordingLog log = new WriteFixtures.RecordingLog();
    private final HttpClient client = HttpClient.newHttpClient();
    private Javalin app;

    @BeforeEach
    void start() {
        Authenticator anyone = (request, http) -> new WriteFixtures.RecordingCaller();
        TableServiceEndpoint endpoint = new TableServiceEndpoint(anyone, WriteHandlers.create(log,
                new WriteFixtures.Tables(WriteFixtures.ORDERS), Clock.systemUTC(), Duration.ofSeconds(5),
                Duration.ofSeconds(5), Executors.newCachedThreadPool()), Clock.systemUTC());
        app = Javalin.create(config -> {
            config.http.maxRequestSize = 8L * 1024 * 1024; // the batch's own 4 MiB limit answers first
            endpoint.install(config);
        }).start("127.0.0.1", 0);
    }

    @AfterEach
    void stop() {
        app.stop();
    }

    private String url(String path) {
        return "http://127.0.0.1:" + app.port() + "/" + ACCOUNT + "/" + path;
    }

    /** A change set of operations, each {method, path below the account, JSON body or null}. */
    private HttpResponse<String> batch(String[]... operations) throws Exception {
        return post(changeSet(operations));
    }

    private String changeSet(String[]... operations) {
        StringBuilder b = new StringBuilder("--batch_1\r\nContent-Type: multipart/mixed; boundary=changeset_1\r\n\r\n");
        for (String[] op : operations) {
            b.append("--changeset_1\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n")
                    .append(op[0]).append(' ').append(url(op[1])).append(" HTTP/1.1\r\n")
                    .append("Accept: application/json;odata=minimalmetadata\r\n");
            if (op[0].equals("DELETE") || op[0].equals("MERGE") && op.length > 3) {
                b.append("If-Match: *\r\n");
            }
            if (op[2] != null) {
                b.append("Content-Type: application/json\r\nPrefer: return-no-content\r\n\r\n").append(op[2]).append("\r\n");
            } else {
                b.append("\r\n");
            }
        }
        b.append("--changeset_1--\r\n--batch_1--\r\n");
        return b.toString();
    }

    private HttpResponse<String> post(String body) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(url("$batch")))
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "multipart/mixed; boundary=batch_1")
                .header("x-ms-version", "2019-02-02").build();
        return client.send(request, HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aChangeSetBecomesOneCommandHoldingEveryOperationInOrder() throws Exception {
        HttpResponse<String> r = batch(
                new String[] {"POST", "Orders", "{\"PartitionKey\":\"p\",\"RowKey\":\"a\",\"N\":1}"},
                new String[] {"PUT", "Orders(PartitionKey='p',RowKey='b')", "{\"N\":2}"},
                new String[] {"DELETE", "Orders(PartitionKey='p',RowKey='c')", null});

        assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
        assertThat(log.appended).hasSize(1);
        EntityCommand command = (EntityCommand) log.appended.get(0);
        assertThat(command.batch()).isTrue();
        assertThat(command.tableId()).isEqualTo(77);
        assertThat(command.partitionKey()).isEqualTo("p");
        assertThat(command.operations()).extracting(EntityOperation::type).containsExactly(
                EntityOperation.Type.INSERT, EntityOperation.Type.INSERT_OR_REPLACE, EntityOperation.Type.DELETE);
        assertThat(command.operations()).extracting(EntityOperation::rowKey).containsExactly("a", "b", "c");
        assertThat(command.header().replyTo()).isEqualTo(WriteFixtures.INSTANCE);
        assertThat(r.body()).contains("HTTP/1.1 204").doesNotContain("HTTP/1.1 4");
        assertThat(r.body().split("HTTP/1.1 204", -1)).hasSize(4);
    }

    @Test
    void aRejectedOperationIsAnsweredAloneNamingItsIndex() throws Exception {
        log.failure = new Outcome.Failure(ErrorCode.ENTITY_ALREADY_EXISTS, "The specified entity already exists.", 1);

        HttpResponse<String> r = batch(
                new String[] {"POST", "Orders", "{\"PartitionKey\":\"p\",\"RowKey\":\"a\"}"},
                new String[] {"POST", "Orders", "{\"PartitionKey\":\"p\",\"RowKey\":\"b\"}"});

        assertThat(r.statusCode()).isEqualTo(202);
        assertThat(r.body()).contains("HTTP/1.1 409").contains("EntityAlreadyExists").contains("1:")
                .doesNotContain("HTTP/1.1 204");
    }

    @Test
    void aChangeSetOverTwoPartitionKeysIsRefusedBeforeAnythingIsAppended() throws Exception {
        HttpResponse<String> r = batch(
                new String[] {"POST", "Orders", "{\"PartitionKey\":\"p\",\"RowKey\":\"a\"}"},
                new String[] {"POST", "Orders", "{\"PartitionKey\":\"q\",\"RowKey\":\"b\"}"});

        assertThat(r.body()).contains("CommandsInBatchActOnDifferentPartitions");
        assertThat(log.appended).isEmpty();
    }

    @Test
    void anOperationOnAnotherAccountIsRefusedBeforeAnythingIsAppended() throws Exception {
        String other = "http://127.0.0.1:" + app.port() + "/otheracct/Orders";
        HttpResponse<String> r = batch(
                new String[] {"POST", "Orders", "{\"PartitionKey\":\"p\",\"RowKey\":\"a\"}"},
                new String[] {"POST", "../otheracct/Orders", "{\"PartitionKey\":\"p\",\"RowKey\":\"b\"}"});

        assertThat(r.statusCode()).isBetween(202, 400);
        assertThat(r.body()).containsAnyOf("another account", "InvalidInput", "InvalidUri");
        assertThat(log.appended).as("nothing appended for %s", other).isEmpty();
    }

    @Test
    void anOperationOnATableThatDoesNotExistIsRefusedBeforeAnythingIsAppended() throws Exception {
        HttpResponse<String> r = batch(new String[] {"POST", "Missing", "{\"PartitionKey\":\"p\",\"RowKey\":\"a\"}"});

        assertThat(r.body()).contains("TableNotFound");
        assertThat(log.appended).isEmpty();
    }

    @Test
    void aFailedOperationsMessageStartsWithItsIndexAndItsResponseEchoesItsContentId() throws Exception {
        log.failure = new Outcome.Failure(ErrorCode.ENTITY_ALREADY_EXISTS, "The specified entity already exists.", 1);
        String body = changeSet(
                new String[] {"POST", "Orders", "{\"PartitionKey\":\"p\",\"RowKey\":\"a\"}"},
                new String[] {"POST", "Orders", "{\"PartitionKey\":\"p\",\"RowKey\":\"b\"}"})
                .replace("Content-Transfer-Encoding: binary\r\n\r\nPOST", "Content-Transfer-Encoding: binary\r\n"
                        + "Content-ID: 7\r\n\r\nPOST");

        HttpResponse<String> r = post(body);

        assertThat(r.statusCode()).isEqualTo(202);
        assertThat(r.body()).contains("HTTP/1.1 409 Conflict").contains("Content-ID: 7")
                .contains("\"value\":\"1:The specified entity already exists.");
    }

    @Test
    void anEntityTwiceInAChangeSetIsRefusedAtItsSecondOperation() throws Exception {
        HttpResponse<String> r = batch(
                new String[] {"POST", "Orders", "{\"PartitionKey\":\"p\",\"RowKey\":\"a\"}"},
                new String[] {"DELETE", "Orders(PartitionKey='p',RowKey='a')", null});

        assertThat(r.statusCode()).isEqualTo(202);
        assertThat(r.body()).contains("HTTP/1.1 400").contains("InvalidDuplicateRow").contains("\"value\":\"1:");
        assertThat(log.appended).isEmpty();
    }

    @Test
    void aChangeSetOfMoreThanAHundredOperationsIsRefusedAtOperationZero() throws Exception {
        String[][] operations = new String[101][];
        for (int i = 0; i < operations.length; i++) {
            operations[i] = new String[] {"POST", "Orders", "{\"PartitionKey\":\"p\",\"RowKey\":\"r" + i + "\"}"};
        }

        HttpResponse<String> r = batch(operations);

        assertThat(r.statusCode()).isEqualTo(202);
        assertThat(r.body()).contains("HTTP/1.1 400")
                .contains("\"value\":\"0:The batch request operation exceeds the maximum 100 changes per change set.");
        assertThat(log.appended).isEmpty();
        assertThat(batch(Arrays.copyOf(operations, 100)).body()).doesNotContain("HTTP/1.1 4");
        assertThat(log.appended).hasSize(1);
    }

    @Test
    void aBatchOverFourMebibytesIsRefusedWholeAsTooLarge() throws Exception {
        String big = "x".repeat(60_000);
        String[][] operations = new String[70][];
        for (int i = 0; i < operations.length; i++) {
            operations[i] = new String[] {"POST", "Orders",
                    "{\"PartitionKey\":\"p\",\"RowKey\":\"r" + i + "\",\"S\":\"" + big + "\"}"};
        }
        String body = changeSet(operations);
        assertThat(body.length()).isGreaterThan(4 * 1024 * 1024);

        HttpResponse<String> r = post(body);

        assertThat(r.statusCode()).isEqualTo(413);
        assertThat(r.headers().firstValue("x-ms-error-code")).hasValue("RequestBodyTooLarge");
        assertThat(log.appended).isEmpty();
    }
}
