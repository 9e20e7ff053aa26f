package io.tablestream.protocol.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.model.ETag;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Golden tests of the response bytes, in the shape of the service's batch responses: the REST reference's
 * samples and responses recorded from the service in the JS SDKs' test sessions.
 */
class BatchResponseTest {
    private static final UUID BATCH = UUID.fromString("e69b1c6c-62ff-471e-ab88-9a4aeef0a880");
    private static final UUID CHANGE_SET = UUID.fromString("a6253244-7e21-42a8-a149-479ee9e94a25");
    private static final String URL = "http://127.0.0.1:10002/devstoreaccount1/Blogs(PartitionKey='Channel_19',RowKey='1')";
    private static final ETag ETAG = ETag.of("W/\"datetime'2024-05-01T12%3A00%3A00.1234567Z'\"");
    private static final String REQUEST_ID = "8abd3c55-a72e-47ba-ae0b-ba43abeb76ae";
    private static final Instant TIME = Instant.parse("2024-05-01T12:00:00.1234567Z");

    @Test
    void writesASuccessfulChangeSetAsTheServiceDoes() {
        BatchResponse response = BatchResponse.changeSet(List.of(
                OperationResponse.insertedWithoutContent(Optional.of("1"), URL, ETAG),
                OperationResponse.updated(Optional.empty(), ETAG),
                OperationResponse.deleted(Optional.empty())), BATCH, CHANGE_SET);

        assertThat(response.contentType())
                .isEqualTo("multipart/mixed; boundary=batchresponse_e69b1c6c-62ff-471e-ab88-9a4aeef0a880");
        assertThat(text(response)).isEqualTo(BatchRequestParserTest.crlf("""
                --batchresponse_e69b1c6c-62ff-471e-ab88-9a4aeef0a880
                Content-Type: multipart/mixed; boundary=changesetresponse_a6253244-7e21-42a8-a149-479ee9e94a25

                --changesetresponse_a6253244-7e21-42a8-a149-479ee9e94a25
                Content-Type: application/http
                Content-Transfer-Encoding: binary

                HTTP/1.1 204 No Content
                Content-ID: 1
                X-Content-Type-Options: nosniff
                Cache-Control: no-cache
                Preference-Applied: return-no-content
                DataServiceVersion: 3.0;
                Location: http://127.0.0.1:10002/devstoreaccount1/Blogs(PartitionKey='Channel_19',RowKey='1')
                DataServiceId: http://127.0.0.1:10002/devstoreaccount1/Blogs(PartitionKey='Channel_19',RowKey='1')
                ETag: W/"datetime'2024-05-01T12%3A00%3A00.1234567Z'"


                --changesetresponse_a6253244-7e21-42a8-a149-479ee9e94a25
                Content-Type: application/http
                Content-Transfer-Encoding: binary

                HTTP/1.1 204 No Content
                X-Content-Type-Options: nosniff
                Cache-Control: no-cache
                DataServiceVersion: 1.0;
                ETag: W/"datetime'2024-05-01T12%3A00%3A00.1234567Z'"


                --changesetresponse_a6253244-7e21-42a8-a149-479ee9e94a25
                Content-Type: application/http
                Content-Transfer-Encoding: binary

                HTTP/1.1 204 No Content
                X-Content-Type-Options: nosniff
                Cache-Control: no-cache
                DataServiceVersion: 1.0;


                --changesetresponse_a6253244-7e21-42a8-a149-479ee9e94a25--
                --batchresponse_e69b1c6c-62ff-471e-ab88-9a4aeef0a880--
                """));
    }

    @Test
    void writesAFailedChangeSetAsTheServiceDoes() {
        TableServiceException error = TableServiceException.of(ErrorCode.ENTITY_ALREADY_EXISTS).atIndex(1);

        BatchResponse response = BatchResponse.failedChangeSet(
                OperationResponse.failed(Optional.of("2"), error, REQUEST_ID, TIME), BATCH, CHANGE_SET);

        assertThat(text(response)).isEqualTo(BatchRequestParserTest.crlf("""
                --batchresponse_e69b1c6c-62ff-471e-ab88-9a4aeef0a880
                Content-Type: multipart/mixed; boundary=changesetresponse_a6253244-7e21-42a8-a149-479ee9e94a25

                --changesetresponse_a6253244-7e21-42a8-a149-479ee9e94a25
                Content-Type: application/http
                Content-Transfer-Encoding: binary

                HTTP/1.1 409 Conflict
                Content-ID: 2
                X-Content-Type-Options: nosniff
                DataServiceVersion: 3.0;
                Content-Type: application/json;odata=minimalmetadata;streaming=true;charset=utf-8

                {"odata.error":{"code":"EntityAlreadyExists","message":{"lang":"en-US","value":"1:The specified \
                entity already exists.\\nRequestId:8abd3c55-a72e-47ba-ae0b-ba43abeb76ae\\nTime:2024-05-01T12:00:00.\
                1234567Z"}}}
                --changesetresponse_a6253244-7e21-42a8-a149-479ee9e94a25--
                --batchresponse_e69b1c6c-62ff-471e-ab88-9a4aeef0a880--
                """));
    }

