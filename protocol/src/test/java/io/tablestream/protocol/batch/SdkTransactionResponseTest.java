package io.tablestream.protocol.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionResponse;
import com.azure.data.tables.models.TableTransactionActionType;
import com.azure.data.tables.models.TableTransactionFailedException;
import com.azure.data.tables.models.TableTransactionResult;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.model.ETag;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The official Java SDK (azure-data-tables 12.5.9) reads what {@link BatchResponse} writes: a
 * {@link BatchEndpoint} parses each real {@code submitTransaction} with {@link BatchRequest#parse} and
 * answers with the writer's output, and the SDK's results are checked.
 */
class SdkTransactionResponseTest {
    private static final String PK = "pk";
    private static final String REQUEST_ID = "5f3b1c2e-0000-0000-0000-000000000000";
    private static final Instant TIME = Instant.parse("2024-05-01T12:00:00.1234567Z");

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
    void sdkReadsEachOperationsStatusAndETagFromASuccessfulChangeSet() {
        endpoint.answering(received -> BatchResponse.changeSet(succeed(received.parse())));

        TableTransactionResult result = client.submitTransaction(List.of(
                action(TableTransactionActionType.CREATE, "r0"),
                action(TableTransactionActionType.UPSERT_MERGE, "r1"),
                action(TableTransactionActionType.UPSERT_REPLACE, "r2"),
                action(TableTransactionActionType.UPDATE_MERGE, "r3"),
                action(TableTransactionActionType.UPDATE_REPLACE, "r4"),
                action(TableTransactionActionType.DELETE, "r5")));

        List<TableTransactionActionResponse> responses = result.getTransactionActionResponses();
        assertThat(responses).extracting(TableTransactionActionResponse::getStatusCode)
                .containsExactly(204, 204, 204, 204, 204, 204);
        assertThat(responses).extracting(r -> r.getRequest().getUrl().toString()).containsExactly(
                entityUrlOf("mytable"), entityUrl("r1"), entityUrl("r2"), entityUrl("r3"), entityUrl("r4"),
                entityUrl("r5"));
        assertThat(result.getTableTransactionActionResponseByRowKey("r3").getStatusCode()).isEqualTo(204);
        // SDK 12.5.9 reads every header line of an operation's response but then copies the headers the wrong
        // way round (TablesMultipartSerializer's builder: builder.headers.setAllHttpHeaders(response.headers)),
        // so no per-operation header reaches the caller. The ETags are checked in the bytes (BatchResponseTest);
        // when an SDK upgrade fixes this, this assertion fails and the ETags can be checked here.
        assertThat(responses.get(0).getHeaders().getValue("ETag")).isNull();
    }

    private String entityUrlOf(String table) {
        return endpoint.endpoint() + "/" + table;
    }

    @Test
    void sdkReadsAnInsertThatEchoesTheEntity() {
        endpoint.answering(received -> BatchResponse.changeSet(List.of(OperationResponse.inserted(
                received.parse().operations().get(0).contentId(), entityUrl("r0"), etag(0),
                "application/json;odata=minimalmetadata;streaming=true;charset=utf-8",
                ("{\"odata.metadata\":\"" + endpoint.endpoint() + "/$metadata#mytable/@Element\","
                        + "\"odata.etag\":\"" + etag(0).value().replace("\"", "\\\"") + "\","
                        + "\"PartitionKey\":\"pk\",\"RowKey\":\"r0\",\"Timestamp\":\"2024-05-01T12:00:00.1234567Z\"}")
                        .getBytes(StandardCharsets.UTF_8)))));

        TableTransactionResult result = client.submitTransaction(List.of(action(TableTransactionActionType.CREATE, "r0")));

        assertThat(result.getTransactionActionResponses()).singleElement()
                .satisfies(r -> assertThat(r.getStatusCode()).isEqualTo(201));
    }

    @Test
    void sdkNamesTheFailedActionAndItsErrorCode() {
        answerWithFailure(TableServiceException.of(ErrorCode.ENTITY_ALREADY_EXISTS).atIndex(1));

        assertThatThrownBy(() -> client.submitTransaction(List.of(
                action(TableTransactionActionType.CREATE, "r0"),
                action(TableTransactionActionType.CREATE, "r1"),
                action(TableTransactionActionType.CREATE, "r2"))))
                .isInstanceOfSatisfying(TableTransactionFailedException.class, e -> {
                    assertThat(e.getFailedTransactionActionIndex()).isEqualTo(1);
                    assertThat(e.getValue().getErrorCode().toString()).isEqualTo("EntityAlreadyExists");
                    assertThat(e.getValue().getErrorMessage()).startsWith("1:The specified entity already exists.");
                    assertThat(e.getMessage()).contains("The failed operation was").contains("r1");
                });
    }

    @Test
    void sdkReadsFailuresOfEveryStatusTheServiceAnswersInAChangeSet() {
        List<TableServiceException> failures = List.of(
                TableServiceException.of(ErrorCode.TABLE_NOT_FOUND).atIndex(0),
                TableServiceException.of(ErrorCode.ENTITY_NOT_FOUND).atIndex(2),
                TableServiceException.of(ErrorCode.UPDATE_CONDITION_NOT_SATISFIED).atIndex(1),
                TableServiceException.of(ErrorCode.COMMANDS_IN_BATCH_ACT_ON_DIFFERENT_PARTITIONS).atIndex(2),
                TableServiceException.of(ErrorCode.ENTITY_TOO_LARGE).atIndex(0),
                TableServiceException.of(ErrorCode.SERVER_BUSY).atIndex(1));
        for (TableServiceException failure : failures) {
            answerWithFailure(failure);

            assertThatThrownBy(() -> client.submitTransaction(List.of(
                    action(TableTransactionActionType.UPDATE_MERGE, "r0"),
                    action(TableTransactionActionType.UPDATE_REPLACE, "r1"),
                    action(TableTransactionActionType.DELETE, "r2"))))
                    .as(failure.errorCode().code())
                    .isInstanceOfSatisfying(TableTransactionFailedException.class, e -> {
                        assertThat(e.getFailedTransactionActionIndex()).isEqualTo(failure.failedIndex().getAsInt());
                        assertThat(e.getValue().getErrorCode().toString()).isEqualTo(failure.errorCode().code());
                    });
        }
    }

    @Test
    void sdkReadsTheParsersRejectionOfItsHundredAndFirstActionAsAFailedTransaction() {
        endpoint.answering(received -> {
            try {
                received.parse();
                throw new AssertionError("101 operations parsed");
            } catch (TableServiceException e) {
                return BatchResponse.failedChangeSet(
                        OperationResponse.failed(java.util.Optional.empty(), e, REQUEST_ID, TIME));
            }
        });
        List<TableTransactionAction> actions = new ArrayList<>();
        for (int i = 0; i < 101; i++) {
            actions.add(action(TableTransactionActionType.CREATE, "r" + i));
        }

        assertThatThrownBy(() -> client.submitTransaction(actions))
                .isInstanceOfSatisfying(TableTransactionFailedException.class, e -> {
                    assertThat(e.getFailedTransactionActionIndex()).isEqualTo(0);
                    assertThat(e.getValue().getErrorCode().toString()).isEqualTo("InvalidInput");
                    assertThat(e.getValue().getErrorMessage())
                            .startsWith("0:The batch request operation exceeds the maximum 100 changes per change set.");
                });
    }

    private void answerWithFailure(TableServiceException failure) {
        Function<BatchEndpoint.Received, BatchResponse> responder = received -> {
            BatchOperation failed = received.parse().operations().get(failure.failedIndex().getAsInt());
            return BatchResponse.failedChangeSet(OperationResponse.failed(failed.contentId(), failure, REQUEST_ID, TIME));
        };
        endpoint.answering(responder);
    }

    /** What the service answers for each operation when all succeed. */
    private List<OperationResponse> succeed(BatchRequest batch) {
        List<OperationResponse> responses = new ArrayList<>();
        for (BatchOperation op : batch.operations()) {
            OperationResponse response;
            if (op.method() == BatchOperation.Method.POST) {
                String rowKey = new String(op.body(), StandardCharsets.UTF_8).replaceAll(".*\"RowKey\":\"([^\"]*)\".*", "$1");
                response = OperationResponse.insertedWithoutContent(op.contentId(), entityUrl(rowKey), etag(op.index()));
            } else if (op.method() == BatchOperation.Method.DELETE) {
                response = OperationResponse.deleted(op.contentId());
            } else {
                response = OperationResponse.updated(op.contentId(), etag(op.index()));
            }
            responses.add(response);
        }
        return responses;
    }

    private String entityUrl(String rowKey) {
        return endpoint.endpoint() + "/mytable(PartitionKey='pk',RowKey='" + rowKey + "')";
    }

    private static ETag etag(int index) {
        return ETag.of("W/\"datetime'2024-05-01T12%3A00%3A0" + index + ".1234567Z'\"");
    }

    private static TableTransactionAction action(TableTransactionActionType type, String rowKey) {
        return new TableTransactionAction(type, new TableEntity(PK, rowKey));
    }
}
