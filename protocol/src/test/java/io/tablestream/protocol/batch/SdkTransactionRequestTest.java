package io.tablestream.protocol.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionType;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Golden parser tests on the bodies the official Java SDK (azure-data-tables 12.5.9) really sends:
 * each transaction is submitted over HTTP to a {@link BatchEndpoint}, recorded, and parsed.
 */
class SdkTransactionRequestTest {
    private static final String PK = "pk 'q' é";
    private static final String PK_IN_URL = "pk%20''q''%20%C3%A9";
    private static final String ETAG = "W/\"datetime'2024-05-01T12%3A00%3A00.1234567Z'\"";
    private static final String ACCEPT = "Accept: application/json;odata=minimalmetadata";
    private static final String VERSION = "DataServiceVersion: 3.0";

    private BatchEndpoint endpoint;
    private TableClient client;

    @BeforeEach
    void start() throws Exception {
        endpoint = new BatchEndpoint();
        client = endpoint.client("mytable");
    }

    @AfterEach
    void stop() {
        endpoint.close();
    }

    @Test
    void readsEveryActionTypeWithAndWithoutETagsAsTheSdkWritesThem() {
        BatchRequest batch = submit(
                action(TableTransactionActionType.CREATE, new TableEntity(PK, "r0").addProperty("n", 1), false),
                action(TableTransactionActionType.UPSERT_MERGE, new TableEntity(PK, "r1 ü 'x'"), false),
                action(TableTransactionActionType.UPSERT_REPLACE, new TableEntity(PK, "r2😀"), false),
                action(TableTransactionActionType.UPDATE_MERGE, new TableEntity(PK, "r3"), false),
                action(TableTransactionActionType.UPDATE_MERGE, withETag(new TableEntity(PK, "r4")), true),
                action(TableTransactionActionType.UPDATE_REPLACE, new TableEntity(PK, "r5"), false),
                action(TableTransactionActionType.UPDATE_REPLACE, withETag(new TableEntity(PK, "r6")), true),
                action(TableTransactionActionType.DELETE, new TableEntity(PK, "r7"), false),
                action(TableTransactionActionType.DELETE, withETag(new TableEntity(PK, "r8")), true));

        assertThat(batch.kind()).isEqualTo(BatchRequest.Kind.CHANGE_SET);
        List<BatchOperation> ops = batch.operations();
        assertThat(ops).hasSize(9);
        String table = endpoint.endpoint() + "/mytable";
        String etagBody = ",\"odata.etag\":\"W/\\\"datetime'2024-05-01T12%3A00%3A00.1234567Z'\\\"\"}";

        assertOperation(ops.get(0), 0, BatchOperation.Method.POST, table,
                List.of("Content-Length: 48", "Prefer: return-no-content",
                        "Content-Type: application/json;odata=nometadata", VERSION, ACCEPT),
                "{\"RowKey\":\"r0\",\"PartitionKey\":\"pk 'q' é\",\"n\":1}");
        assertOperation(ops.get(1), 1, BatchOperation.Method.MERGE,
                table + "(PartitionKey='" + PK_IN_URL + "',RowKey='r1%20%C3%BC%20''x''')",
                List.of("Content-Length: 49", "Content-Type: application/json", VERSION, ACCEPT),
                "{\"RowKey\":\"r1 ü 'x'\",\"PartitionKey\":\"pk 'q' é\"}");
        assertOperation(ops.get(2), 2, BatchOperation.Method.PUT,
                table + "(PartitionKey='" + PK_IN_URL + "',RowKey='r2%F0%9F%98%80')",
                List.of("Content-Length: 54", "Content-Type: application/json", VERSION, ACCEPT),
                "{\"RowKey\":\"r2\\uD83D\\uDE00\",\"PartitionKey\":\"pk 'q' é\"}");
        assertOperation(ops.get(3), 3, BatchOperation.Method.MERGE, entityUrl(table, "r3"),
                List.of("Content-Length: 42", "Content-Type: application/json", "If-Match: *", VERSION, ACCEPT),
                "{\"RowKey\":\"r3\",\"PartitionKey\":\"pk 'q' é\"}");
        assertOperation(ops.get(4), 4, BatchOperation.Method.MERGE, entityUrl(table, "r4"),
                List.of("Content-Length: 106", "Content-Type: application/json", "If-Match: " + ETAG, VERSION, ACCEPT),
                "{\"RowKey\":\"r4\",\"PartitionKey\":\"pk 'q' é\"" + etagBody);
        assertOperation(ops.get(5), 5, BatchOperation.Method.PUT, entityUrl(table, "r5"),
                List.of("Content-Length: 42", "Content-Type: application/json", "If-Match: *", VERSION, ACCEPT),
                "{\"RowKey\":\"r5\",\"PartitionKey\":\"pk 'q' é\"}");
        assertOperation(ops.get(6), 6, BatchOperation.Method.PUT, entityUrl(table, "r6"),
                List.of("Content-Length: 106", "Content-Type: application/json", "If-Match: " + ETAG, VERSION, ACCEPT),
                "{\"RowKey\":\"r6\",\"PartitionKey\":\"pk 'q' é\"" + etagBody);
        assertOperation(ops.get(7), 7, BatchOperation.Method.DELETE, entityUrl(table, "r7"),
                List.of("Content-Length: 0", "If-Match: *", VERSION, ACCEPT), "");
        assertOperation(ops.get(8), 8, BatchOperation.Method.DELETE, entityUrl(table, "r8"),
                List.of("Content-Length: 0", "If-Match: " + ETAG, VERSION, ACCEPT), "");
    }