    @Test
    void writesAnInsertThatEchoesTheEntityAsTheServiceDoes() {
        String entity = "{\"odata.metadata\":\"http://127.0.0.1:10002/devstoreaccount1/$metadata#Blogs/@Element\","
                + "\"PartitionKey\":\"Channel_19\",\"RowKey\":\"1\",\"Timestamp\":\"2024-05-01T12:00:00.1234567Z\"}";

        BatchResponse response = BatchResponse.changeSet(List.of(OperationResponse.inserted(Optional.of("1"), URL, ETAG,
                "application/json;odata=minimalmetadata;streaming=true;charset=utf-8",
                entity.getBytes(StandardCharsets.UTF_8))), BATCH, CHANGE_SET);

        assertThat(text(response)).contains(BatchRequestParserTest.crlf("""
                HTTP/1.1 201 Created
                DataServiceVersion: 3.0;
                Content-Type: application/json;odata=minimalmetadata;streaming=true;charset=utf-8
                Content-ID: 1
                X-Content-Type-Options: nosniff
                Cache-Control: no-cache
                Location: http://127.0.0.1:10002/devstoreaccount1/Blogs(PartitionKey='Channel_19',RowKey='1')
                ETag: W/"datetime'2024-05-01T12%3A00%3A00.1234567Z'"

                """) + entity + "\r\n--changesetresponse_a6253244-7e21-42a8-a149-479ee9e94a25--\r\n");
    }

    @Test
    void writesALoneQuerysResponseDirectlyInTheBatch() {
        String entity = "{\"PartitionKey\":\"Channel_19\",\"RowKey\":\"1\"}";

        BatchResponse response = BatchResponse.query(OperationResponse.queried(ETAG,
                "application/json;odata=minimalmetadata;streaming=true;charset=utf-8",
                entity.getBytes(StandardCharsets.UTF_8)), BATCH);

        assertThat(text(response)).isEqualTo(BatchRequestParserTest.crlf("""
                --batchresponse_e69b1c6c-62ff-471e-ab88-9a4aeef0a880
                Content-Type: application/http
                Content-Transfer-Encoding: binary

                HTTP/1.1 200 OK
                DataServiceVersion: 3.0;
                Content-Type: application/json;odata=minimalmetadata;streaming=true;charset=utf-8
                X-Content-Type-Options: nosniff
                Cache-Control: no-cache
                ETag: W/"datetime'2024-05-01T12%3A00%3A00.1234567Z'"

                {"PartitionKey":"Channel_19","RowKey":"1"}
                --batchresponse_e69b1c6c-62ff-471e-ab88-9a4aeef0a880--
                """));
    }

    @Test
    void writesEveryErrorStatusWithItsReasonPhrase() {
        for (ErrorCode code : ErrorCode.values()) {
            OperationResponse failed = OperationResponse.failed(Optional.empty(), TableServiceException.of(code).atIndex(0),
                    REQUEST_ID, TIME);

            String text = text(BatchResponse.failedChangeSet(failed, BATCH, CHANGE_SET));

            assertThat(text).as(code.code()).containsPattern("\r\nHTTP/1\\.1 " + code.httpStatus() + " [A-Z][A-Za-z ]+\r\n");
            assertThat(text).as(code.code()).contains("{\"odata.error\":{\"code\":\"" + code.code() + "\"");
        }
    }

    @Test
    void usesFreshIdsForEachResponse() {
        List<OperationResponse> one = List.of(OperationResponse.deleted(Optional.empty()));

        assertThat(BatchResponse.changeSet(one).contentType()).isNotEqualTo(BatchResponse.changeSet(one).contentType());
    }

    @Test
    void refusesToWriteAHeaderValueThatWouldBreakTheLine() {
        assertThatThrownBy(() -> OperationResponse.updated(Optional.of("1\r\nX-Injected: yes"), ETAG))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> OperationResponse.insertedWithoutContent(Optional.empty(), "http://h/\n", ETAG))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void refusesEmptyChangeSetsAndSuccessStatusesAsFailures() {
        assertThatThrownBy(() -> BatchResponse.changeSet(List.of())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BatchResponse.failedChangeSet(OperationResponse.deleted(Optional.empty())))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static String text(BatchResponse response) {
        return new String(response.body(), StandardCharsets.UTF_8);
    }
}
