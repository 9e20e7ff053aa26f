package io.tablestream.protocol.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablestream.core.command.EntityOperation;
import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.odata.MetadataLevel;
import io.tablestream.protocol.batch.BatchOperation;
import io.tablestream.protocol.batch.HeaderField;
import io.tablestream.protocol.batch.HeaderFields;
import io.tablestream.protocol.request.Operation;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/** How one entity write is read, from a change-set operation and (through the same record) from a request of its own. */
class EntityWriteRequestTest {
    private static final String ACCOUNT = "acct";
    private static final String BASE = "http://127.0.0.1:10002/acct/";

    /** Operation 0 of a change set: method, URL, then header name/value pairs (Content-Type JSON unless given). */
    private static BatchOperation op(BatchOperation.Method method, String url, String... headers) {
        List<HeaderField> fields = new ArrayList<>();
        if (!List.of(headers).contains("Content-Type")) {
            fields.add(HeaderField.of("Content-Type", "application/json"));
        }
        return opWith(method, url, fields, headers);
    }

    /** Operation 0 of a change set with exactly the headers given. */
    private static BatchOperation bareOp(BatchOperation.Method method, String url, String... headers) {
        return opWith(method, url, new ArrayList<>(), headers);
    }

    private static BatchOperation opWith(BatchOperation.Method method, String url, List<HeaderField> fields,
                                         String... headers) {
        for (int i = 0; i < headers.length; i += 2) {
            fields.add(HeaderField.of(headers[i], headers[i + 1]));
        }
        return new BatchOperation(0, method, url, HeaderFields.of(fields),
                "{\"PartitionKey\":\"p\",\"RowKey\":\"r\"}".getBytes(StandardCharsets.UTF_8), Optional.empty());
    }

