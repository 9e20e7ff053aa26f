package io.tablestream.ingest.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.javalin.Javalin;
import io.tablestream.core.command.Command;
import io.tablestream.core.command.EntityCommand;
import io.tablestream.core.command.EntityOperation;
import io.tablestream.core.command.Outcome;
import io.tablestream.core.command.SessionToken;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.filter.KeyRange;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.ServiceProperties;
import io.tablestream.core.model.TableName;
import io.tablestream.core.model.TableRecord;
import io.tablestream.core.registry.TableRegistry;
import io.tablestream.ingest.command.CommandLog;
import io.tablestream.protocol.http.Authenticator;
import io.tablestream.protocol.http.Caller;
import io.tablestream.protocol.http.Operation;
import io.tablestream.protocol.http.TableServiceEndpoint;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code $batch} over real HTTP in front of a recording command log (no Kafka): what one change set
 * becomes on the log, and how the processor's answer becomes the multipart response.
 */
class BatchWriteHandlerTest {
    private static final String ACCOUNT = "acct";
    private static final TableRecord ORDERS = TableRecord.active(ACCOUNT, TableName.of("Orders"), 77,
            EdmDateTime.of(Instant.parse("2024-01-01T00:00:00Z")), null);
    private static final EdmDateTime APPLIED_AT = EdmDateTime.of(Instant.parse("2024-02-03T04:05:06.1234567Z"));

    /** Appends to a list and answers each awaited command with {@link #failure} or as applied. */
    private static final class RecordingLog implements CommandLog {
        final List<Command> appended = Collections.synchronizedList(new ArrayList<>());
        volatile Outcome.Failure failure;

        @Override
        public CompletableFuture<SessionToken.Position> append(Command command) {
            appended.add(command);
            return CompletableFuture.completedFuture(new SessionToken.Position(0, appended.size()));
        }

        @Override
        public CompletableFuture<Outcome> appendAndAwait(Command command, Duration timeout) {
            appended.add(command);
            int operations = command instanceof EntityCommand e ? e.operations().size() : 0;
            List<Outcome.OperationResult> results = new ArrayList<>();
            for (int i = 0; i < operations && failure == null; i++) {
                results.add(new Outcome.OperationResult(APPLIED_AT));
            }
            return CompletableFuture.completedFuture(new Outcome(command.header().id(), command.header().replyTo(),
                    failure, results, null, 0, appended.size()));
        }

        @Override
        public String instanceId() {
            return "node-test";
        }
    }

    /** A registry holding the one table {@link #ORDERS}. */
    private static final class OneTable implements TableRegistry {
        @Override
        public Optional<TableRecord> byName(String account, TableName name) {
            return account.equals(ACCOUNT) && ORDERS.name().sameTableAs(name) ? Optional.of(ORDERS) : Optional.empty();
        }

        @Override
        public Optional<TableRecord> byId(long tableId) {
            return tableId == ORDERS.tableId() ? Optional.of(ORDERS) : Optional.empty();
        }

        @Override
        public List<TableRecord> list(String account, String fromNameKey, int limit) {
            return List.of(ORDERS);
        }

        @Override
        public ServiceProperties serviceProperties(String account) {
            throw new UnsupportedOperationException();
        }

        @Override
        public CompletableFuture<Void> awaitChange(BooleanSupplier condition) {
            return CompletableFuture.completedFuture(null);
        }
    }

    private static final Caller ANYONE = new Caller() {
        @Override
        public String principal() {
            return "test";
        }

        @Override
        public void authorize(Operation operation, String table, String partitionKey, String rowKey) {
        }

        @Override
        public KeyRange readableKeys(String table) {
            return KeyRange.ALL;
        }

        @Override
        public boolean mayRead(String table, String partitionKey, String rowKey) {
            return true;
        }
    };

    private final RecordingLog log = new RecordingLog();
    private final HttpClient client = HttpClient.newHttpClient();
    private Javalin app;

    @BeforeEach
    void start() {
        Authenticator anyone = (request, http) -> ANYONE;
        TableServiceEndpoint endpoint = new TableServiceEndpoint(anyone, WriteHandlers.create(log, new OneTable(),
                Clock.systemUTC(), Duration.ofSeconds(5), Duration.ofSeconds(5), Executors.newCachedThreadPool()),
                Clock.systemUTC());
        app = Javalin.create(config -> endpoint.install(config)).start("127.0.0.1", 0);
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
        HttpRequest request = HttpRequest.newBuilder(URI.create(url("$batch")))
                .POST(HttpRequest.BodyPublishers.ofString(b.toString()))
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
        assertThat(command.header().replyTo()).isEqualTo("node-test");
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
}