    @Test
    void sdkBodyHasTheShapeTheParserIsWrittenFor() {
        submit(action(TableTransactionActionType.DELETE, new TableEntity(PK, "r"), false));
        BatchEndpoint.Received received = endpoint.last();

        assertThat(received.contentType()).matches("multipart/mixed; boundary=batch_[0-9a-f-]{36}");
        assertThat(received.text())
                .startsWith("--batch_")
                .contains("\r\nContent-Type: multipart/mixed; boundary=changeset_")
                .contains("\r\n--changeset_", "--\r\n\r\n--batch_")
                .endsWith("--\r\n")
                .doesNotContain("Content-ID");
    }

    @Test
    void readsEmptyAndAwkwardPropertyValuesByteForByte() {
        TableEntity entity = new TableEntity("", "")
                .addProperty("text", "line1\r\n--changeset_fake\r\nline3")
                .addProperty("bytes", new byte[] {0, (byte) 0xFF, '\r', '\n'});
        BatchRequest batch = submit(action(TableTransactionActionType.UPSERT_REPLACE, entity, false));

        BatchOperation op = batch.operations().get(0);
        assertThat(op.url()).endsWith("/mytable(PartitionKey='',RowKey='')");
        String body = new String(op.body(), StandardCharsets.UTF_8);
        assertThat(body).contains("\"text\":\"line1\\r\\n--changeset_fake\\r\\nline3\"");
        assertThat(op.bodyLength()).isEqualTo(Integer.parseInt(op.headers().first("Content-Length").orElseThrow()));
    }

    @Test
    void readsTheLargestChangeSetTheServiceAllows() {
        List<TableTransactionAction> actions = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            actions.add(action(TableTransactionActionType.CREATE, new TableEntity(PK, "row" + i), false));
        }
        BatchRequest batch = submit(actions.toArray(TableTransactionAction[]::new));

        assertThat(batch.operations()).hasSize(100);
        assertThat(batch.operations().get(99).index()).isEqualTo(99);
        assertThat(new String(batch.operations().get(99).body(), StandardCharsets.UTF_8)).contains("\"row99\"");
    }

    @Test
    void rejectsTheSdksHundredAndFirstOperationWithTheServicesMessageAtIndexZero() {
        List<TableTransactionAction> actions = new ArrayList<>();
        for (int i = 0; i < 101; i++) {
            actions.add(action(TableTransactionActionType.CREATE, new TableEntity(PK, "row" + i), false));
        }
        trySubmit(actions.toArray(TableTransactionAction[]::new));

        assertThatThrownBy(() -> endpoint.last().parse())
                .isInstanceOfSatisfying(TableServiceException.class, e -> {
                    assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_INPUT);
                    assertThat(e.failedIndex()).hasValue(0);
                    assertThat(e.getMessage()).isEqualTo(
                            "The batch request operation exceeds the maximum 100 changes per change set.");
                });
    }

    private static String entityUrl(String table, String rowKey) {
        return table + "(PartitionKey='" + PK_IN_URL + "',RowKey='" + rowKey + "')";
    }

    private static TableEntity withETag(TableEntity entity) {
        return entity.addProperty("odata.etag", ETAG);
    }

    private static TableTransactionAction action(TableTransactionActionType type, TableEntity entity,
                                                 boolean ifUnchanged) {
        return new TableTransactionAction(type, entity, ifUnchanged);
    }

    private BatchRequest submit(TableTransactionAction... actions) {
        trySubmit(actions);
        return endpoint.last().parse();
    }

    /** Submits; the endpoint answers 400 (it only records), so the SDK's exception is expected and ignored. */
    private void trySubmit(TableTransactionAction... actions) {
        int before = endpoint.received().size();
        assertThatThrownBy(() -> client.submitTransaction(List.of(actions)))
                .isInstanceOf(com.azure.data.tables.models.TableServiceException.class);
        assertThat(endpoint.received()).hasSize(before + 1);
    }

    private static void assertOperation(BatchOperation op, int index, BatchOperation.Method method, String url,
                                        List<String> headers, String body) {
        assertThat(op.index()).isEqualTo(index);
        assertThat(op.method()).isEqualTo(method);
        assertThat(op.url()).isEqualTo(url);
        assertThat(op.headers().asList().stream().map(f -> f.name() + ": " + f.value()).collect(Collectors.toList()))
                .containsExactlyElementsOf(headers);
        assertThat(new String(op.body(), StandardCharsets.UTF_8)).isEqualTo(body);
        assertThat(op.contentId()).isEqualTo(Optional.empty());
    }
}