    private static EntityWriteRequest write(Operation operation, List<String> ifMatch, boolean ifNoneMatch) {
        return new EntityWriteRequest(operation, "Orders", "p", "r", ifMatch, ifNoneMatch, List.of(), null,
                null, () -> new byte[0]);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
            "POST   | Orders                              |   | INSERT_ENTITY",
            "PUT    | Orders(PartitionKey='p',RowKey='r') | * | UPDATE_ENTITY",
            "PUT    | Orders(PartitionKey='p',RowKey='r') |   | INSERT_OR_REPLACE_ENTITY",
            "MERGE  | Orders(PartitionKey='p',RowKey='r') | * | MERGE_ENTITY",
            "MERGE  | Orders(PartitionKey='p',RowKey='r') |   | INSERT_OR_MERGE_ENTITY",
            "PATCH  | Orders(PartitionKey='p',RowKey='r') |   | INSERT_OR_MERGE_ENTITY",
            "DELETE | Orders(PartitionKey='p',RowKey='r') | * | DELETE_ENTITY"})
    void anOperationsMethodAndIfMatchDecideWhatItIsAsForARequestOfItsOwn(BatchOperation.Method method, String path,
                                                                        String ifMatch, Operation expected) {
        BatchOperation op = ifMatch == null ? op(method, BASE + path) : op(method, BASE + path, "If-Match", ifMatch);

        EntityWriteRequest write = EntityWriteRequest.fromChangeSet(ACCOUNT, op);

        assertThat(write.operation()).isEqualTo(expected);
        assertThat(write.table()).isEqualTo("Orders");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
            "http://127.0.0.1:10002/acct/Orders(PartitionKey='p',RowKey='r')",
            "Orders(PartitionKey='p',RowKey='r')",
            "/acct/Orders(PartitionKey='p',RowKey='r')",
            "\"  http://other-host/acct/Orders(PartitionKey='p',RowKey='r')?$format=json  \""})
    void anOperationsUrlNamesTheTableAndKeysWhetherAbsoluteAnAbsolutePathOrRelativeToTheAccount(String url) {
        EntityWriteRequest write = EntityWriteRequest.fromChangeSet(ACCOUNT,
                op(BatchOperation.Method.DELETE, url, "If-Match", "*"));

        assertThat(write.table()).isEqualTo("Orders");
        assertThat(write.partitionKey()).isEqualTo("p");
        assertThat(write.rowKey()).isEqualTo("r");
    }

    @Test
    void anInsertsUrlNamesNoKeys() {
        EntityWriteRequest write = EntityWriteRequest.fromChangeSet(ACCOUNT, op(BatchOperation.Method.POST, "Orders()"));

        assertThat(write.type()).isEqualTo(EntityOperation.Type.INSERT);
        assertThat(write.partitionKey()).isNull();
        assertThat(write.rowKey()).isNull();
    }

    @Test
    void anOperationOnAnotherAccountIsRefused() {
        assertFails(() -> EntityWriteRequest.fromChangeSet(ACCOUNT,
                op(BatchOperation.Method.POST, "http://127.0.0.1:10002/other/Orders")), ErrorCode.INVALID_INPUT);
        assertFails(() -> EntityWriteRequest.fromChangeSet(ACCOUNT, op(BatchOperation.Method.POST, "/other/Orders")),
                ErrorCode.INVALID_INPUT);
    }

    @Test
    void aWriteToTheSecondaryLocationIsRefusedAsARequestOfItsOwnIs() {
        assertFails(() -> EntityWriteRequest.fromChangeSet(ACCOUNT,
                op(BatchOperation.Method.POST, "http://127.0.0.1:10002/acct-secondary/Orders")),
                ErrorCode.INSUFFICIENT_ACCOUNT_PERMISSIONS);
        assertFails(() -> EntityWriteRequest.fromChangeSet(ACCOUNT,
                op(BatchOperation.Method.DELETE, "/acct-secondary/Orders(PartitionKey='p',RowKey='r')", "If-Match", "*")),
                ErrorCode.INSUFFICIENT_ACCOUNT_PERMISSIONS);
    }

    @Test
    void anOperationsBodyMustBeJsonAsARequestsIs() {
        assertFails(() -> EntityWriteRequest.fromChangeSet(ACCOUNT, bareOp(BatchOperation.Method.POST, "Orders")),
                ErrorCode.INVALID_INPUT);
        assertFails(() -> EntityWriteRequest.fromChangeSet(ACCOUNT,
                op(BatchOperation.Method.PUT, "Orders(PartitionKey='p',RowKey='r')", "Content-Type",
                        "application/atom+xml")), ErrorCode.ATOM_FORMAT_NOT_SUPPORTED);
        assertFails(() -> EntityWriteRequest.fromChangeSet(ACCOUNT,
                op(BatchOperation.Method.MERGE, "Orders(PartitionKey='p',RowKey='r')", "Content-Type", "text/plain")),
                ErrorCode.MEDIA_TYPE_NOT_SUPPORTED);
        assertThat(EntityWriteRequest.fromChangeSet(ACCOUNT, op(BatchOperation.Method.POST, "Orders", "Content-Type",
                "application/json;odata=nometadata;charset=utf-8")).operation()).isEqualTo(Operation.INSERT_ENTITY);
        // a delete carries no body, so no Content-Type
        assertThat(EntityWriteRequest.fromChangeSet(ACCOUNT, bareOp(BatchOperation.Method.DELETE,
                "Orders(PartitionKey='p',RowKey='r')", "If-Match", "*")).operation()).isEqualTo(Operation.DELETE_ENTITY);
    }

    @Test
    void anOperationWithAnUnreadableUrlIsInvalidUri() {
        assertFails(() -> EntityWriteRequest.fromChangeSet(ACCOUNT, op(BatchOperation.Method.POST, "http://a b/c")),
                ErrorCode.INVALID_URI);
    }

    @ParameterizedTest
    @CsvSource({"Tables", "$batch", "$transactions", "Tables('Orders')", "''"})
    void anOperationMustAddressAnEntityOrATablesEntities(String path) {
        assertFails(() -> EntityWriteRequest.fromChangeSet(ACCOUNT, op(BatchOperation.Method.POST, BASE + path)),
                ErrorCode.INVALID_INPUT);
    }

    @Test
    void aPostToAnEntityIsAVerbTheResourceDoesNotTake() {
        assertFails(() -> EntityWriteRequest.fromChangeSet(ACCOUNT,
                op(BatchOperation.Method.POST, BASE + "Orders(PartitionKey='p',RowKey='r')")),
                ErrorCode.UNSUPPORTED_HTTP_VERB);
    }

    @Test
    void anOperationThatWritesNoEntityHasNoType() {
        assertFails(() -> write(Operation.QUERY_ENTITIES, List.of(), false).type(), ErrorCode.INVALID_INPUT);
    }

    @Test
    void anOperationWithoutAcceptIsAnsweredInMinimalMetadataAndOneWithAcceptAsItAsks() {
        assertThat(EntityWriteRequest.fromChangeSet(ACCOUNT, op(BatchOperation.Method.POST, "Orders")).responseLevel())
                .isEqualTo(MetadataLevel.MINIMAL);
        assertThat(EntityWriteRequest.fromChangeSet(ACCOUNT,
                op(BatchOperation.Method.POST, "Orders", "Accept", "application/json;odata=nometadata")).responseLevel())
                .isEqualTo(MetadataLevel.NO);
    }

    @Test
    void onlyAnInsertReturnsContentAndOnlyUnlessItPrefersNot() {
        assertThat(EntityWriteRequest.fromChangeSet(ACCOUNT, op(BatchOperation.Method.POST, "Orders")).returnsContent())
                .isTrue();
        assertThat(EntityWriteRequest.fromChangeSet(ACCOUNT,
                op(BatchOperation.Method.POST, "Orders", "Prefer", "return-no-content")).returnsContent()).isFalse();
        assertThat(EntityWriteRequest.fromChangeSet(ACCOUNT,
                op(BatchOperation.Method.PUT, "Orders(PartitionKey='p',RowKey='r')", "Prefer", "return-content"))
                .returnsContent()).isFalse();
    }

    @Test
    void takesOneWellFormedIfMatchInItsCanonicalSpelling() {
        assertThat(write(Operation.UPDATE_ENTITY, List.of(" W/\"x\" "), false).condition()).isEqualTo("W/\"x\"");
        assertThat(write(Operation.DELETE_ENTITY, List.of("*"), false).condition()).isEqualTo("*");
        assertThat(write(Operation.INSERT_OR_MERGE_ENTITY, List.of(), false).condition()).isNull();
    }

    @Test
    void rejectsTwoIfMatchHeadersEvenWhenBothAreValid() {
        assertFails(() -> write(Operation.UPDATE_ENTITY, List.of("*", "*"), false).condition(), ErrorCode.INVALID_INPUT);
    }

    @Test
    void rejectsAMalformedIfMatch() {
        assertFails(() -> write(Operation.MERGE_ENTITY, List.of("\"a\", \"b\""), false).condition(),
                ErrorCode.INVALID_INPUT);
    }

    @Test
    void requiresIfMatchOnDelete() {
        assertFails(() -> write(Operation.DELETE_ENTITY, List.of(), false).condition(),
                ErrorCode.MISSING_REQUIRED_HEADER);
        assertFails(() -> EntityWriteRequest.fromChangeSet(ACCOUNT,
                op(BatchOperation.Method.DELETE, "Orders(PartitionKey='p',RowKey='r')")).condition(),
                ErrorCode.MISSING_REQUIRED_HEADER);
    }

    @ParameterizedTest
    @EnumSource(value = Operation.class, names = {"UPDATE_ENTITY", "MERGE_ENTITY", "INSERT_OR_REPLACE_ENTITY",
            "INSERT_OR_MERGE_ENTITY", "DELETE_ENTITY"})
    void rejectsIfNoneMatchOnWritesToAnEntity(Operation operation) {
        assertFails(() -> write(operation, List.of("*"), true).condition(), ErrorCode.INVALID_INPUT);
    }

    @Test
    void theBodyIsReadOnlyWhenAskedFor() {
        EntityWriteRequest write = new EntityWriteRequest(Operation.DELETE_ENTITY, "Orders", "p", "r", List.of("*"),
                false, List.of(), null, null, () -> {
                    throw new AssertionError("the body was read");
                });

        assertThat(write.condition()).isEqualTo("*");
        assertThat(write.type()).isEqualTo(EntityOperation.Type.DELETE);
    }

    private static void assertFails(Runnable r, ErrorCode code) {
        assertThatThrownBy(r::run).isInstanceOfSatisfying(TableServiceException.class,
                e -> assertThat(e.errorCode()).isEqualTo(code));
    }
}
